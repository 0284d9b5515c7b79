/**
 * Glob matching in linear time (per alternative: O(name length × pattern length)).
 *
 * Why not picomatch's matcher: it compiles globs to backtracking regular expressions, and we run
 * them on the main process against names we do not control. Measured here (picomatch 4.0.7, one
 * 200-character name): `*a*a*a*ab` took 0.6 s, `*a*a*a*a*ab` 24 s, and the extglob
 * `**\/*(*a)*(*a)*(*a)*(*a)*(*a)b` 89 s — one model-written pattern could freeze the app. It also
 * reads parentheses as regex groups, so `보고서(최종)*.hwp` does not match "보고서(최종)v2.hwp",
 * and `*(2).xlsx` does not match "사본 (2).xlsx": real names in Korean offices.
 *
 * Syntax (picomatch's, without extglobs): `*` `?` `[abc]` `[a-z]` `[!x]` `[^x]` `[[:digit:]]`,
 * `**` as a whole segment (any depth), braces `{a,b}` `{1..12}` `{a..e}`, backslash escapes
 * (only with `escapes`; the file tools read a backslash as a separator), a leading `!` negates a wildcard pattern. Everything
 * else — ( ) + @ | ! — is literal. As with picomatch {dot: false}, a name starting with '.' is only
 * matched by a pattern segment that starts with a literal '.', and `**` never crosses one.
 */

export class GlobSyntaxError extends Error {
  override readonly name = 'GlobSyntaxError';
}

// Brace expansion multiplies: {a,b}{c,d}… doubles per group. A model needs a handful.
const MAX_ALTERNATIVES = 256;
const MAX_RANGE = 1000;

type Token =
  | { readonly kind: 'literal'; readonly char: string }
  | { readonly kind: 'any' }
  | { readonly kind: 'star' }
  | { readonly kind: 'class'; readonly negated: boolean; readonly test: (c: string) => boolean };

type Segment = { readonly kind: 'globstar' } | { readonly kind: 'tokens'; readonly tokens: readonly Token[] };

export interface GlobOptions {
  /** Case-insensitive (Windows). */
  readonly nocase: boolean;
  /** Backslash escapes the next character (false on Windows, where it separates folders). */
  readonly escapes: boolean;
}

export interface CompiledGlob {
  /** Tests a relative path with forward slashes and no '.' or '..' segments. */
  match(relative: string): boolean;
  /** Deepest relative path (in segments) that can match; Infinity with `**` or negation. */
  readonly maxDepth: number;
  /** Whether some segment of the pattern spells a dot-name (so hidden folders may hold matches). */
  readonly namesHidden: boolean;
}

const GLOB_CHARS = new Set(['*', '?', '[', '{']);

/** True when the pattern contains an unescaped wildcard or brace. */
export function hasGlobChars(pattern: string, options: Pick<GlobOptions, 'escapes'>): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (options.escapes && c === '\\') {
      i++;
      continue;
    }
    if (GLOB_CHARS.has(c)) return true;
  }
  return false;
}

/**
 * Splits off the leading folders that contain no pattern characters: only that base folder needs
 * to be walked. Returns base ('' for none) and the rest, both with forward slashes.
 */
export function splitGlobBase(pattern: string, options: Pick<GlobOptions, 'escapes'>): { base: string; rest: string } {
  const segments = pattern.split('/');
  let n = 0;
  // The last segment always belongs to the rest: it is what is matched.
  while (n < segments.length - 1) {
    const segment = segments[n] as string;
    if (hasGlobChars(segment, options) || (options.escapes && segment.includes('\\'))) break;
    n++;
  }
  const base = segments.slice(0, n).join('/');
  return { base: n > 0 && base === '' ? '/' : base, rest: segments.slice(n).join('/') };
}

export function compileGlob(pattern: string, options: GlobOptions): CompiledGlob {
  // Names match Unicode-normalised (NFC): "휴가*" typed on a keyboard finds 휴가계.hwp named on a
  // Mac (NFD). See docs/2026-12-03-names-match-nfc.md.
  let body = pattern.normalize('NFC');
  let negated = false;
  if (body.startsWith('!') && hasGlobChars(body.slice(1), options)) {
    negated = true;
    body = body.slice(1);
  }
  const alternatives = expandBraces(body, options.escapes).map((alt) => parsePattern(alt, options));
  let maxDepth = 0;
  let namesHidden = false;
  for (const segments of alternatives) {
    maxDepth = segments.some((s) => s.kind === 'globstar') ? Number.POSITIVE_INFINITY : Math.max(maxDepth, segments.length);
    if (segments.some((s) => s.kind === 'tokens' && startsWithDot(s.tokens))) namesHidden = true;
  }
  const fold = options.nocase ? foldCase : (s: string) => s;
  return {
    maxDepth: negated ? Number.POSITIVE_INFINITY : maxDepth,
    namesHidden,
    match(relative: string): boolean {
      const names = relative.normalize('NFC').split('/').map((name) => [...fold(name)]);
      const hit = alternatives.some((segments) => matchPath(segments, names));
      if (!negated) return hit;
      // Negation keeps {dot: false}: "everything but *.txt" still does not list hidden names.
      return !hit && !names.some((name) => name[0] === '.');
    },
  };
}

