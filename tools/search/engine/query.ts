import { RE2JS } from 're2js';
import { analyseLiterals } from './literals';
import { prepareFinder, type Finder } from './finders';
import { prefilterFor, prefilterForFixed, type Prefilter } from './needles';

/**
 * A compiled search: how to find candidate lines in raw bytes (needles) and how to decide a line.
 *
 * Regexes run on RE2 (re2js): linear time whatever the pattern, so `(a+)+$` or `(.*,){11}P` on a
 * long line cannot hang the app. V8's own RegExp is never given a user pattern: it backtracks, and
 * even innocent-looking `\w+x` is quadratic in the line length (measured here: 0.1 s on a line of
 * 10,000 `a`s, 1.6 s on 40,000; re2js: under 1 ms on 100,000). A translated subset could be
 * proven linear (no quantifier but `{n}`, no alternation, no groups), but the patterns it would
 * cover nearly all carry a literal, which the byte prefilter already makes fast; the proof and the
 * translation of RE2's classes are not worth the risk.
 */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface Query {
  /** What the query was compiled from. */
  readonly options: QueryOptions;
  /** What every matching line contains; null when the pattern has no usable literal. */
  readonly prefilter: Prefilter | null;
  /** The prefilter's needles as a finder over one file's bytes (null with no prefilter). */
  readonly finder: ((hay: Buffer) => Finder) | null;
  /**
   * The finder for bytes known to be well-formed UTF-8: without the CP949 needles, which cannot
   * lead to a match there (Needle.legacy). The same function as `finder` when there are none.
   */
  readonly utf8Finder: ((hay: Buffer) => Finder) | null;
  /**
   * The UTF-8 needle is the whole pattern (a case-sensitive fixed string without line breaks):
   * where utf8Finder finds it in well-formed UTF-8, the line matches, and a short line (shown
   * whole) needs no check.
   */
  readonly needleIsMatch: boolean;
  /**
   * Where the pattern matches in one decoded line (no line terminator), or null. With
   * `wantSpan` false it may answer { start: 0, end: 0 } for "somewhere" (cheaper).
   */
  match(line: string, wantSpan: boolean): Span | null;
}

export interface QueryOptions {
  readonly pattern: string;
  readonly ignoreCase: boolean;
  readonly fixedString: boolean;
}

export type CompiledQuery = { readonly ok: true; readonly query: Query } | { readonly ok: false; readonly message: string };

const SOMEWHERE: Span = { start: 0, end: 0 };

/** ASCII-only lowercasing: same length, so indices found in the result are indices in `s`. */
function foldAscii(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) {
      out += s.slice(from, i) + String.fromCharCode(c + 0x20);
      from = i + 1;
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Query.finder and Query.utf8Finder for a prefilter. */
function findersFor(prefilter: Prefilter | null): Pick<Query, 'finder' | 'utf8Finder'> {
  if (prefilter === null) return { finder: null, utf8Finder: null };
  const finder = prepareFinder(prefilter.needles);
  const utf8Needles = prefilter.needles.filter((needle) => needle.legacy !== true);
  return { finder, utf8Finder: utf8Needles.length === prefilter.needles.length ? finder : prepareFinder(utf8Needles) };
}

function re2Query(options: QueryOptions, re: RE2JS, prefilter: Prefilter | null): Query {
  return {
    options,
    prefilter,
    ...findersFor(prefilter),
    needleIsMatch: false,
    match(line, wantSpan) {
      if (!re.test(line)) return null;
      if (!wantSpan) return SOMEWHERE;
      const m = re.matcher(line);
      return m.find() ? { start: m.start(), end: m.end() } : SOMEWHERE;
    },
  };
}

/** Whether the (first) needle is the whole pattern; compared as text, so a pattern UTF-8 cannot hold as it is (a lone surrogate) is not. */
function needleIsPattern(pattern: string, prefilter: Prefilter | null): boolean {
  const first = prefilter?.needles[0];
  return first !== undefined && new TextDecoder().decode(first.bytes) === pattern;
}

function fixedQuery(options: QueryOptions): Query {
  const { pattern, ignoreCase } = options;
  const prefilter = prefilterForFixed(pattern, ignoreCase);
  const finders = findersFor(prefilter);
  if (!ignoreCase) {
    return {
      options,
      prefilter,
      ...finders,
      needleIsMatch: needleIsPattern(pattern, prefilter) && !/[\r\n]/.test(pattern),
      match(line, wantSpan) {
        const at = line.indexOf(pattern);
        // Most lines are short and shown whole: no span object per hit then.
        return at < 0 ? null : wantSpan ? { start: at, end: at + pattern.length } : SOMEWHERE;
      },
    };
  }
  // Folding, a needle that is the whole pattern holds only fold-safe characters (see needles.ts).
  if (needleIsPattern(pattern, prefilter)) {
    const folded = foldAscii(pattern);
    return {
      options,
      prefilter,
      ...finders,
      needleIsMatch: false,
      match(line) {
        const at = foldAscii(line).indexOf(folded);
        return at < 0 ? null : { start: at, end: at + pattern.length };
      },
    };
  }
  // k, s or a cased non-ASCII letter: RE2's Unicode folding decides.
  return re2Query(options, RE2JS.compile(RE2JS.quote(pattern), RE2JS.CASE_INSENSITIVE), prefilter);
}

export function compileQuery(options: QueryOptions): CompiledQuery {
  const { pattern, ignoreCase, fixedString } = options;
  if (fixedString) return { ok: true, query: fixedQuery(options) };
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  return { ok: true, query: re2Query(options, re, prefilterFor(analyseLiterals(pattern), ignoreCase)) };
}
