import { baseName } from '../kit/paths';

/**
 * The languages code.stats counts and how each writes comments and strings. Strings matter
 * because a comment marker inside one ("/*" in a string, "#" in a URL) is not a comment: the
 * counter (line-counter.ts) skips over strings by these rules.
 */

export interface StringSyntax {
  readonly open: string;
  readonly close: string;
  /** A backslash escapes the next character. */
  readonly escape: boolean;
  /** May span lines (template literals, triple quotes, shell quotes); otherwise it ends at the line's end. */
  readonly multiline: boolean;
  /** Python: a triple-quoted string that begins a line is a docstring, counted as comment. */
  readonly docstring?: boolean;
}

export interface CommentSyntax {
  /** Line comments: from the marker to the end of the line. */
  readonly line: readonly string[];
  /** Block comments, [open, close]. */
  readonly block: readonly (readonly [string, string])[];
  /** Block comments nest (Rust, Kotlin, Swift): an inner opener needs its own closer. */
  readonly nested?: boolean;
  /** A line marker counts only at the start of a word ("#" in shell: `$#` and `a#b` are not comments). */
  readonly lineAtWordStart?: boolean;
  /** Block markers count only at the start of a line (Ruby's =begin / =end). */
  readonly blockAtLineStart?: boolean;
  /** Whole-line comments recognised by the line's first word, case-insensitive (batch files: REM, ::). */
  readonly linePrefixes?: readonly string[];
  readonly strings: readonly StringSyntax[];
  /**
   * `'x'` is a character literal only when it closes right away ('a', '\n', '\u{1F600}'); any other
   * `'` is code. Rust lifetimes (`&'a str`) would otherwise open a string that swallows the line.
   */
  readonly charLiterals?: boolean;
}

export interface Language {
  readonly name: string;
  readonly syntax: CommentSyntax;
}

const dq: StringSyntax = { open: '"', close: '"', escape: true, multiline: false };
const sq: StringSyntax = { open: "'", close: "'", escape: true, multiline: false };
const dqMulti: StringSyntax = { ...dq, multiline: true };
const sqMulti: StringSyntax = { ...sq, multiline: true };
const slashStar: readonly [string, string] = ['/*', '*/'];

const cLike: CommentSyntax = { line: ['//'], block: [slashStar], strings: [dq], charLiterals: true };
const hashOnly: CommentSyntax = { line: ['#'], block: [], lineAtWordStart: true, strings: [dqMulti, sqMulti] };
const markup: CommentSyntax = { line: [], block: [['<!--', '-->']], strings: [] };

const LANGUAGES = {
  typescript: { name: 'TypeScript', syntax: { line: ['//'], block: [slashStar], strings: [dq, sq, { open: '`', close: '`', escape: true, multiline: true }] } },
  javascript: { name: 'JavaScript', syntax: { line: ['//'], block: [slashStar], strings: [dq, sq, { open: '`', close: '`', escape: true, multiline: true }] } },
  python: {
    name: 'Python',
    syntax: {
      line: ['#'],
      block: [],
      strings: [
        { open: '"""', close: '"""', escape: true, multiline: true, docstring: true },
        { open: "'''", close: "'''", escape: true, multiline: true, docstring: true },
        dq,
        sq,
      ],
    },
  },
  java: { name: 'Java', syntax: { ...cLike, strings: [{ open: '"""', close: '"""', escape: true, multiline: true }, dq] } },
  csharp: {
    name: 'C#',
    syntax: { ...cLike, strings: [{ open: '"""', close: '"""', escape: false, multiline: true }, { open: '@"', close: '"', escape: false, multiline: true }, dq] },
  },
  c: { name: 'C', syntax: cLike },
  cpp: { name: 'C++', syntax: cLike },
  go: { name: 'Go', syntax: { ...cLike, strings: [dq, { open: '`', close: '`', escape: false, multiline: true }] } },
  rust: { name: 'Rust', syntax: { ...cLike, nested: true, strings: [{ open: 'r#"', close: '"#', escape: false, multiline: true }, dqMulti] } },
  kotlin: { name: 'Kotlin', syntax: { ...cLike, nested: true, strings: [{ open: '"""', close: '"""', escape: false, multiline: true }, dq] } },
  swift: { name: 'Swift', syntax: { ...cLike, nested: true, strings: [{ open: '"""', close: '"""', escape: true, multiline: true }, dq], charLiterals: false } },
  php: { name: 'PHP', syntax: { line: ['//', '#'], block: [slashStar], strings: [dqMulti, sqMulti] } },
  ruby: { name: 'Ruby', syntax: { ...hashOnly, block: [['=begin', '=end']], blockAtLineStart: true } },
  shell: { name: 'Shell', syntax: hashOnly },
  powershell: { name: 'PowerShell', syntax: { ...hashOnly, block: [['<#', '#>']], strings: [{ ...dqMulti, escape: false }, { ...sqMulti, escape: false }] } },
  batch: { name: 'Batch', syntax: { line: [], block: [], linePrefixes: ['rem', '::', '@rem'], strings: [] } },
  sql: { name: 'SQL', syntax: { line: ['--'], block: [slashStar], strings: [{ open: "'", close: "'", escape: false, multiline: true }] } },
  html: { name: 'HTML', syntax: markup },
  xml: { name: 'XML', syntax: markup },
  css: { name: 'CSS', syntax: { line: [], block: [slashStar], strings: [dq, sq] } },
  scss: { name: 'SCSS', syntax: { line: ['//'], block: [slashStar], strings: [dq, sq] } },
  // JSON has no comments; JSONC and tsconfig files do, and "//" never occurs outside a JSON string.
  json: { name: 'JSON', syntax: { line: ['//'], block: [slashStar], strings: [dq] } },
  yaml: { name: 'YAML', syntax: { line: ['#'], block: [], lineAtWordStart: true, strings: [dq, { open: "'", close: "'", escape: false, multiline: false }] } },
  toml: { name: 'TOML', syntax: { line: ['#'], block: [], strings: [{ open: '"""', close: '"""', escape: true, multiline: true }, { open: "'''", close: "'''", escape: false, multiline: true }, dq, { ...sq, escape: false }] } },
  markdown: { name: 'Markdown', syntax: markup },
  makefile: { name: 'Makefile', syntax: { line: ['#'], block: [], lineAtWordStart: true, strings: [] } },
  dockerfile: { name: 'Dockerfile', syntax: { line: ['#'], block: [], lineAtWordStart: true, strings: [] } },
} satisfies Record<string, Language>;

