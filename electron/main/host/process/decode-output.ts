import iconv from 'iconv-lite';
import type { OutputEncoding } from '../../../common/process-capability';
import { completeUtf8Length } from '../../../common/utf8';

/**
 * Decoding of program output: UTF-8 when it is valid, CP949 when it is not (Korean Windows
 * programs print in the ANSI code page), UTF-16 when a BOM or the byte pattern makes it obvious
 * (PowerShell, `wmic`, some Windows tools). CP949 goes through iconv-lite because Node's
 * TextDecoder('euc-kr') lacks the 8,822 extended UHC syllables such as '똠' (the same finding as
 * tools/kit/text-decoding.ts, which host/ may not import; that one decodes whole files, this one
 * also decodes streams cut at arbitrary byte offsets and so needs the character-boundary logic).
 */

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const utf16le = new TextDecoder('utf-16le', { ignoreBOM: true });
const utf16be = new TextDecoder('utf-16be', { ignoreBOM: true });

/** Bytes of the BOM at the start of `bytes`, if it has the one of `encoding` (UTF-16 may come without). */
export function leadingBomLength(bytes: Uint8Array, encoding: OutputEncoding): number {
  const [a, b, c] = bytes;
  if (encoding === 'utf-8-bom' && a === 0xef && b === 0xbb && c === 0xbf) return 3;
  if (encoding === 'utf-16le' && a === 0xff && b === 0xfe) return 2;
  if (encoding === 'utf-16be' && a === 0xfe && b === 0xff) return 2;
  return 0;
}

/**
 * Picks the encoding of output that starts at the beginning of the stream. `complete` is false when
 * the bytes stop at an arbitrary offset (a capture limit or a read in the middle of a stream): a
 * sequence cut at the end is then not held against UTF-8.
 */
export function detectOutputEncoding(bytes: Uint8Array, complete: boolean): OutputEncoding {
  return markedEncoding(bytes) ?? utf8OrCp949(bytes, complete);
}

/** An encoding the first bytes announce: a BOM, or the zero-byte pattern of UTF-16. */
function markedEncoding(bytes: Uint8Array): OutputEncoding | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8-bom';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return obviousUtf16(bytes);
}

/** For a stream whose start was ASCII only: UTF-8 or CP949, judged on later bytes. */
export function utf8OrCp949(bytes: Uint8Array, complete: boolean): 'utf-8' | 'cp949' {
  return readUtf8OrCp949(bytes, complete).encoding;
}

interface Reading {
  readonly text: string;
  readonly encoding: 'utf-8' | 'cp949';
  readonly end: number;
}

/**
 * Decodes as UTF-8 if valid, else as whichever of UTF-8 and CP949 has fewer undecodable characters.
 * One decode in the common (valid UTF-8) case: the validating decode's result is the text.
 */
function readUtf8OrCp949(bytes: Uint8Array, complete: boolean): Reading {
  const utf8End = complete ? bytes.length : completeLength(bytes, 'utf-8');
  try {
    return { text: utf8Strict.decode(bytes.subarray(0, utf8End)), encoding: 'utf-8', end: utf8End };
  } catch {
    // Invalid UTF-8. Usually CP949, but one stray byte in UTF-8 text must not turn the rest into
    // mojibake: take the reading with fewer undecodable characters (UTF-8 on a tie). UTF-8 Hangul
    // read as CP949 is full of invalid pairs, and CP949 Hangul read as UTF-8 likewise.
    const asUtf8 = utf8Lenient.decode(bytes.subarray(0, utf8End));
    const cp949End = complete ? bytes.length : completeLength(bytes, 'cp949');
    const asCp949 = iconv.decode(asBuffer(bytes.subarray(0, cp949End)), 'cp949');
    return countReplacements(asCp949) < countReplacements(asUtf8)
      ? { text: asCp949, encoding: 'cp949', end: cp949End }
      : { text: asUtf8, encoding: 'utf-8', end: utf8End };
  }
}

/**
 * UTF-16 without a BOM, when obvious: ASCII-range text in UTF-16 has a zero in every other byte.
 * Judged on the first 4 KiB: ≥ 90 % zeros on one side and ≤ 10 % on the other (all-zero output,
 * such as `head -c N /dev/zero`, is not UTF-16).
 */
function obviousUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) zeroEven++;
    if (bytes[i + 1] === 0) zeroOdd++;
  }
  const pairs = n / 2;
  if (zeroOdd >= pairs * 0.9 && zeroEven <= pairs * 0.1) return 'utf-16le';
  if (zeroEven >= pairs * 0.9 && zeroOdd <= pairs * 0.1) return 'utf-16be';
  return null;
}

/**
 * Length of the longest prefix of `bytes` that ends on a character boundary, `bytes` starting on
 * one. What is left over is an incomplete character: cut off at a capture limit, or still to come.
 */
export function completeLength(bytes: Uint8Array, encoding: OutputEncoding): number {
  switch (encoding) {
    case 'utf-8':
    case 'utf-8-bom':
      return completeUtf8Length(bytes);
    case 'utf-16le':
    case 'utf-16be': {
      let n = bytes.length & ~1;
      if (n >= 2) {
        // A high surrogate at the end waits for its low half.
        const unit = encoding === 'utf-16le' ? bytes[n - 2]! | (bytes[n - 1]! << 8) : (bytes[n - 2]! << 8) | bytes[n - 1]!;
        if (unit >= 0xd800 && unit <= 0xdbff) n -= 2;
      }
      return n;
    }
    case 'cp949': {
      // CP949 is not self-synchronising from the end: walk from the start. Lead bytes 0x81–0xFE
      // take one trail byte; everything else is a single byte.
      let i = 0;
      while (i < bytes.length) {
        const b = bytes[i]!;
        const width = b >= 0x81 && b <= 0xfe ? 2 : 1;
        if (i + width > bytes.length) break;
        i += width;
      }
      return i;
    }
  }
}


/** Decodes bytes that start and (unless the stream ended there) end on character boundaries. */
export function decodeAs(bytes: Uint8Array, encoding: OutputEncoding): string {
  switch (encoding) {
    case 'utf-8':
    case 'utf-8-bom':
      return utf8Lenient.decode(bytes);
    case 'utf-16le':
      return utf16le.decode(bytes);
    case 'utf-16be':
      return utf16be.decode(bytes);
    case 'cp949':
      return iconv.decode(asBuffer(bytes), 'cp949');
  }
}

export interface DecodedCapture {
  readonly text: string;
  readonly encoding: OutputEncoding;
  /** Bytes behind `text` (the BOM included; a character cut by the limit excluded). */
  readonly decodedBytes: number;
}

/**
 * The whole captured output of one run. When `truncated`, the capture stopped at an arbitrary byte
 * and the partial character there is dropped, so the text never ends in a broken character.
 */
export function decodeCapture(bytes: Uint8Array, truncated: boolean): DecodedCapture {
  const marked = markedEncoding(bytes);
  if (marked === null) {
    const { text, encoding, end } = readUtf8OrCp949(bytes, !truncated);
    return { text, encoding, decodedBytes: end };
  }
  const end = truncated ? completeLength(bytes, marked) : bytes.length;
  const start = Math.min(leadingBomLength(bytes, marked), end);
  return { text: decodeAs(bytes.subarray(start, end), marked), encoding: marked, decodedBytes: end };
}

function countReplacements(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\ufffd'); i !== -1; i = s.indexOf('\ufffd', i + 1)) n++;
  return n;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