function startsWithDot(tokens: readonly Token[]): boolean {
  const first = tokens[0];
  return first !== undefined && first.kind === 'literal' && first.char === '.';
}

function foldCase(s: string): string {
  let out = '';
  for (const ch of s) {
    const lower = ch.toLowerCase();
    out += lower.length === ch.length ? lower : ch;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Matching

/** Each non-globstar segment matches exactly one name, so the classic one-star backtracking is exact. */
function matchPath(segments: readonly Segment[], names: readonly string[][]): boolean {
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < names.length) {
    const segment = segments[p];
    if (segment !== undefined && segment.kind === 'tokens' && matchName(segment.tokens, names[i] as string[])) {
      p++;
      i++;
    } else if (segment !== undefined && segment.kind === 'globstar') {
      starP = p++;
      starI = i;
    } else if (starP >= 0 && (names[starI] as string[])[0] !== '.') {
      // Let the last ** swallow one more name (never a hidden one).
      p = starP + 1;
      i = ++starI;
    } else {
      return false;
    }
  }
  while (segments[p]?.kind === 'globstar') p++;
  return p === segments.length;
}

function matchName(tokens: readonly Token[], name: readonly string[]): boolean {
  if (name[0] === '.' && !startsWithDot(tokens)) return false;
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < name.length) {
    const token = tokens[p];
    if (token !== undefined && token.kind !== 'star' && matchChar(token, name[i] as string)) {
      p++;
      i++;
    } else if (token !== undefined && token.kind === 'star') {
      starP = p++;
      starI = i;
    } else if (starP >= 0) {
      p = starP + 1;
      i = ++starI;
    } else {
      return false;
    }
  }
  while (tokens[p]?.kind === 'star') p++;
  return p === tokens.length;
}

