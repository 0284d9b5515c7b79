import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import type { ReadOnlyFileAccess } from '../kit/define-tool';
import { decodeEntryName, type NameEncoding } from './entry-names';

/**
 * Reading a zip with yauzl (well kept, validates local against central headers, zip64, refuses a
 * stored entry whose sizes disagree, and counts the bytes an entry really inflates to) through
 * ctx.files' ranged reads: the tools never open the file themselves, so the host's confinement
 * holds for every byte read. Names are kept raw (decodeStrings: false) and decoded by
 * entry-names.ts, which knows CP949.
 */

/** Bytes per ranged read (the host reads at most ~50 MB per call; 1 MiB bounds memory per stream). */
const CHUNK_BYTES = 1024 * 1024;

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface ArchiveEntry {
  readonly entry: Entry;
  /** Decoded name as stored (before any checking); null when the bytes claim UTF-8 and are not. */
  readonly name: string | null;
  readonly rawName: Uint8Array;
  readonly encoding: NameEncoding;
  readonly kind: EntryKind;
  readonly encrypted: boolean;
  readonly method: number;
  /** Declared sizes (not trusted: extraction counts the real bytes). */
  readonly size: number;
  readonly compressedSize: number;
}

export interface OpenArchive {
  readonly zip: ZipFile;
  readonly entries: readonly ArchiveEntry[];
  close(): void;
}

export type OpenOutcome = OpenArchive | { readonly problem: 'not-zip' | 'damaged' } | { readonly problem: 'too-many'; readonly count: number };

/** Host systems in "version made by" whose external attributes carry a Unix mode (Unix, macOS). */
const UNIX_HOSTS = new Set([3, 19]);
const S_IFMT = 0o170000;

/**
 * What an entry is. A Unix-made zip says it in the mode bits (symlinks are entries whose content is
 * the link target); a DOS/Windows one has a directory bit and a reparse-point bit (junctions, links).
 */
export function entryKind(entry: Entry, name: string): EntryKind {
  const host = entry.versionMadeBy >>> 8;
  const mode = entry.externalFileAttributes >>> 16;
  if (UNIX_HOSTS.has(host) && mode !== 0) {
    const type = mode & S_IFMT;
    if (type === 0o120000) return 'symlink';
    if (type === 0o040000) return 'directory';
    if (type !== 0o100000 && type !== 0) return 'other';
  }
  const dos = entry.externalFileAttributes & 0xffff;
  if ((dos & 0x400) !== 0) return 'symlink';
  if (name.endsWith('/') || name.endsWith('\\')) return 'directory';
  // DOS directory attribute on an empty entry (some Windows tools leave out the trailing slash).
  if ((dos & 0x10) !== 0 && entry.uncompressedSize === 0) return 'directory';
  return 'file';
}

type Yauzl = typeof import('yauzl');
let loaded: Promise<Yauzl> | undefined;
/** Loaded on first use: `baram tools` imports every tool, and most sessions never open a zip. */
function yauzl(): Promise<Yauzl> {
  return (loaded ??= import('yauzl').then((m) => ((m as { default?: Yauzl }).default ?? m) as Yauzl));
}

function readerOver(lib: Yauzl, files: ReadOnlyFileAccess, path: string): InstanceType<Yauzl['RandomAccessReader']> {
  class HostReader extends lib.RandomAccessReader {
    override _readStreamForRange(start: number, end: number): Readable {
      async function* ranged(): AsyncGenerator<Buffer> {
        for (let at = start; at < end; ) {
          const bytes = await files.readBytes(path, { offset: at, maxBytes: Math.min(CHUNK_BYTES, end - at) });
          if (bytes.length === 0) throw new Error('zip file ends early');
          at += bytes.length;
          yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        }
      }
      return Readable.from(ranged(), { objectMode: false });
    }
  }
  return new HostReader();
}

