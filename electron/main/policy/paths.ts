import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Path arithmetic for the permission layer, parameterised by platform so Windows rules can be
 * tested on Linux. Lexical forms are pure string work; the real form consults the disk.
 */
export type PathApi = typeof path.posix;

export function pathApi(platform: NodeJS.Platform): PathApi {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** `~` and `~/x` (also `~\x` on Windows) name the user's home; `~user` is not expanded. */
export function expandHome(p: string, home: string, platform: NodeJS.Platform): string {
  if (p === '~') return home;
  const sep = p[1];
  if (p[0] === '~' && (sep === '/' || (platform === 'win32' && sep === '\\'))) return pathApi(platform).join(home, p.slice(2));
  return p;
}

/**
 * Models trained on Windows examples write `..\\reports\\a.txt` on any machine. On POSIX a backslash
 * is a legal file-name character, so `..\\x` would name a file called "..\\x" inside the
 * workspace — harmless, but never what the model meant. We read it as a separator everywhere
 * (docs/2026-12-02-backslash-is-a-separator.md); the host file layer does the same.
 */
export function backslashesAsSeparators(p: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? p : p.replace(/\\/g, '/');
}

/**
 * NTFS and APFS are case-insensitive by default, so `C:\WS\A.txt` and `c:\ws\a.txt` are one file
 * there, and a rule must treat them alike or `.SSH` slips past `**\/.ssh/**`. Other platforms compare exactly.
 */
export function ignoresCase(platform: NodeJS.Platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

export function foldCase(p: string, platform: NodeJS.Platform): string {
  return ignoresCase(platform) ? p.toLowerCase() : p;
}

function withoutTrailingSeparator(p: string, api: PathApi): string {
  const root = api.parse(p).root;
  let out = p;
  while (out.length > root.length && (out.endsWith(api.sep) || out.endsWith('/'))) out = out.slice(0, -1);
  return out;
}

/** True when `child` is `parent` or lies below it, by whole path segments (`/ws2` is not in `/ws`). */
export function isInside(child: string, parent: string, platform: NodeJS.Platform): boolean {
  const api = pathApi(platform);
  const c = foldCase(api.normalize(child), platform);
  const p = foldCase(withoutTrailingSeparator(api.normalize(parent), api), platform);
  if (c === p) return true;
  const prefix = p.endsWith(api.sep) ? p : p + api.sep;
  return c.startsWith(prefix);
}

/**
 * `child` lies inside `parent` both as written and after every symlink is resolved. Narrowing a
 * folder setting (a --workspace, a user's workspaceRoots) must hold in both forms: a link inside
 * an allowed folder that points elsewhere passes the lexical test alone and would widen the roots.
 */
export function isInsideResolved(child: string, parent: string, platform: NodeJS.Platform): boolean {
  return isInside(child, parent, platform) && isInside(realForm(child, platform), realForm(parent, platform), platform);
}

/**
 * Absolute, lexically normalised form (`..` folded; on Windows both separators). Relative paths
 * resolve against `base` (the first workspace root), never the process's working directory: a
 * guess that depends on where the app was started would make rules unpredictable (seed TCH-06).
 * Returns null for what is not a path at all (empty, NUL byte, relative with no base).
 */
export function lexicalForm(raw: string, base: string | undefined, home: string, platform: NodeJS.Platform): string | null {
  if (raw === '' || raw.includes('\u0000')) return null;
  const api = pathApi(platform);
  let expanded = expandHome(backslashesAsSeparators(raw, platform), home, platform);
  if (platform === 'win32') {
    // 'D:x' means "x in drive D's current folder", which depends on process state: not a path we judge.
    if (/^[A-Za-z]:(?![\\/])/.test(expanded)) return null;
    // '\x' is rooted on the current drive; take the workspace's drive instead of the process's.
    if (/^[\\/](?![\\/])/.test(expanded)) {
      if (base === undefined) return null;
      expanded = api.parse(base).root.replace(/[\\/]+$/, '') + expanded;
    }
  }
  if (!api.isAbsolute(expanded)) {
    if (base === undefined) return null;
    return withoutTrailingSeparator(api.resolve(base, expanded), api);
  }
  return withoutTrailingSeparator(api.resolve(expanded), api);
}

/**
 * The disk can only be asked about paths of the platform we run on; a simulated Windows
 * environment on Linux (tests) has no disk to consult, and its real form is its lexical form.
 */
function canConsultDisk(platform: NodeJS.Platform): boolean {
  return (platform === 'win32') === (process.platform === 'win32');
}

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Symlink hops before giving up, as Linux's MAXSYMLINKS (40). A loop throws, and the caller denies. */
const MAX_LINK_HOPS = 40;

/**
 * Real form of an absolute, normalised path: realpath of the longest existing prefix plus the
 * remaining tail. The first missing component is checked for being a dangling symlink: writing
 * through `ws/link -> /outside/new` would create `/outside/new`, so its target replaces it and
 * resolution continues there. Errors other than "does not exist" (permissions, loops) propagate:
 * a path whose real location cannot be known must not be judged by its lexical form alone.
 *
 * The one implementation for both the permission layer and the host file layer. Synchronous on
 * purpose: every tool call resolves a few paths, and each async fs call is a thread-pool round trip
 * (tens of µs, far more under load) while realpath(3) on a local disk takes a few µs; the gate's
 * overhead budget (p99 < 0.3 ms) cannot afford the hops. The UI lives in the renderer process, so
 * a slow network share delays one call, not the window.
 */
export function realForm(absolute: string, platform: NodeJS.Platform): string {
  if (!canConsultDisk(platform)) return absolute;
  const api = pathApi(platform);
  let current = absolute;
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops++) {
    const tail: string[] = [];
    let prefix = current;
    let realPrefix: string | undefined;
    for (;;) {
      try {
        realPrefix = realpathSync.native(prefix);
        break;
      } catch (e) {
        if (!isMissing(e)) throw e;
        const parent = api.dirname(prefix);
        if (parent === prefix) throw e; // not even the filesystem root exists
        tail.unshift(api.basename(prefix));
        prefix = parent;
      }
    }
    if (tail.length === 0) return realPrefix;
    const firstMissing = api.join(realPrefix, tail[0]!);
    let isLink = false;
    try {
      isLink = lstatSync(firstMissing).isSymbolicLink();
    } catch (e) {
      if (!isMissing(e)) throw e;
    }
    if (!isLink) return api.join(realPrefix, ...tail);
    const target = readlinkSync(firstMissing);
    current = api.resolve(realPrefix, target, ...tail.slice(1));
  }
  throw Object.assign(new Error(`Too many symbolic links resolving ${absolute}`), { code: 'ELOOP' });
}