function matchChar(token: Exclude<Token, { kind: 'star' }>, c: string): boolean {
  switch (token.kind) {
    case 'literal':
      return token.char === c;
    case 'any':
      return true;
    case 'class':
      return token.test(c) !== token.negated;
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing

function parsePattern(pattern: string, options: GlobOptions): Segment[] {
  const segments: Segment[] = [];
  for (const raw of pattern.split('/')) {
    if (raw === '') continue; // "a//b" and a trailing slash: no empty names exist to match
    if (raw === '**') {
      if (segments.at(-1)?.kind !== 'globstar') segments.push({ kind: 'globstar' });
      continue;
    }
    segments.push({ kind: 'tokens', tokens: parseSegment(raw, options) });
  }
  return segments;
}

function parseSegment(raw: string, options: GlobOptions): Token[] {
  const chars = [...raw];
  const fold = options.nocase ? foldCase : (s: string) => s;
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (options.escapes && c === '\\' && i + 1 < chars.length) {
      tokens.push({ kind: 'literal', char: fold(chars[++i] as string) });
    } else if (c === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') {
      tokens.push({ kind: 'any' });
    } else if (c === '[') {
      const parsed = parseClass(chars, i, options);
      if (parsed === null) tokens.push({ kind: 'literal', char: '[' });
      else {
        tokens.push(parsed.token);
        i = parsed.end;
      }
    } else {
      tokens.push({ kind: 'literal', char: fold(c) });
    }
  }
  return tokens;
}

const POSIX_CLASSES: Readonly<Record<string, RegExp>> = {
  alnum: /^[A-Za-z0-9]$/,
  alpha: /^[A-Za-z]$/,
  ascii: /^[\x00-\x7f]$/,
  blank: /^[ \t]$/,
  cntrl: /^[\x00-\x1f\x7f]$/,
  digit: /^[0-9]$/,
  graph: /^[\x21-\x7e]$/,
  lower: /^[a-z]$/,
  print: /^[\x20-\x7e]$/,
  punct: /^[!-/:-@[-`{-~]$/,
  space: /^[ \t\r\n\v\f]$/,
  upper: /^[A-Z]$/,
  word: /^[A-Za-z0-9_]$/,
  xdigit: /^[A-Fa-f0-9]$/,
};

/** Parses `[...]` starting at chars[start] === '['; null when it is not a complete class (then '[' is literal). */
function parseClass(chars: readonly string[], start: number, options: GlobOptions): { token: Token; end: number } | null {
  let i = start + 1;
  let negated = false;
  if (chars[i] === '!' || chars[i] === '^') {
    negated = true;
    i++;
  }
  const tests: ((c: string) => boolean)[] = [];
  let first = true;
  for (; i < chars.length; i++) {
    let c = chars[i] as string;
    if (c === ']' && !first) {
      const nocase = options.nocase;
      const test = (x: string): boolean =>
        tests.some((t) => t(x) || (nocase && (t(x.toLowerCase()) || t(x.toUpperCase()))));
      return { token: { kind: 'class', negated, test }, end: i };
    }
    first = false;
    if (c === '[' && chars[i + 1] === ':') {
      const close = chars.indexOf(':', i + 2);
      if (close > 0 && chars[close + 1] === ']') {
        const name = chars.slice(i + 2, close).join('');
        const re = POSIX_CLASSES[name];
        if (re !== undefined) {
          tests.push((x) => re.test(x));
          i = close + 1;
          continue;
        }
      }
    }
    if (options.escapes && c === '\\' && i + 1 < chars.length) c = chars[++i] as string;
    if (chars[i + 1] === '-' && chars[i + 2] !== undefined && chars[i + 2] !== ']') {
      let hi = chars[i + 2] as string;
      i += 2;
      if (options.escapes && hi === '\\' && i + 1 < chars.length) hi = chars[++i] as string;
      const lo = c.codePointAt(0) as number;
      const top = hi.codePointAt(0) as number;
      tests.push((x) => {
        const code = x.codePointAt(0) as number;
        return code >= lo && code <= top;
      });
      continue;
    }
    const member = c;
    tests.push((x) => x === member);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Braces

/** Expands `{a,b}` and `{1..3}` into separate patterns; a brace without ',' or '..' is literal. */
export function expandBraces(pattern: string, escapes: boolean): string[] {
  const done: string[] = [];
  const pending = [pattern];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const brace = findBrace(current, escapes);
    if (brace === null) {
      done.push(current);
    } else {
      for (let k = brace.alternatives.length - 1; k >= 0; k--) {
        pending.push(current.slice(0, brace.start) + (brace.alternatives[k] as string) + current.slice(brace.end + 1));
      }
    }
    if (done.length + pending.length > MAX_ALTERNATIVES) {
      throw new GlobSyntaxError(`braces expand to more than ${MAX_ALTERNATIVES} patterns`);
    }
  }
  return done;
}

function findBrace(s: string, escapes: boolean): { start: number; end: number; alternatives: string[] } | null {
  for (let i = 0; i < s.length; i++) {
    if (escapes && s[i] === '\\') {
      i++;
      continue;
    }
    if (s[i] !== '{') continue;
    const end = matchingBrace(s, i, escapes);
    if (end < 0) return null;
    const inner = s.slice(i + 1, end);
    const parts = splitTopLevel(inner, escapes);
    if (parts.length > 1) return { start: i, end, alternatives: parts };
    const range = expandRange(inner);
    if (range !== null) return { start: i, end, alternatives: range };
    // Not a brace expression ("{a}"): literal; keep looking inside and after it.
  }
  return null;
}

function matchingBrace(s: string, open: number, escapes: boolean): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (escapes && s[i] === '\\') {
      i++;
      continue;
    }
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(inner: string, escapes: boolean): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < inner.length; i++) {
    if (escapes && inner[i] === '\\') {
      i++;
      continue;
    }
    if (inner[i] === '{') depth++;
    else if (inner[i] === '}') depth--;
    else if (inner[i] === ',' && depth === 0) {
      parts.push(inner.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(inner.slice(from));
  return parts;
}

function expandRange(inner: string): string[] | null {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  if (numeric !== null) {
    const a = numeric[1] ?? '';
    const b = numeric[2] ?? '';
    const stepText = numeric[3];
    const from = Number(a);
    const to = Number(b);
    const step = Math.abs(Number(stepText ?? '1')) || 1;
    if (Math.abs(to - from) / step > MAX_RANGE) throw new GlobSyntaxError(`range {${inner}} is too long`);
    // {01..12} pads to the width written, as bash does.
    const width = /^-?0\d/.test(a) || /^-?0\d/.test(b) ? Math.max(a.length, b.length) : 0;
    const out: string[] = [];
    for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) {
      const digits = String(Math.abs(v)).padStart(width - (v < 0 ? 1 : 0), '0');
      out.push(v < 0 ? `-${digits}` : digits);
    }
    return out;
  }
  const alpha = /^([A-Za-z])\.\.([A-Za-z])$/.exec(inner);
  if (alpha !== null) {
    const from = (alpha[1] as string).charCodeAt(0);
    const to = (alpha[2] as string).charCodeAt(0);
    const out: string[] = [];
    for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? 1 : -1) out.push(String.fromCharCode(v));
    return out;
  }
  return null;
}
