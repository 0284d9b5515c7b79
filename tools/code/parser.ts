import { createRequire } from 'node:module';
import type { Language, Parser, Tree } from 'web-tree-sitter';
import type { GrammarId } from './grammars';

/**
 * Loads web-tree-sitter and its grammars on first use only: `baram tools` and every other tool
 * call never pay for the ~1 MB runtime or a grammar. The package and the grammar files are read
 * from node_modules at run time (scripts/build-cli.mjs keeps web-tree-sitter external), by the
 * library itself: no file of the workspace is involved, and workspace files reach the parser only
 * as text the tool read through ctx.files.
 */

type TreeSitter = typeof import('web-tree-sitter');

let runtime: Promise<TreeSitter> | undefined;
const languages = new Map<GrammarId, Promise<Language>>();

async function loadRuntime(): Promise<TreeSitter> {
  const ts = await import('web-tree-sitter');
  await ts.Parser.init();
  return ts;
}

/** Absolute path of a grammar's WASM file inside the installed @vscode/tree-sitter-wasm. */
function grammarFile(grammar: GrammarId): string {
  return createRequire(import.meta.url).resolve(`@vscode/tree-sitter-wasm/wasm/tree-sitter-${grammar}.wasm`);
}

async function languageOf(ts: TreeSitter, grammar: GrammarId): Promise<Language> {
  let loading = languages.get(grammar);
  if (!loading) {
    loading = ts.Language.load(grammarFile(grammar));
    // A failed load is not cached: the next call tries again.
    loading.catch(() => languages.delete(grammar));
    languages.set(grammar, loading);
  }
  return loading;
}

/**
 * Parses `source` and hands the tree to `use`; the tree and the parser are freed afterwards
 * (they live in WASM memory, which the garbage collector does not see).
 */
export async function withSyntaxTree<T>(grammar: GrammarId, source: string, use: (tree: Tree) => T): Promise<T> {
  runtime ??= loadRuntime();
  runtime.catch(() => (runtime = undefined));
  const ts = await runtime;
  const language = await languageOf(ts, grammar);
  const parser: Parser = new ts.Parser();
  try {
    parser.setLanguage(language);
    const tree = parser.parse(source);
    if (tree === null) throw new Error(`tree-sitter returned no tree for a ${grammar} file`);
    try {
      return use(tree);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}