/** Opens the zip at `path` (`size` bytes, from stat) and reads its whole central directory. */
export async function openArchive(files: ReadOnlyFileAccess, path: string, size: number, maxEntries: number): Promise<OpenOutcome> {
  const head = await files.readBytes(path, { maxBytes: 4 });
  // PK\3\4 (an ordinary zip) or PK\5\6 (an empty one).
  if (head.length < 4 || head[0] !== 0x50 || head[1] !== 0x4b || !((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))) {
    return { problem: 'not-zip' };
  }
  const lib = await yauzl();
  const reader = readerOver(lib, files, path);
  let zip: ZipFile;
  try {
    zip = await new Promise<ZipFile>((resolve, reject) =>
      lib.fromRandomAccessReader(reader, size, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false }, (err, z) => (err ? reject(err) : resolve(z))),
    );
  } catch {
    return { problem: 'damaged' };
  }
  const close = () => {
    try {
      zip.close();
    } catch {
      // already closed
    }
  };
  // The count comes from the end record, before any entry is read: a million-entry zip costs nothing.
  if (zip.entryCount > maxEntries) {
    close();
    return { problem: 'too-many', count: zip.entryCount };
  }
  try {
    const entries = await new Promise<ArchiveEntry[]>((resolve, reject) => {
      const out: ArchiveEntry[] = [];
      zip.on('entry', (entry: Entry) => {
        const rawName = new Uint8Array(entry.fileNameRaw);
        const decoded = decodeEntryName(rawName, entry.generalPurposeBitFlag);
        out.push({
          entry,
          name: decoded?.name ?? null,
          rawName,
          encoding: decoded?.encoding ?? 'utf-8',
          kind: entryKind(entry, decoded?.name ?? ''),
          encrypted: entry.isEncrypted(),
          method: entry.compressionMethod,
          size: entry.uncompressedSize,
          compressedSize: entry.compressedSize,
        });
        zip.readEntry();
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
    return { zip, entries, close };
  } catch {
    close();
    return { problem: 'damaged' };
  }
}

export type ReadOutcome =
  | { readonly kind: 'read'; readonly bytes: Uint8Array }
  | { readonly kind: 'cancelled' }
  /** The entry inflated to more than it declared (a lying zip bomb), or more than `limit`. */
  | { readonly kind: 'too-large'; readonly bytes: number }
  | { readonly kind: 'damaged' };

/**
 * An entry's content, whole, inflating and counting as it streams: it stops as soon as the real
 * bytes pass the declared size (or `limit`), checks the CRC-32, and at once when `signal` aborts (between chunks, and
 * while waiting for one). Nothing is written here, so a stopped or refused entry leaves no file.
 */
export async function readEntryBytes(archive: OpenArchive, item: ArchiveEntry, limit: number, signal: AbortSignal): Promise<ReadOutcome> {
  if (signal.aborted) return { kind: 'cancelled' };
  let stream: Readable;
  try {
    stream = await new Promise<Readable>((resolve, reject) => archive.zip.openReadStream(item.entry, (err, s) => (err ? reject(err) : resolve(s))));
  } catch {
    return { kind: 'damaged' };
  }
  const allowed = Math.min(item.size, limit);
  const chunks: Buffer[] = [];
  let total = 0;
  // yauzl leaves the CRC to its caller; a damaged entry must not become a file.
  let crc = 0;
  const stop = () => stream.destroy();
  signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (signal.aborted) return { kind: 'cancelled' };
      total += chunk.length;
      if (total > allowed) return { kind: 'too-large', bytes: total };
      crc = crc32(chunk, crc);
      chunks.push(chunk);
    }
  } catch (e) {
    if (signal.aborted) return { kind: 'cancelled' };
    // yauzl's own byte count: "too many bytes in the stream" (the same lie, seen first by yauzl).
    if (e instanceof Error && /too many bytes/i.test(e.message)) return { kind: 'too-large', bytes: Math.max(total, allowed + 1) };
    return { kind: 'damaged' };
  } finally {
    signal.removeEventListener('abort', stop);
    stream.destroy();
  }
  if (signal.aborted) return { kind: 'cancelled' };
  // Fewer bytes than declared: yauzl reports that as an error; a stream that ended short anyway is damaged.
  if (total !== item.size || crc !== item.entry.crc32 >>> 0) return { kind: 'damaged' };
  return { kind: 'read', bytes: Buffer.concat(chunks, total) };
}
