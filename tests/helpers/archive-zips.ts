import { deflateRawSync } from 'node:zlib';

/**
 * Byte-exact zip files for the archive tests, including the hostile ones no zip program would
 * write (names with '..', lying sizes, symlink modes, CP949 names without the UTF-8 flag). Written
 * here from PKWARE's APPNOTE layout so each test states exactly which bytes it sends.
 */

export interface RawEntry {
  /** The name's bytes; a string is UTF-8. */
  readonly name: string | Uint8Array;
  readonly content?: Uint8Array | string;
  /** Default: flag bit 11 set when `name` is a string. */
  readonly flags?: number;
  /** 0 stored, 8 deflate (default 8). */
  readonly method?: number;
  /** Declared uncompressed size (default: the real one). A smaller value makes a lying entry. */
  readonly declaredSize?: number;
  /** Declared compressed size (default: the real one); only the central directory gets it. */
  readonly declaredCompressedSize?: number;
  /** Default 0x0314 (Unix, zip 2.0) with mode 0100644. */
  readonly versionMadeBy?: number;
  readonly externalAttributes?: number;
  /** Put a wrong CRC (damaged entry). */
  readonly badCrc?: boolean;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function rawZip(entries: readonly RawEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : Buffer.from(e.name);
    const content = typeof e.content === 'string' ? Buffer.from(e.content, 'utf8') : Buffer.from(e.content ?? new Uint8Array(0));
    const method = e.method ?? 8;
    const data = method === 8 ? deflateRawSync(content) : content;
    const flags = e.flags ?? (typeof e.name === 'string' ? 0x0800 : 0);
    const crc = e.badCrc ? (crc32(content) ^ 1) >>> 0 : crc32(content);
    const size = e.declaredSize ?? content.length;
    const compressedSize = method === 0 && e.declaredSize !== undefined ? e.declaredSize : data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x5b83, 12); // 2025-12-03
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressedSize, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.versionMadeBy ?? 0x0314, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x5b83, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.declaredCompressedSize ?? compressedSize, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((e.externalAttributes ?? (0o100644 << 16)) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** Unix mode bits of a symbolic link, in the central directory's external attributes. */
export const SYMLINK_ATTRIBUTES = (0o120777 << 16) >>> 0;
