import type { BinaryKind } from '../../../common/http-capability';

/**
 * What a body is, from its first bytes. Servers mislabel (an intranet wiki serving a PDF as
 * text/plain, an export served as application/octet-stream), so a recognised signature wins over
 * the declared Content-Type, and a binary body is never decoded into text for the model.
 */

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((b, i) => bytes[at + i] === b);
}

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

function contains(bytes: Uint8Array, needle: string, limit = bytes.length): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(limit, bytes.byteLength)).includes(needle, 0, 'latin1');
}

/**
 * Office Open XML and HWPX are ZIP files told apart by their entry names, which ZIP stores
 * uncompressed in each local header (and, at the end, in the central directory). Entries near the
 * start suffice: writers put [Content_Types].xml or HWPX's `mimetype` first.
 */
function zipKind(bytes: Uint8Array): BinaryKind {
  if (contains(bytes, 'application/hwp+zip', 256)) return 'hwpx';
  if (contains(bytes, 'xl/workbook.xml') || contains(bytes, 'xl/_rels/')) return 'xlsx';
  if (contains(bytes, 'word/document.xml') || contains(bytes, 'word/_rels/')) return 'docx';
  if (contains(bytes, 'ppt/presentation.xml') || contains(bytes, 'ppt/_rels/')) return 'pptx';
  return 'zip';
}

/** 'MZ' alone starts plenty of text; a PE file also has 'PE\0\0' where its header says. */
function isPortableExecutable(bytes: Uint8Array): boolean {
  if (!startsWith(bytes, ascii('MZ')) || bytes.length < 0x40) return false;
  const offset = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(0x3c);
  return startsWith(bytes, [0x50, 0x45, 0, 0], offset);
}

/** 'BM' alone starts plenty of text; a BMP also has a DIB header of a known size at offset 14. */
function isBitmap(bytes: Uint8Array): boolean {
  return startsWith(bytes, ascii('BM')) && bytes.length >= 18 && [12, 40, 52, 56, 64, 108, 124].includes(bytes[14]!) && bytes[15] === 0 && bytes[16] === 0 && bytes[17] === 0;
}

/** The kind a recognised signature says, or null when the bytes start with none we know. */
export function sniffBinaryKind(bytes: Uint8Array): BinaryKind | null {
  if (startsWith(bytes, ascii('%PDF-'))) return 'pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  if (isBitmap(bytes)) return 'bmp';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return zipKind(bytes);
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(bytes, [0x1f, 0x8b, 0x08])) return 'gzip';
  if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z';
  if (isPortableExecutable(bytes) || startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return 'exe';
  return null;
}
