import path from 'node:path';
import { fileError } from './errors';

/**
 * Lexical path rules (no file system access): resolution against the first workspace root, `~`,
 * containment, display. Kept pure so the Windows rules can be tested on any machine by passing
 * platform 'win32'.
 */
export interface PathRules {
  /** What the rules were made from. */
  readonly platform: NodeJS.Platform;
  readonly home: string;
  readonly windows: boolean;
  readonly sep: '/' | '\\';
  readonly api: path.PlatformPath;
  /** Absolute, normalised, `~` expanded; throws INVALID_PATH for what is not a usable path. */
  resolve(given: string, base: string): string;
  /** child === parent or child lies below parent (case-insensitive on Windows). */
  isInside(child: string, parent: string): boolean;
  /** Same test, but case-insensitive wherever the usual file system is (Windows and macOS): for deny lists, where a false match is the safe mistake. */
  isInsideFolded(child: string, parent: string): boolean;
  /** Relative path with forward slashes; '.' for parent itself. Assumes isInside(child, parent). */
  relative(parent: string, child: string): string;
  /**
   * How names are compared: Unicode-normalised (NFC), and upper-cased where the usual file system
   * ignores case (Windows, macOS). Two names with the same key are one name to a person.
   */
  nameKey(name: string): string;
}

// Windows file names cannot contain these; a model that sends them means a glob or made a mistake.
const WINDOWS_BAD_CHARS = /[<>"|?*\u0000-\u001f]/;
// Device names: opening "NUL" or "CON.txt" anywhere talks to a device, not a file.
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;

export function createPathRules(options: { readonly platform: NodeJS.Platform; readonly home: string }): PathRules {
  const windows = options.platform === 'win32';
  const api = windows ? path.win32 : path.posix;
  const sep = windows ? '\\' : '/';
  const foldCase = windows;
  const foldCaseForDeny = windows || options.platform === 'darwin';

  function expandHome(p: string): string {
    if (p === '~') return options.home;
    if (p.startsWith('~/') || (windows && p.startsWith('~\\'))) return options.home + sep + p.slice(2);
    // '~user' and '~$보고서.xlsx' (Office lock files) are ordinary relative names.
    return p;
  }

  function checkWindowsSyntax(given: string, abs: string): void {
    // \\?\ and \\.\ bypass Win32 normalisation (and reach devices); nobody types them by accident.
    if (/^[\\/]{2}[?.][\\/]/.test(given)) throw fileError('INVALID_PATH', given, 'device namespace path');
    // "D:report.txt" is relative to D:'s hidden per-drive current directory: ambiguous, refuse.
    if (/^[a-zA-Z]:(?![\\/])/.test(given)) throw fileError('INVALID_PATH', given, 'drive-relative path');
    const root = path.win32.parse(abs).root;
    for (const part of abs.slice(root.length).split('\\')) {
      if (part === '') continue;
      // "a.txt:secret" is an alternate data stream; "a.txt." and "a.txt " name a.txt itself, which
      // would let a path slip past a deny rule written for a.txt.
      if (part.includes(':')) throw fileError('INVALID_PATH', given, 'colon in file name');
      if (/[. ]$/.test(part)) throw fileError('INVALID_PATH', given, 'name ends with a dot or space');
      if (WINDOWS_BAD_CHARS.test(part)) throw fileError('INVALID_PATH', given, 'character not allowed in file names');
      if (WINDOWS_DEVICE_NAME.test(part)) throw fileError('INVALID_PATH', given, 'device name');
    }
  }

  function resolve(given: string, base: string): string {
    if (typeof given !== 'string' || given.trim() === '') throw fileError('INVALID_PATH', String(given), 'empty');
    if (given.includes('\0')) throw fileError('INVALID_PATH', given, 'NUL byte');
    // A backslash is a separator on every platform: see docs/2026-12-02-backslash-is-a-separator.md
    // (the policy layer reads paths the same way, so both judge the same file).
    const abs = api.resolve(base, expandHome(windows ? given : given.replace(/\\/g, '/')));
    if (windows) checkWindowsSyntax(given, abs);
    return abs;
  }

  function inside(child: string, parent: string, fold: boolean): boolean {
    const c = fold ? upper(child) : child;
    const p = fold ? upper(parent) : parent;
    if (c === p) return true;
    const prefix = p.endsWith(sep) ? p : p + sep;
    return c.startsWith(prefix);
  }

  function relative(parent: string, child: string): string {
    if (inside(child, parent, foldCase) && child.length === parent.length) return '.';
    const start = parent.endsWith(sep) ? parent.length : parent.length + 1;
    const rel = child.slice(start);
    return windows ? rel.replace(/\\/g, '/') : rel;
  }

  return {
    platform: options.platform,
    home: options.home,
    windows,
    sep,
    api,
    resolve,
    isInside: (child, parent) => inside(child, parent, foldCase),
    isInsideFolded: (child, parent) => inside(child, parent, foldCaseForDeny),
    relative,
    nameKey: (name) => (foldCaseForDeny ? upper(name.normalize('NFC')) : name.normalize('NFC')),
  };
}

/**
 * Upper-cases one code point at a time, like NTFS's upcase table: String.toUpperCase alone turns
 * 'ß' into 'SS' (a different length, so prefixes stop lining up), and toLowerCase is
 * context-sensitive for a final 'Σ'.
 */
function upper(s: string): string {
  if (/^[\u0000-\u007f]*$/.test(s)) return s.toUpperCase();
  let out = '';
  for (const ch of s) {
    const u = ch.toUpperCase();
    out += u.length === ch.length ? u : ch;
  }
  return out;
}
