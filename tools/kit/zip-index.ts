import type { ReadOnlyFileAccess } from './define-tool';

/**
 * The table of contents of a zip container (xlsx, docx, hwpx are zips), read from its central
 * directory with ranged reads through ctx.files: nothing is decompressed, so sizes can be checked
 * before any parsing (a zip bomb is refused from its declared sizes), and a reader can take the
 * entries in the order IT needs rather than the order the writing program chose.
 */

export interface ZipEntry {
  readonly name: string;
  /** 0 = stored, 8 = deflate. */
  readonly method: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localHeaderOffset: number;
  /** DOS time and date words, copied into rewritten local headers. */
  readonly dosTime: number;
  readonly dosDate: number;
  /** General-purpose flags; bit 0 = encrypted. */
  readonly flags: number;
}

export type ZipIndex =
  | { readonly ok: true; readonly entries: readonly ZipEntry[]; readonly fileSize: number }
  | { readonly ok: false; readonly reason: 'not-zip' | 'ole' | 'damaged' | 'zip64' };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
/** End record (22 bytes) plus the longest archive comment (65,535 bytes). */
const EOCD_SEARCH_BYTES = 22 + 0xffff;
/** A central directory larger than this is not an office document. */
const MAX_DIRECTORY_BYTES = 16 * 1024 * 1024;

function u16(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}

function u32(b: Uint8Array, at: number): number {
  return (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;
}

/** OLE compound files: legacy .xls/.doc/.hwp, and every password-protected OOXML file. */
export function isOleContainer(head: Uint8Array): boolean {
  return head.length >= 8 && head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0;
}

/** Reads the central directory of the zip at `path` (of `fileSize` bytes, from stat). */
export async function readZipIndex(files: ReadOnlyFileAccess, path: string, fileSize: number): Promise<ZipIndex> {
  const head = await files.readBytes(path, { maxBytes: 8 });
  if (isOleContainer(head)) return { ok: false, reason: 'ole' };
  if (head.length < 4 || u32(head, 0) !== 0x04034b50) return { ok: false, reason: 'not-zip' };
  const tailStart = Math.max(0, fileSize - EOCD_SEARCH_BYTES);
  const tail = await files.readBytes(path, { offset: tailStart, maxBytes: fileSize - tailStart });
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return { ok: false, reason: 'damaged' };
  const count = u16(tail, eocd + 10);
  const dirSize = u32(tail, eocd + 12);
  const dirOffset = u32(tail, eocd + 16);
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) return { ok: false, reason: 'zip64' };
  if (dirSize > MAX_DIRECTORY_BYTES || dirOffset + dirSize > fileSize) return { ok: false, reason: 'damaged' };
  const dir = await files.readBytes(path, { offset: dirOffset, maxBytes: dirSize });
  if (dir.length !== dirSize) return { ok: false, reason: 'damaged' };
  const entries: ZipEntry[] = [];
  const names = new TextDecoder('utf-8');
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > dir.length || u32(dir, at) !== CENTRAL_SIGNATURE) return { ok: false, reason: 'damaged' };
    const nameLength = u16(dir, at + 28);
    const extraLength = u16(dir, at + 30);
    const commentLength = u16(dir, at + 32);
    const entry: ZipEntry = {
      flags: u16(dir, at + 8),
      method: u16(dir, at + 10),
      dosTime: u16(dir, at + 12),
      dosDate: u16(dir, at + 14),
      crc32: u32(dir, at + 16),
      compressedSize: u32(dir, at + 20),
      size: u32(dir, at + 24),
      localHeaderOffset: u32(dir, at + 42),
      name: names.decode(dir.subarray(at + 46, at + 46 + nameLength)),
    };
    if (entry.compressedSize === 0xffffffff || entry.size === 0xffffffff || entry.localHeaderOffset === 0xffffffff) return { ok: false, reason: 'zip64' };
    if (entry.localHeaderOffset + entry.compressedSize > fileSize) return { ok: false, reason: 'damaged' };
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { ok: true, entries, fileSize };
}

/** Where an entry's compressed bytes start: after its local header, whose lengths may differ from the central one's. */
export async function entryDataOffset(files: ReadOnlyFileAccess, path: string, entry: ZipEntry): Promise<number | null> {
  const local = await files.readBytes(path, { offset: entry.localHeaderOffset, maxBytes: 30 });
  if (local.length < 30 || u32(local, 0) !== 0x04034b50) return null;
  return entry.localHeaderOffset + 30 + u16(local, 26) + u16(local, 28);
}

/**
 * A local file header for `entry` with the sizes and CRC filled in and no data descriptor (flag
 * bit 3 cleared), so a sequential zip reader can take the entry without looking further ahead.
 */
export function localHeaderFor(entry: ZipEntry): Uint8Array {
  const name = new TextEncoder().encode(entry.name);
  const out = new Uint8Array(30 + name.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x04034b50, true);
  view.setUint16(4, 20, true);
  // Bit 11 (UTF-8 names) kept; bit 3 (sizes after the data) cleared: the sizes are right here.
  view.setUint16(6, entry.flags & ~0x0008 & 0xffff, true);
  view.setUint16(8, entry.method, true);
  view.setUint16(10, entry.dosTime, true);
  view.setUint16(12, entry.dosDate, true);
  view.setUint32(14, entry.crc32, true);
  view.setUint32(18, entry.compressedSize, true);
  view.setUint32(22, entry.size, true);
  view.setUint16(26, name.length, true);
  view.setUint16(28, 0, true);
  out.set(name, 30);
  return out;
}
