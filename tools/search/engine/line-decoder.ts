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
 * nothing above U+10FFFF). A sequence cut off by the end of `bytes` is accepted: the buffer may
 * be a window of a larger file. Runs about twice as fast as a fatal TextDecoder, which builds the
 * string it does not need here.
 */
export function isValidUtf8(bytes: Uint8Array, from = 0, to = bytes.length): boolean {
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
    if (i + need >= to) {
      // Cut off at the end of the window: fine if what is there is a valid beginning.
      for (let k = 1; i + k < to; k++) {
        const c = bytes[i + k] as number;
        if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return false;
      }
      return true;
    }
    const c1 = bytes[i + 1] as number;
    if (c1 < lo || c1 > hi) return false;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k] as number;
      if (c < 0x80 || c > 0xbf) return false;
    }
    i += need + 1;
  }
  return true;
}

function isAsciiRange(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if ((bytes[i] as number) >= 0x80) return false;
  return true;
}

export class LineDecoder {
  private encoding: RawEncoding | null;

  /**
   * @param bytes the buffer lines are cut from
   * @param encoding known encoding (a UTF-8 BOM, or a decision carried over from an earlier window of the same file)
   */
  constructor(
    private readonly bytes: Buffer,
    encoding: RawEncoding | null,
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
      else this.encoding = isValidUtf8(bytes) ? 'utf-8' : 'cp949';
    }
    if (this.encoding === 'utf-8') return bytes.toString('utf8', start, end);
    return iconv.decode(bytes.subarray(start, end), 'cp949');
  }
}
