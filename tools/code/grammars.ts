import { extensionOf, languageOfName, languageOfShebang, type LanguageId } from './languages';

/**
 * Which tree-sitter grammar code.outline parses a file with. The grammars are the prebuilt WASM
 * files of @vscode/tree-sitter-wasm (the ones VS Code ships), which load in web-tree-sitter 0.27
 * under Node 20; tree-sitter-wasms 0.1.13 was built for an older ABI and does not load there
 * (docs/2026-12-03-code-tools.md). That package has no C grammar: C is parsed with the C++ one,
 * which reads C's functions, structs and enums the same way.
 */
export type GrammarId = 'typescript' | 'tsx' | 'javascript' | 'python' | 'java' | 'c-sharp' | 'go' | 'rust' | 'cpp' | 'php' | 'ruby' | 'bash' | 'powershell';

export interface GrammarChoice {
  readonly grammar: GrammarId;
  /** Shown to the user ("TypeScript", "C"). */
  readonly language: string;
}

const BY_LANGUAGE: Partial<Record<LanguageId, GrammarChoice>> = {
  typescript: { grammar: 'typescript', language: 'TypeScript' },
  javascript: { grammar: 'javascript', language: 'JavaScript' },
  python: { grammar: 'python', language: 'Python' },
  java: { grammar: 'java', language: 'Java' },
  csharp: { grammar: 'c-sharp', language: 'C#' },
  go: { grammar: 'go', language: 'Go' },
  rust: { grammar: 'rust', language: 'Rust' },
  c: { grammar: 'cpp', language: 'C' },
  cpp: { grammar: 'cpp', language: 'C++' },
  php: { grammar: 'php', language: 'PHP' },
  ruby: { grammar: 'ruby', language: 'Ruby' },
  shell: { grammar: 'bash', language: 'Shell' },
  powershell: { grammar: 'powershell', language: 'PowerShell' },
};

/** What the "unsupported" message lists. */
export const SUPPORTED_LANGUAGES = 'TypeScript, JavaScript, Python, Java, C#, Go, Rust, C, C++, PHP, Ruby, Shell, PowerShell';

/** The grammar for a file by its name, or by its `#!` line when the name says nothing. */
export function grammarFor(path: string, firstLine?: string): GrammarChoice | null {
  const ext = extensionOf(path);
  if (ext === 'tsx') return { grammar: 'tsx', language: 'TypeScript (TSX)' };
  const id = languageOfName(path) ?? (firstLine === undefined ? null : languageOfShebang(firstLine));
  return id === null ? null : (BY_LANGUAGE[id] ?? null);
}

/** True when the name alone rules the file out (it has a known non-parsable language or an extension we do not parse). */
export function unsupportedByName(path: string): boolean {
  const id = languageOfName(path);
  if (id !== null) return BY_LANGUAGE[id] === undefined;
  return extensionOf(path) !== '';
}
