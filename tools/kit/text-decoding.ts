import iconv from 'iconv-lite';
import { completeUtf8Length } from '../../electron/common/utf8';

/**
 * Text decoding for office files: UTF-8 (with or without BOM), UTF-16 LE/BE (BOM), and CP949,
 * which is what Korean Windows writes by default. Node's TextDecoder('euc-kr') is ICU's plain
 * EUC-KR and turns the 8,822 extended (UHC) syllables such as '똠' into Latin-1 garbage (checked on
 * Node 20.20), so CP949 goes through iconv-lite.
 */
export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'cp949';

export interface DecodedText {
  readonly text: string;
  readonly encoding: TextEncodingName;
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });
const utf8 = new TextDecoder('utf-8');

export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: utf8.decode(bytes.subarray(3)), encoding: 'utf-8-bom' };
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  }
  try {
    return { text: utf8Strict.decode(bytes), encoding: 'utf-8' };
  } catch {
    // Not valid UTF-8: on a Korean office PC that almost always means CP949. A cut at a size cap
    // can also split a UTF-8 sequence; prefer UTF-8 when only the last few bytes are invalid.
    const head = completeUtf8Length(bytes);
    if (head < bytes.length) {
      try {
        return { text: utf8Strict.decode(bytes.subarray(0, head)), encoding: 'utf-8' };
      } catch {
        /* fall through to CP949 */
      }
    }
    return { text: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'cp949'), encoding: 'cp949' };
  }
}


/** Heuristic used by search and read: a NUL byte in the first 8 KiB means binary (as git and grep do). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  // UTF-16 text is full of NULs; a BOM says it is text.
  if (n >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return false;
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}
