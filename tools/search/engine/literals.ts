/**
 * Required literals of an RE2 pattern: strings every match must contain. The scanner looks for
 * these with native byte search and runs the (slow, pure-JS) RE2 engine only on lines that
 * contain one, so a regex search costs about as much as a literal search.
 *
 * The analysis is deliberately conservative: whatever it does not fully understand (groups,
 * classes, unusual escapes, `{` that may be a repeat) simply ends the current literal run. A
 * missing literal costs speed; a wrong literal would lose matches, so it must never happen.
 * Only patterns that RE2 compiled are analysed, so the syntax is known to be valid.
 */

export interface LiteralAnalysis {
  /**
   * One entry per top-level alternative (`a|b` gives two). Each entry lists literal runs that the
   * alternative requires; a match of that alternative contains every one of them.
   */
  readonly alternatives: readonly (readonly string[])[];
  /** True when an inline flag group turns on case folding somewhere (`(?i)`, `(?i:…)`). */
  readonly inlineIgnoreCase: boolean;
}

// Punctuation that RE2 accepts escaped as itself (`\.` `\*` …): [!-/:-@[-`{-~].
function isEscapablePunct(c: string): boolean {
  const code = c.charCodeAt(0);
  return (code >= 0x21 && code <= 0x2f) || (code >= 0x3a && code <= 0x40) || (code >= 0x5b && code <= 0x60) || (code >= 0x7b && code <= 0x7e);
}

interface Repeat {
  readonly min: number;
  /** Index just after the repeat operator (and its `?` for non-greedy). */
  readonly end: number;
}

/** Reads `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` (each optionally followed by `?`) at `i`. */
function readRepeat(src: string, i: number): Repeat | null {
  const c = src[i];
  let min: number;
  let end: number;
  if (c === '*' || c === '?') {
    min = 0;
    end = i + 1;
  } else if (c === '+') {
    min = 1;
    end = i + 1;
  } else if (c === '{') {
    const m = /^\{(\d+)(?:,(\d*))?\}/.exec(src.slice(i, i + 24));
    if (m === null) return null; // not a repeat: RE2 reads this `{` as a literal character
    min = Number(m[1]);
    end = i + m[0].length;
  } else {
    return null;
  }
  if (src[end] === '?') end++;
  return { min, end };
}

/** Index just after the character class starting at `i` (`[`), honouring `[]…]`, `[^]…]`, `[:alpha:]`, escapes. */
function skipClass(src: string, i: number): number {
  let j = i + 1;
  if (src[j] === '^') j++;
  if (src[j] === ']') j++; // a leading `]` is a member, not the end
  while (j < src.length && src[j] !== ']') {
    if (src[j] === '\\') j += 2;
    else if (src[j] === '[' && src[j + 1] === ':') {
      const close = src.indexOf(':]', j + 2);
      j = close < 0 ? j + 1 : close + 2;
    } else j++;
  }
  return j + 1;
}

/** Index just after the `\Q…\E` quote starting at `i` (or the end of the pattern). */
function skipQuote(src: string, i: number): number {
  const close = src.indexOf('\\E', i + 2);
  return close < 0 ? src.length : close + 2;
}

/** Index just after the group starting at `i` (`(`), nested groups, classes and escapes included. */
function skipGroup(src: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < src.length) {
    const c = src[j];
    if (c === '\\') {
      j = src[j + 1] === 'Q' ? skipQuote(src, j) : j + 2;
    } else if (c === '[') {
      j = skipClass(src, j);
    } else if (c === '(') {
      depth++;
      j++;
    } else if (c === ')') {
      depth--;
      j++;
      if (depth === 0) return j;
    } else j++;
  }
  return j;
}

/** Splits at top-level `|` (outside groups, classes, escapes and quotes). */
function splitAlternatives(src: string): string[] {
  const parts: string[] = [];
  let from = 0;
  let j = 0;
  while (j < src.length) {
    const c = src[j];
    if (c === '\\') j = src[j + 1] === 'Q' ? skipQuote(src, j) : j + 2;
    else if (c === '[') j = skipClass(src, j);
    else if (c === '(') j = skipGroup(src, j);
    else if (c === '|') {
      parts.push(src.slice(from, j));
      from = ++j;
    } else j++;
  }
  parts.push(src.slice(from));
  return parts;
}

/** Literal runs one alternative (no top-level `|`) requires. */
function runsOf(src: string): string[] {
  const runs: string[] = [];
  let run = '';
  const flush = (): void => {
    if (run !== '') runs.push(run);
    run = '';
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    let literal: string | null = null;
    let next: number;
    if (c === '\\') {
      const e = src[i + 1] ?? '';
      if (e === 'Q') {
        // Quoted text is literal, but a repeat after \E applies to its last character only;
        // treating the whole quote as opaque keeps that case trivially correct.
        flush();
        i = skipQuote(src, i);
        if (readRepeat(src, i) !== null) i = (readRepeat(src, i) as Repeat).end;
        continue;
      }
      next = i + 2;
      if (isEscapablePunct(e)) literal = e;
      // \d \w \s \p{…} \x{…} \b \A … : not a literal we rely on. \p{Greek} and \x{41} span
      // several characters; skip the braces so their contents are not read as literals.
      else if ((e === 'p' || e === 'P' || e === 'x') && src[i + 2] === '{') {
        const close = src.indexOf('}', i + 3);
        next = close < 0 ? src.length : close + 1;
      } else if (e === 'p' || e === 'P') next = i + 3;
      else if (e === 'x') next = i + 4;
      else if (e >= '0' && e <= '7') {
        next = i + 2;
        while (next < i + 4 && (src[next] ?? '') >= '0' && (src[next] ?? '') <= '7') next++;
      }
    } else if (c === '[') {
      next = skipClass(src, i);
    } else if (c === '(') {
      next = skipGroup(src, i);
    } else if (c === '.' || c === '^' || c === '$') {
      next = i + 1;
    } else if (c === '{' && readRepeat(src, i) === null) {
      next = i + 1;
      literal = '{';
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      // A repeat with nothing we track before it (the atom was already flushed).
      next = (readRepeat(src, i) as Repeat).end;
      flush();
      i = next;
      continue;
    } else {
      // One code point (a surrogate pair stays together).
      const cp = src.codePointAt(i) as number;
      literal = String.fromCodePoint(cp);
      next = i + literal.length;
    }

    const repeat = readRepeat(src, next);
    if (literal === null) {
      flush();
      i = repeat === null ? next : repeat.end;
      continue;
    }
    if (repeat === null) {
      run += literal;
      i = next;
    } else if (repeat.min >= 1) {
      // `ab+c` requires "ab" (and "bc"); keep it simple: the character ends the run.
      run += literal;
      flush();
      i = repeat.end;
    } else {
      flush();
      i = repeat.end;
    }
  }
  flush();
  return runs;
}

// `(?i)`, `(?si:…)`, `(?i-s)`: the flags before a `-` (or the end) are the ones turned on.
const FLAG_GROUP = /\(\?([a-zA-Z]*)(?:-[a-zA-Z]*)?[:)]/g;

export function analyseLiterals(pattern: string): LiteralAnalysis {
  let inlineIgnoreCase = false;
  for (const m of pattern.matchAll(FLAG_GROUP)) if ((m[1] ?? '').includes('i')) inlineIgnoreCase = true;
  return { alternatives: splitAlternatives(pattern).map(runsOf), inlineIgnoreCase };
}
