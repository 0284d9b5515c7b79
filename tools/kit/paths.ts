/**
 * Lexical path helpers for the filesystem tools. Tools may not import node:path (DESIGN: all file
 * access goes through ctx.files), and these few string operations are all they need: the host
 * resolves, normalises and confines every path again before touching the disk.
 */

const SEPARATORS = /[\\/]+/;

function looksWindows(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

function trimTrailingSeparators(path: string): string {
  let end = path.length;
  while (end > 1 && (path[end - 1] === '/' || path[end - 1] === '\\')) end--;
  return path.slice(0, end);
}

/** Last segment of a path ("보고서/2024.xlsx" → "2024.xlsx"). */
export function baseName(path: string): string {
  const parts = trimTrailingSeparators(path).split(SEPARATORS);
  return parts[parts.length - 1] ?? '';
}

/** Everything before the last segment ("/a/b/c.txt" → "/a/b"); the root stays the root. */
export function parentPath(path: string): string {
  const trimmed = trimTrailingSeparators(path);
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (cut < 0) return '.';
  if (cut === 0) return trimmed.slice(0, 1);
  // "C:\x" → "C:\", not "C:" (which means "current folder on drive C").
  if (cut === 2 && /^[A-Za-z]:/.test(trimmed)) return trimmed.slice(0, 3);
  return trimmed.slice(0, cut);
}

/** Joins an absolute folder and one name with the folder's own separator style. */
export function joinPath(folder: string, name: string): string {
  const sep = looksWindows(folder) ? '\\' : '/';
  const base = trimTrailingSeparators(folder);
  return base.endsWith(sep) ? `${base}${name}` : `${base}${sep}${name}`;
}

/** True when the model wrote a trailing separator ("정리/2024/"): it means a folder. */
export function endsWithSeparator(path: string): boolean {
  return path.endsWith('/') || path.endsWith('\\');
}

function comparable(path: string): string {
  // NFC: a typed 자료 and a folder named on a Mac (NFD) are one folder (docs/2026-12-03-names-match-nfc.md).
  const unified = trimTrailingSeparators(path).replace(/\\/g, '/').normalize('NFC');
  // Windows file systems are case-insensitive; comparing case-folded avoids "moving a folder into itself".
  return looksWindows(path) ? unified.toLowerCase() : unified;
}

export function samePath(a: string, b: string): boolean {
  return comparable(a) === comparable(b);
}

/** `child` equals `parent` or lies below it (both absolute, normalised). */
export function isSameOrInside(child: string, parent: string): boolean {
  const c = comparable(child);
  const p = comparable(parent);
  if (c === p) return true;
  return c.startsWith(p.endsWith('/') ? p : `${p}/`);
}

/** Path of `absolute` below `folder`, with '/' separators (for name matching and listings). */
export function relativeTo(folder: string, absolute: string): string {
  const f = trimTrailingSeparators(folder).replace(/\\/g, '/');
  const a = absolute.replace(/\\/g, '/');
  if (a === f) return '';
  const prefix = f.endsWith('/') ? f : `${f}/`;
  return a.startsWith(prefix) ? a.slice(prefix.length) : a;
}

/**
 * Whether the string contains glob syntax. The same characters as the host's matcher
 * (electron/main/host/files/glob-match.ts): `*`, `?`, `[...]`, `{a,b}`. Parentheses, `+`, `@` and
 * `!` are literal there, so "보고서(1).xlsx" is a name, not a pattern.
 */
export function hasGlobChars(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

/**
 * Makes a folder path safe to put in front of a pattern: glob characters in a folder's own name
 * ("[2024] 자료") become one-character classes, which mean themselves on every platform (a
 * backslash escape would be a separator on Windows).
 */
export function escapeGlob(path: string): string {
  return path.replace(/[*?[{]/g, (c) => `[${c}]`);
}

/**
 * The host glob for a name pattern (list.pattern, search.namePattern) under `folder` (absolute):
 * - a pattern without '/' matches names at any depth when `anyDepth` ("*.xlsx" finds 보고서/a.xlsx);
 * - a pattern with '/' is anchored at the folder ("2024/*.csv");
 * - a plain word without glob characters matches names containing it ("보고서" finds
 *   "3월 보고서.hwp"): small models often send the word the user said, not a glob.
 * Matching itself happens in the host, in linear time, with the same rules as move/copy/delete, so
 * what a search shows is what a following move of the same pattern takes.
 */
export function namePatternGlob(folder: string, pattern: string, anyDepth: boolean): string {
  let p = pattern.trim().replace(/^(\.\/)+/, '');
  if (!hasGlobChars(p)) {
    const cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
    p = `${p.slice(0, cut + 1)}*${p.slice(cut + 1)}*`;
  }
  const base = escapeGlob(folder.replace(/[\\/]+$/, ''));
  const anchored = p.includes('/') || p.includes('\\');
  return anchored || !anyDepth ? `${base}/${p}` : `${base}/**/${p}`;
}
