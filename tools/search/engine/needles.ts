import iconv from 'iconv-lite';
import type { LiteralAnalysis } from './literals';

/**
 * A byte string to look for before any regex runs. With `fold`, ASCII letters match either case
 * (everything else must match exactly).
 */
export interface Needle {
  readonly bytes: Uint8Array;
  readonly fold: boolean;
  /**
   * The CP949 form of a non-ASCII piece: it can only lead to a match in a file that is not valid
   * UTF-8 (a valid one is decoded as UTF-8, and a line matching then holds the UTF-8 form).
   */
  readonly legacy?: true;
}

const utf8 = new TextEncoder();

/**
 * Characters whose case-insensitive matches are exactly their ASCII case pair (or themselves).
 * RE2 folds by Unicode orbits, and two ASCII letters have partners outside ASCII: k ~ U+212A
 * (Kelvin sign) and s ~ U+017F (long s). Those, and every cased non-ASCII letter, end a run, so an
 * ASCII-folding byte search can never miss a line RE2 would match.
 */
function isFoldSafe(cp: number): boolean {
  if (cp < 0x80) return cp !== 0x6b && cp !== 0x4b && cp !== 0x73 && cp !== 0x53; // k K s S
  return (
    (cp >= 0xac00 && cp <= 0xd7a3) || // Hangul syllables
    (cp >= 0x1100 && cp <= 0x11ff) || // Hangul Jamo
    (cp >= 0x3130 && cp <= 0x318f) || // Hangul compatibility Jamo
    (cp >= 0x3000 && cp <= 0x303f) || // CJK punctuation
    (cp >= 0x4e00 && cp <= 0x9fff) // CJK ideographs (Hanja)
  );
}

/** Splits a run into the pieces that are safe for the chosen matching mode. */
function piecesOf(run: string, fold: boolean): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const ch of run) {
    const cp = ch.codePointAt(0) as number;
    // U+FFFD stands for undecodable bytes in a line; the raw file holds other bytes there.
    const usable = cp !== 0xfffd && cp !== 0x0a && cp !== 0x0d && (!fold || isFoldSafe(cp));
    if (usable) piece += ch;
    else {
      if (piece !== '') pieces.push(piece);
      piece = '';
    }
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

function bestPiece(runs: readonly string[], fold: boolean): string | null {
  let best: string | null = null;
  let bestLength = 0;
  for (const run of runs) {
    for (const piece of piecesOf(run, fold)) {
      const length = utf8.encode(piece).length;
      if (length > bestLength) {
        best = piece;
        bestLength = length;
      }
    }
  }
  return best;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** CP949 bytes of `s`, or null when CP949 cannot represent it (then no CP949 file can contain it). */
function cp949Bytes(s: string): Uint8Array | null {
  const bytes = iconv.encode(s, 'cp949');
  return iconv.decode(bytes, 'cp949') === s ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
}

export interface Prefilter {
  /** Every matching line contains one of these. */
  readonly needles: readonly Needle[];
  /**
   * Further ASCII literals every matching line contains as well (the other runs of a single
   * alternative, e.g. "Sync" in `function\s+\w+Sync`): checked on a candidate line's bytes before
   * the line is decoded and handed to RE2. Empty when case folding is on or with alternatives.
   */
  readonly companions: readonly Uint8Array[];
}

/**
 * The needles that together find every line a match can be on: one piece per top-level
 * alternative, in UTF-8 and (when it differs) CP949. Null when some alternative has no usable
 * literal, in which case every line must go through the regex.
 */
export function prefilterFor(analysis: LiteralAnalysis, ignoreCase: boolean): Prefilter | null {
  const fold = ignoreCase || analysis.inlineIgnoreCase;
  const needles: Needle[] = [];
  const pieces: string[] = [];
  for (const runs of analysis.alternatives) {
    const piece = bestPiece(runs, fold);
    if (piece === null) return null;
    pieces.push(piece);
    needles.push({ bytes: utf8.encode(piece), fold });
    if (!isAscii(piece)) {
      const legacy = cp949Bytes(piece);
      if (legacy !== null) needles.push({ bytes: legacy, fold, legacy: true });
    }
  }
  const companions: Uint8Array[] = [];
  const only = analysis.alternatives.length === 1 ? analysis.alternatives[0] : undefined;
  if (!fold && only !== undefined) {
    // ASCII reads the same in UTF-8 and CP949, so these bytes are in the line either way.
    for (const run of only) if (run !== pieces[0] && isAscii(run) && !run.includes('\n')) companions.push(utf8.encode(run));
  }
  return { needles, companions };
}

/** The prefilter for a fixed string: the literal itself (or, folding, its best fold-safe piece). */
export function prefilterForFixed(pattern: string, ignoreCase: boolean): Prefilter | null {
  return prefilterFor({ alternatives: [[pattern]], inlineIgnoreCase: false }, ignoreCase);
}

/**
 * True when every needle holds a byte ≥ 0x80 (Korean text, say): then no all-ASCII window can
 * hold a candidate line, and the search passes such a file over on the host's native ASCII check.
 */
export function needsNonAscii(prefilter: Prefilter | null): boolean {
  return prefilter !== null && prefilter.needles.every((needle) => needle.bytes.some((b) => b >= 0x80));
}
