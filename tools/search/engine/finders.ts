import type { Needle } from './needles';

/**
 * Finds needle occurrences in raw file bytes. Buffer is Node's global (no import, so tools stay
 * free of node:*); its indexOf is native: measured on 50 MB of node_modules text (Node 20.20, this
 * machine), Buffer#indexOf of a 12-byte needle took 19 ms and of a single byte 2–5 ms (memchr),
 * against 15–18 ms for Uint8Array#indexOf of a single byte and 120–200 ms for a JS loop that
 * case-folds a copy. Case-sensitive search is therefore one native call per needle occurrence.
 */
export interface Finder {
  /** Start of the first occurrence at or after `from`, or -1. Calls must not decrease `from`. */
  next(from: number): number;
}

export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

// Byte frequencies per 10,000 for printable ASCII (0x20–0x7E), measured on 20 MB of node_modules
// JS/TS/MD/JSON (code and English prose). Other bytes: tab 100, newline 243, the rest about 1.
// prettier-ignore
const PRINTABLE_PER_10K = [1871,20,113,10,9,2,17,32,112,112,47,9,110,48,139,66,36,33,24,12,11,10,10,7,9,7,75,84,10,91,16,12,7,37,18,31,23,41,19,6,11,32,5,9,21,19,24,27,35,4,25,48,49,12,9,8,3,3,1,21,10,22,2,37,37,375,76,225,197,747,137,96,130,383,20,45,239,135,439,394,201,9,450,386,547,194,62,45,57,90,6,50,32,51,2];
const FREQ = new Float64Array(256).fill(1 / 10_000);
PRINTABLE_PER_10K.forEach((n, i) => (FREQ[0x20 + i] = n / 10_000));
FREQ[0x09] = 100 / 10_000;
FREQ[0x0a] = 243 / 10_000;

// Measured costs of the two case-folding strategies (same corpus, Node 20.20): a memchr hit
// handed back to JS and checked costs about 50 ns; one step of the JS Horspool loop about 6 ns.
// On 55 MB: "deprecated" 54 ms by rare byte ('d', 2.2 %) vs 39 ms by Horspool (mean shift ≈ 8);
// "ab" 26 ms vs 167 ms (shift ≤ 2); "the" 39 ms vs 115 ms. The model below picks the cheaper.
const NS_PER_MEMCHR_HIT = 50;
const NS_PER_HORSPOOL_STEP = 6;

function isLower(b: number): boolean {
  return b >= 0x61 && b <= 0x7a;
}

// Finders are classes, not closures: one is bound to every file searched, and an object with
// prototype methods is one allocation where a closure-returning function made three (and, run
// from source under tsx, a name-preserving wrapper call each): ~6 ms of a 55 MB search.
class ExactFinder implements Finder {
  constructor(
    private readonly hay: Buffer,
    private readonly needle: Uint8Array,
  ) {}

  next(from: number): number {
    return this.hay.indexOf(this.needle, from);
  }
}

interface Folded {
  /** Needle bytes with ASCII letters lowered. */
  readonly lower: Uint8Array;
  /** Which positions are letters (compared case-insensitively). */
  readonly letters: readonly boolean[];
}

function fold(bytes: Uint8Array): Folded {
  const lower = new Uint8Array(bytes.length);
  const letters: boolean[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    const l = b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
    lower[i] = l;
    letters.push(isLower(l));
  }
  return { lower, letters };
}

/** Whether the folded needle matches `hay` at `start`. */
function matchesAt(hay: Buffer, { lower, letters }: Folded, start: number): boolean {
  const n = lower.length;
  if (start < 0 || start + n > hay.length) return false;
  for (let i = 0; i < n; i++) {
    const h = hay[start + i] as number;
    const want = lower[i] as number;
    if (letters[i] ? (h | 0x20) !== want : h !== want) return false;
  }
  return true;
}

/** Both cases of a needle byte (one byte for a non-letter). */
function variants(b: number, letter: boolean): number[] {
  return letter ? [b, b - 0x20] : [b];
}

/** A caseless run of 3+ bytes (a Hangul syllable is 3) is a selective anchor for native indexOf. */
class AnchorFinder implements Finder {
  constructor(
    private readonly hay: Buffer,
    private readonly folded: Folded,
    private readonly anchor: Uint8Array,
    private readonly runStart: number,
  ) {}

  next(from: number): number {
    const { hay, anchor, runStart } = this;
    for (let p = hay.indexOf(anchor, from + runStart); p >= 0; p = hay.indexOf(anchor, p + 1)) {
      if (matchesAt(hay, this.folded, p - runStart)) return p - runStart;
    }
    return -1;
  }
}

function anchorStrategy(folded: Folded): ((hay: Buffer) => Finder) | null {
  const n = folded.lower.length;
  let runStart = 0;
  let runLength = 0;
  for (let i = 0, start = 0; i <= n; i++) {
    if (i === n || folded.letters[i]) {
      if (i - start > runLength) {
        runStart = start;
        runLength = i - start;
      }
      start = i + 1;
    }
  }
  if (runLength < 3) return null;
  const anchor = folded.lower.subarray(runStart, runStart + runLength);
  return (hay) => new AnchorFinder(hay, folded, anchor, runStart);
}

