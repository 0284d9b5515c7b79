import iconv from 'iconv-lite';

/**
 * Decodes single lines of a file that is searched as raw bytes (UTF-8, or CP949 from Korean
 * Windows). Whole files are never decoded on this path: decoding ran at 170–350 MB/s here
 * (TextDecoder and Buffer#toString alike), slower than the byte search itself, so only lines with
 * a candidate are turned into strings.
 *
 * The file's encoding is decided as kit/decodeText decides it (valid UTF-8, else CP949), but
 * lazily: an ASCII line reads the same in both, so the question is asked only at the first
 * candidate line with other bytes. A line that is not valid UTF-8 settles it (CP949); a valid one
 * does not (a short CP949 line can happen to be valid UTF-8), so then the whole file is checked.
 */
export type RawEncoding = 'utf-8' | 'cp949';

/**
 * Strict UTF-8 check (the rules of TextDecoder with fatal: true: no overlongs, no surrogates,
 * nothing above U+10FFFF). A sequence cut off by the end of the range is accepted: the buffer may
 * be a window of a larger file. The main loop handles whole sequences without bounds checks and
 * leaves the last three bytes to the careful tail; on Korean text it ran at about 3.5 ns/byte,
 * 1.5x the byte-at-a-time version and 2.5x a fatal TextDecoder (which builds a string it does
 * not need here).
 */
export function isValidUtf8(bytes: Uint8Array, from = 0, to = bytes.length): boolean {
  let i = from;
  const safeEnd = to - 3;
  while (i < safeEnd) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const c1 = bytes[i + 1] as number;
    if (b >= 0xe0) {
      if (b <= 0xef) {
        const lo = b === 0xe0 ? 0xa0 : 0x80;
        const hi = b === 0xed ? 0x9f : 0xbf;
        if (c1 < lo || c1 > hi || ((bytes[i + 2] as number) & 0xc0) !== 0x80) return false;
        i += 3;
        continue;
      }
      if (b > 0xf4) return false;
      const lo = b === 0xf0 ? 0x90 : 0x80;
      const hi = b === 0xf4 ? 0x8f : 0xbf;
      if (c1 < lo || c1 > hi || ((bytes[i + 2] as number) & 0xc0) !== 0x80 || ((bytes[i + 3] as number) & 0xc0) !== 0x80) return false;
      i += 4;
      continue;
    }
    if (b < 0xc2 || (c1 & 0xc0) !== 0x80) return false;
    i += 2;
  }
  return isValidUtf8Tail(bytes, i, to);
}

/** The byte-at-a-time check, for the last few bytes (and sequences cut off at `to`). */
function isValidUtf8Tail(bytes: Uint8Array, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return false;
    for (let k = 1; k <= need; k++) {
      if (i + k >= to) return true; // cut off at the end: fine so far
      const c = bytes[i + k] as number;
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return false;
    }
    i += need + 1;
  }
  return true;
}

/**
 * The code units of the line being decoded (decodeWellFormed), as bytes for Buffer's UTF-16
 * decoding. A line with more bytes than this is decoded natively (a line never has more units than
 * bytes).
 */
const units = new Uint16Array(8192);
const unitBytes = Buffer.from(units.buffer);

/**
 * Decodes [start, end) of bytes known to be well-formed UTF-8. Measured on Korean report lines
 * (Node 20.20, this machine): 0.45 µs a line against 0.67 µs for Buffer#toString('utf8'), which
 * checks the bytes again and counts them before it decodes; a match-dense search decodes a line
 * per match (16,888 in the benchmark's Korean search). A sequence cut off at `end` (the end of a
 * window) goes to the native decoder, which shows it as U+FFFD.
 */
function decodeWellFormed(bytes: Buffer, start: number, end: number): string {
  if (end - start > units.length) return bytes.toString('utf8', start, end);
  let n = 0;
  let i = start;
  while (i < end) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      units[n++] = b;
      i++;
    } else if (b < 0xe0) {
      units[n++] = ((b & 0x1f) << 6) | ((bytes[i + 1] as number) & 0x3f);
      i += 2;
    } else if (b < 0xf0) {
      units[n++] = ((b & 0x0f) << 12) | (((bytes[i + 1] as number) & 0x3f) << 6) | ((bytes[i + 2] as number) & 0x3f);
      i += 3;
    } else {
      const point = ((b & 0x07) << 18) | (((bytes[i + 1] as number) & 0x3f) << 12) | (((bytes[i + 2] as number) & 0x3f) << 6) | ((bytes[i + 3] as number) & 0x3f);
      units[n++] = 0xd7c0 + (point >> 10); // 0xd800 + ((point - 0x10000) >> 10)
      units[n++] = 0xdc00 | (point & 0x3ff);
      i += 4;
    }
  }
  if (i !== end) return bytes.toString('utf8', start, end);
  return unitBytes.toString('utf16le', 0, 2 * n);
}

function isAsciiRange(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if ((bytes[i] as number) >= 0x80) return false;
  return true;
}

export class LineDecoder {
  private encoding: RawEncoding | null;
  /** Whether the buffer is known to be well-formed UTF-8 (undefined: not asked yet). */
  private wellFormed: boolean | undefined;

  /**
   * @param bytes the buffer lines are cut from
   * @param encoding known encoding (a UTF-8 BOM, or a decision carried over from an earlier window of the same file)
   * @param whole a native answer to "is all of `bytes` well-formed UTF-8?" (FileAccess.readTree's
   *   TreeFile, whose `utf8` is computed when first read), asked before the JavaScript check: on
   *   Korean text the check ran at ~0.4 GB/s and took ~30 ms of a 55 MB search, the native one
   *   ~2 ms. Only a `true` is trusted: the JavaScript check also accepts a sequence cut off at the
   *   end of a window, so a `false` is checked again.
   */
  constructor(
    private readonly bytes: Buffer,
    encoding: RawEncoding | null,
    private readonly whole?: { readonly utf8: boolean },
  ) {
    this.encoding = encoding;
  }

  /** The encoding decided so far (null while every candidate line was ASCII). */
  get decided(): RawEncoding | null {
    return this.encoding;
  }

  decode(start: number, end: number): string {
    const bytes = this.bytes;
    if (isAsciiRange(bytes, start, end)) return bytes.toString('latin1', start, end);
    if (this.encoding === null) {
      if (!isValidUtf8(bytes, start, end)) this.encoding = 'cp949';
      else if (this.whole?.utf8 === true || isValidUtf8(bytes)) {
        this.encoding = 'utf-8';
        this.wellFormed = true;
      } else this.encoding = 'cp949';
    }
    if (this.encoding === 'utf-8') {
      // Known well-formed (checked above, or natively for the whole buffer): decoded without a
      // second check. Otherwise (a BOM said UTF-8) the native decoder shows bad bytes as U+FFFD.
      this.wellFormed ??= this.whole?.utf8 === true;
      return this.wellFormed ? decodeWellFormed(bytes, start, end) : bytes.toString('utf8', start, end);
    }
    return iconv.decode(bytes.subarray(start, end), 'cp949');
  }
}
