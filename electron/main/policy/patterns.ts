import { isIPv6 } from 'node:net';
import path from 'node:path';
import picomatch from 'picomatch';
import type { SubjectKind } from '../../common/domain';
import { assertNever } from '../../common/assert-never';
import { expandHome, ignoresCase } from './paths';
import { urlAmbiguity } from './url-shape';

/**
 * Rule patterns, interpreted for the subject kind the TOOL declares (SPEC G-PERM). Each compiler
 * returns a predicate over one normalised subject value, or null when the pattern means nothing
 * for that kind; the caller then denies (fail closed), because a rule the administrator wrote but
 * we cannot apply must not silently become "no rule".
 */
export type ValueMatcher = (value: string) => boolean;

export interface PatternContext {
  readonly roots: readonly string[];
  readonly home: string;
  readonly platform: NodeJS.Platform;
}

/**
 * COMMAND: `prefix:*` matches the line equal to prefix or starting with prefix + ' ' (so `git:*`
 * never matches `gitk`); anything else is an exact line. Only a trailing `:*` is a wildcard (seed
 * TCH-06); a `:*` elsewhere, or spaces at either end (argv lines never have them), cannot be meant.
 * Exported (through the policy index) for the SSH client in host/, which applies each host's
 * ssh.hosts.*.commands entries with these same semantics, so an administrator learns one syntax.
 */
export function commandMatcher(pattern: string): ValueMatcher | null {
  const isPrefix = pattern.endsWith(':*');
  const body = isPrefix ? pattern.slice(0, -2) : pattern;
  if (body === '' || body.includes(':*') || body.trim() !== body) return null;
  if (!isPrefix) return (line) => line === body;
  return (line) => line === body || line.startsWith(`${body} `);
}

/** PATH globs compare with forward slashes on every platform; Windows separators are converted first. */
export function globView(p: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? p.replace(/\\/g, '/') : p;
}

function isAbsoluteGlob(p: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' ? /^(?:[A-Za-z]:\/|\/)/.test(p) : p.startsWith('/');
}

/**
 * PATH: picomatch globs with dot files included (`**` must reach `.ssh`). `~` is the user's home;
 * a relative pattern starting with `**` matches anywhere; other relative patterns are relative to
 * the first workspace root, like relative paths in tool calls.
 */
function pathMatcher(pattern: string, ctx: PatternContext): ValueMatcher | null {
  // NUL cannot occur in a path; `!` negation turns a deny rule into "deny everything else";
  // `~user` is another account's home, which we do not resolve.
  if (pattern.includes('\u0000') || pattern.startsWith('!')) return null;
  const { platform } = ctx;
  // NFC (SPEC G-PERM): macOS and copied-in names spell 인사 decomposed (NFD); a rule written
  // composed must still cover them, so both the pattern and every subject are compared in NFC.
  let glob = expandHome(pattern.normalize('NFC'), ctx.home, platform);
  if (glob.startsWith('~')) return null;
  glob = globView(glob, platform);
  if (platform === 'win32' && /^[A-Za-z]:(?!\/)/.test(glob)) return null;
  if (!isAbsoluteGlob(glob, platform) && !glob.startsWith('**')) {
    const root = ctx.roots[0];
    if (root === undefined) return null;
    glob = `${globView(root, platform).replace(/\/+$/, '')}/${glob}`;
  } else if (platform === 'win32' && /^\/(?!\/)/.test(glob)) {
    const root = ctx.roots[0];
    if (root === undefined) return null;
    glob = path.win32.parse(root).root.replace(/[\\/]+$/, '').replace(/\\/g, '/') + glob;
  }
  // Fold `..` so `/ws/sub/../secret/**` means what a path with the same text would mean.
  glob = path.posix.normalize(glob);
  if (glob.length > 1 && glob.endsWith('/')) glob = glob.slice(0, -1);
  try {
    const test = picomatch(glob, { dot: true, nocase: ignoresCase(platform), nonegate: true });
    return (value) => test(globView(value.normalize('NFC'), platform));
  } catch {
    return null;
  }
}

/** `/wiki/` covers `/wiki/x` but not `/wikiX`; `/wiki` covers `/wiki` and `/wiki/x`. */
function pathHasPrefix(subjectPath: string, prefix: string): boolean {
  if (prefix.endsWith('/')) return subjectPath.startsWith(prefix);
  return subjectPath === prefix || subjectPath.startsWith(`${prefix}/`);
}

/**
 * URL: a prefix. Scheme, host and port must be equal (WHATWG parsing lowercases the host and drops
 * default ports) and the path must start with the pattern's path at a segment boundary. A query,
 * fragment or credentials in the pattern cannot be a prefix of anything meaningful.
 * Exported (through the policy index) for the HTTP client in host/, which checks every URL it
 * connects to, redirects included, with this same function: the permission layer and the client
 * can never disagree about what a prefix covers. A value whose path a server may read differently
 * (url-shape.ts) is refused by both BEFORE this runs; the predicate itself only compares.
 */
export function urlMatcher(pattern: string): ValueMatcher | null {
  let prefix: URL;
  try {
    prefix = new URL(pattern);
  } catch {
    return null;
  }
  if (prefix.search || prefix.hash || prefix.username || prefix.password || !prefix.host) return null;
  // A prefix a server could read two ways cannot say what it covers (`/wiki;x/`, `/a%2Fb/`).
  if (urlAmbiguity(prefix, pattern) !== null) return null;
  return (value) => {
    const url = new URL(value);
    return url.protocol === prefix.protocol && url.hostname === prefix.hostname && url.port === prefix.port && pathHasPrefix(url.pathname, prefix.pathname);
  };
}

/** Host names compare case-insensitively; `[::1]` and `::1`, `host.` and `host` are the same host. */
export function normaliseHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

const HOST_NAME = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;

/** HOST: one exact name or address, or `*` for every host. Partial wildcards are not a host. */
function hostMatcher(pattern: string): ValueMatcher | null {
  if (pattern === '*') return () => true;
  const host = normaliseHost(pattern);
  if (!HOST_NAME.test(host) && !isIPv6(host)) return null;
  return (value) => normaliseHost(value) === host;
}

export function compilePattern(kind: SubjectKind, pattern: string, ctx: PatternContext): ValueMatcher | null {
  switch (kind) {
    case 'COMMAND':
      return commandMatcher(pattern);
    case 'PATH':
      return pathMatcher(pattern, ctx);
    case 'URL':
      return urlMatcher(pattern);
    case 'HOST':
      return hostMatcher(pattern);
    default:
      return assertNever(kind);
  }
}

/** Characters that make a command line mean more than one program with plain arguments. */
const SHELL_METACHARACTER = '[;|&`$><()\\n\\r\\u2028\\u2029]';
const HAS_METACHARACTER = new RegExp(SHELL_METACHARACTER);
const METACHARACTER_RUNS = new RegExp(`${SHELL_METACHARACTER}+`);

export function hasShellMetacharacter(line: string): boolean {
  return HAS_METACHARACTER.test(line);
}

/**
 * The commands a line with metacharacters would be if a shell read it: deny and ask rules are
 * checked against each, so chaining cannot hide a denied program behind an innocent first command.
 */
export function commandPieces(line: string): string[] {
  return line
    .split(METACHARACTER_RUNS)
    .map((piece) => piece.trim().replace(/ {2,}/g, ' '))
    .filter((piece) => piece !== '');
}