/** memchr for the rarest needle byte (both cases, leapfrogged), then a window check. */
class RareByteFinder implements Finder {
  private readonly low: number;
  private readonly high: number;
  // Next hit of each case variant, kept between calls (positions only move forward).
  private nextLow = -2;
  private nextHigh = -2;

  constructor(
    private readonly hay: Buffer,
    private readonly folded: Folded,
    private readonly rare: number,
  ) {
    this.low = folded.lower[rare] as number;
    this.high = folded.letters[rare] ? this.low - 0x20 : this.low;
  }

  next(from: number): number {
    const { hay, low, high, rare } = this;
    let p = from + rare;
    for (;;) {
      if (this.nextLow !== -1 && this.nextLow < p) this.nextLow = hay.indexOf(low, p);
      if (high !== low && this.nextHigh !== -1 && this.nextHigh < p) this.nextHigh = hay.indexOf(high, p);
      const nextLow = this.nextLow;
      const nextHigh = this.nextHigh;
      const hit = high === low || nextHigh === -1 ? nextLow : nextLow === -1 ? nextHigh : Math.min(nextLow, nextHigh);
      if (hit === -1) return -1;
      if (matchesAt(hay, this.folded, hit - rare)) return hit - rare;
      p = hit + 1;
    }
  }
}

/** Horspool with a case-folded skip table: wins for long needles made of common letters. */
class HorspoolFinder implements Finder {
  private readonly lastLow: number;
  private readonly lastHigh: number;

  constructor(
    private readonly hay: Buffer,
    private readonly folded: Folded,
    private readonly shift: Int32Array,
  ) {
    const n = folded.lower.length;
    this.lastLow = folded.lower[n - 1] as number;
    this.lastHigh = folded.letters[n - 1] ? this.lastLow - 0x20 : this.lastLow;
  }

  next(from: number): number {
    const { hay, folded, shift, lastLow, lastHigh } = this;
    const n = folded.lower.length;
    const end = hay.length - n;
    for (let i = from; i <= end; ) {
      const b = hay[i + n - 1] as number;
      if ((b === lastLow || b === lastHigh) && matchesAt(hay, folded, i)) return i;
      i += shift[b] as number;
    }
    return -1;
  }
}

function horspoolShifts(folded: Folded): Int32Array {
  const n = folded.lower.length;
  const shift = new Int32Array(256).fill(n);
  for (let i = 0; i < n - 1; i++) {
    for (const b of variants(folded.lower[i] as number, folded.letters[i] === true)) shift[b] = n - 1 - i;
  }
  return shift;
}

/** Picks the cheapest case-folding strategy for a needle once; binds it to each file's bytes. */
function foldStrategy(needle: Uint8Array): (hay: Buffer) => Finder {
  const folded = fold(needle);
  const anchored = anchorStrategy(folded);
  if (anchored !== null) return anchored;

  let rare = 0;
  let rareFreq = Infinity;
  for (let i = 0; i < folded.lower.length; i++) {
    const f = variants(folded.lower[i] as number, folded.letters[i] === true).reduce((sum, b) => sum + (FREQ[b] as number), 0);
    if (f < rareFreq) {
      rare = i;
      rareFreq = f;
    }
  }
  const shift = horspoolShifts(folded);
  let meanShift = 0;
  for (let b = 0; b < 256; b++) meanShift += (FREQ[b] as number) * (shift[b] as number);
  const rareCost = NS_PER_MEMCHR_HIT * rareFreq;
  const horspoolCost = NS_PER_HORSPOOL_STEP / meanShift;
  return rareCost <= horspoolCost ? (hay) => new RareByteFinder(hay, folded, rare) : (hay) => new HorspoolFinder(hay, folded, shift);
}

function strategyFor(needle: Needle): (hay: Buffer) => Finder {
  const { bytes } = needle;
  if (needle.fold && bytes.some((b) => (b >= 0x41 && b <= 0x5a) || isLower(b))) return foldStrategy(bytes);
  return (hay) => new ExactFinder(hay, bytes);
}

/** Several needles as one finder: the earliest next occurrence of any. */
class AnyFinder implements Finder {
  private readonly finders: Finder[];
  /** Each needle's last answer, reused while it is still ahead of `from`: every needle scans a file about once. */
  private readonly ahead: number[];

  constructor(hay: Buffer, strategies: readonly ((hay: Buffer) => Finder)[]) {
    this.finders = strategies.map((bind) => bind(hay));
    this.ahead = this.finders.map(() => -2);
  }

  next(from: number): number {
    const { finders, ahead } = this;
    let best = -1;
    for (let i = 0; i < finders.length; i++) {
      let p = ahead[i] as number;
      if (p !== -1 && p < from) {
        p = (finders[i] as Finder).next(from);
        ahead[i] = p;
      }
      if (p !== -1 && (best === -1 || p < best)) best = p;
    }
    return best;
  }
}

/** The needles as one finder. Strategies are chosen once per search; binding to a file's bytes is cheap. */
export function prepareFinder(needles: readonly Needle[]): (hay: Buffer) => Finder {
  const strategies = needles.map(strategyFor);
  if (strategies.length === 1) return strategies[0] as (hay: Buffer) => Finder;
  return (hay) => new AnyFinder(hay, strategies);
}