export type LanguageId = keyof typeof LANGUAGES;

const BY_EXTENSION: Readonly<Record<string, LanguageId>> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'typescript',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  py: 'python', pyw: 'python', pyi: 'python',
  java: 'java',
  cs: 'csharp',
  c: 'c', h: 'c',
  cpp: 'cpp', cc: 'cpp', cxx: 'cpp', 'c++': 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', ino: 'cpp',
  go: 'go',
  rs: 'rust',
  kt: 'kotlin', kts: 'kotlin',
  swift: 'swift',
  php: 'php',
  rb: 'ruby', rake: 'ruby', gemspec: 'ruby',
  sh: 'shell', bash: 'shell', zsh: 'shell', ksh: 'shell',
  ps1: 'powershell', psm1: 'powershell', psd1: 'powershell',
  bat: 'batch', cmd: 'batch',
  sql: 'sql',
  html: 'html', htm: 'html', xhtml: 'html',
  xml: 'xml', xsd: 'xml', xsl: 'xml', xslt: 'xml',
  css: 'css', scss: 'scss', less: 'scss',
  json: 'json', jsonc: 'json',
  yml: 'yaml', yaml: 'yaml',
  toml: 'toml',
  md: 'markdown', markdown: 'markdown',
  mk: 'makefile',
};

const BY_FILE_NAME: Readonly<Record<string, LanguageId>> = {
  makefile: 'makefile', gnumakefile: 'makefile', dockerfile: 'dockerfile', rakefile: 'ruby', gemfile: 'ruby', jenkinsfile: 'javascript',
};

/** Interpreters named on a `#!` line, version digits dropped (python3.11 → python). */
const BY_INTERPRETER: Readonly<Record<string, LanguageId>> = {
  python: 'python', sh: 'shell', bash: 'shell', zsh: 'shell', ksh: 'shell', dash: 'shell', ruby: 'ruby', node: 'javascript', pwsh: 'powershell', php: 'php',
};

export function languageById(id: LanguageId): Language {
  return LANGUAGES[id];
}

/** Lowercase extension without the dot; '' when the name has none (a leading dot is not one). */
export function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The language a file's name says, or null (then only a `#!` line can tell). */
export function languageOfName(path: string): LanguageId | null {
  const name = baseName(path).toLowerCase();
  return BY_FILE_NAME[name] ?? BY_EXTENSION[extensionOf(path)] ?? null;
}

/** The language a `#!` first line names ("#!/usr/bin/env python3" → python), or null. */
export function languageOfShebang(firstLine: string): LanguageId | null {
  if (!firstLine.startsWith('#!')) return null;
  const words = firstLine.slice(2).trim().split(/\s+/);
  let program = baseName(words[0] ?? '');
  if (program === 'env') program = words.slice(1).find((w) => !w.startsWith('-')) ?? '';
  program = program.replace(/[\d.]+$/, '');
  return BY_INTERPRETER[program] ?? null;
}
