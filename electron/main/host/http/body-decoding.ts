import { createHash } from 'node:crypto';
import iconv from 'iconv-lite';
import type { CharsetSource, HttpBody } from '../../../common/http-capability';
import { sniffBinaryKind } from './binary-kind';
import { completeUtf8Length } from '../../../common/utf8';

/**
 * Turning a response body into what the model sees: text decoded by the right charset, or, for
 * binary content, a summary (size, SHA-256, kind) and never the bytes themselves.
 */

export interface MediaType {
  /** Lower case, no parameters; null when the header is absent or empty. */
  readonly type: string | null;
  readonly charset: string | null;
}

export function parseContentType(header: string | undefined): MediaType {
  if (header === undefined) return { type: null, charset: null };
  const [essence = '', ...params] = header.split(';');
  const type = essence.trim().toLowerCase();
  let charset: string | null = null;
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(param);
    if (match?.[1]) charset = match[1];
  }
  return { type: type === '' ? null : type, charset };
}

/**
 * Types that are binary whatever the bytes look like. application/octet-stream is not among them:
 * intranet servers send CSV and log files as octet-stream, so those are sniffed instead.
 */
const BINARY_TYPES = new Set([
  'application/pdf',
  'application/zip',
  'application/gzip',
  'application/x-gzip',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/x-tar',
  'application/msword',
  'application/x-msdownload',
  'application/java-archive',
  'application/wasm',
  'application/x-hwp',
  'application/haansofthwp',
]);

function declaredBinary(type: string | null): boolean {
  if (type === null) return false;
  if (/^(audio|video|font)\//.test(type)) return true;
  if (type.startsWith('image/')) return type !== 'image/svg+xml';
  if (BINARY_TYPES.has(type)) return true;
  // Office and HWP documents (application/vnd.openxmlformats-…, vnd.ms-excel, vnd.hancom.hwp…),
  // but not vendor JSON/XML formats (application/vnd.api+json), which are text.
  return type.startsWith('application/vnd.') && !/\+(json|xml)$/.test(type);
}

/** Types whose text may declare its own charset in a <meta> tag or an XML declaration. */
function markupOrUnknown(type: string | null): boolean {
  return type === null || type === 'application/octet-stream' || /html|xml/.test(type);
}

/**
 * Korean charset labels. All of them are decoded as CP949 (a superset of EUC-KR): servers label
 * CP949 pages "euc-kr" as a rule, and Node's TextDecoder('euc-kr') is ICU's plain EUC-KR, which
 * turns the 8,822 UHC-only syllables such as '똠' into garbage (checked on Node 20.20).
 */
const KOREAN_LABELS = new Set([
  'euc-kr',
  'euckr',
  'cp949',
  'ms949',
  'windows-949',
  'x-windows-949',
  'uhc',
  'x-uhc',
  'ks_c_5601-1987',
  'ks_c_5601-1989',
  'ksc5601',
  'ksc_5601',
  'csksc56011987',
  'iso-ir-149',
  'korean',
]);

type Decoder = { readonly charset: string; decode(bytes: Buffer, truncated: boolean): string };

const cp949: Decoder = { charset: 'cp949', decode: (bytes) => iconv.decode(bytes, 'cp949') };

function textDecoder(label: string): Decoder | null {
  let charset: string;
  try {
    charset = new TextDecoder(label).encoding;
  } catch {
    return null; // a label the platform does not know: fall through to detection
  }
  return {
    charset,
    // A body cut at the size cap may end inside a UTF-8 sequence; drop that tail instead of
    // ending the text with U+FFFD.
    decode: (bytes, truncated) => new TextDecoder(charset).decode(charset === 'utf-8' && truncated ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes),
  };
}

function decoderForLabel(label: string): Decoder | null {
  const normalised = label.trim().toLowerCase();
  if (normalised === '') return null;
  if (KOREAN_LABELS.has(normalised)) return cp949;
  return textDecoder(normalised);
}


function bomDecoder(bytes: Buffer): Decoder | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return textDecoder('utf-8');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return textDecoder('utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return textDecoder('utf-16be');
  return null;
}

/** The HTML prescan window (WHATWG HTML §13.2.3.2 looks at the first 1024 bytes). */
const PRESCAN_BYTES = 1024;
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i;
const XML_ENCODING = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9_.:-]+)["']/;

/**
 * `<meta charset="euc-kr">`, `<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">`
 * or `<?xml … encoding="euc-kr"?>` near the start. A page that can state its charset in ASCII is
 * not UTF-16, so a UTF-16 label there means UTF-8 (as browsers do).
 */
function declaredInMarkup(bytes: Buffer): Decoder | null {
  const head = bytes.subarray(0, PRESCAN_BYTES).toString('latin1');
  const label = META_CHARSET.exec(head)?.[1] ?? XML_ENCODING.exec(head)?.[1];
  if (label === undefined) return null;
  const decoder = decoderForLabel(label);
  return decoder?.charset.startsWith('utf-16') ? textDecoder('utf-8') : decoder;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** No declaration anywhere: UTF-8 if it is valid UTF-8, otherwise CP949 (a Korean office's legacy default). */
function detected(bytes: Buffer, truncated: boolean): { text: string; charset: string } {
  const end = truncated ? completeUtf8Length(bytes) : bytes.length;
  try {
    return { text: strictUtf8.decode(bytes.subarray(0, end)), charset: 'utf-8' };
  } catch {
    return { text: cp949.decode(bytes, truncated), charset: 'cp949' };
  }
}

/**
 * Order: BOM, Content-Type charset, markup declaration, detection. The BOM comes first as in the
 * WHATWG encoding standard's decode: a body that starts with one says what it is more reliably
 * than a server's configuration, which is often a global default.
 */
function decodeText(bytes: Buffer, media: MediaType, truncated: boolean): HttpBody {
  const chosen: { decoder: Decoder; source: CharsetSource } | null =
    (() => {
      const bom = bomDecoder(bytes);
      if (bom) return { decoder: bom, source: 'bom' as const };
      const header = media.charset === null ? null : decoderForLabel(media.charset);
      if (header) return { decoder: header, source: 'header' as const };
      const markup = markupOrUnknown(media.type) ? declaredInMarkup(bytes) : null;
      if (markup) return { decoder: markup, source: 'meta' as const };
      return null;
    })();
  if (chosen === null) {
    const { text, charset } = detected(bytes, truncated);
    return { kind: 'text', text, charset, charsetSource: 'detected' };
  }
  return { kind: 'text', text: chosen.decoder.decode(bytes, truncated), charset: chosen.decoder.charset, charsetSource: chosen.source };
}

/** A NUL in the first 8 KiB means binary, as git and grep decide; UTF-16 text (declared or with a BOM) is full of NULs. */
function hasNulByte(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

function utf16Evidence(bytes: Buffer, media: MediaType): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  return media.charset !== null && /^utf-16/i.test(media.charset.trim());
}

export function interpretBody(bytes: Buffer, contentType: string | undefined, truncated: boolean): HttpBody {
  const media = parseContentType(contentType);
  const sniffed = sniffBinaryKind(bytes);
  const binary = sniffed !== null || declaredBinary(media.type) || (hasNulByte(bytes) && !utf16Evidence(bytes, media));
  if (binary) {
    return { kind: 'binary', bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), detected: sniffed ?? 'unknown' };
  }
  return decodeText(bytes, media, truncated);
}
