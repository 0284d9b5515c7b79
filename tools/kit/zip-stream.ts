import { pipeline, Readable } from 'node:stream';
import { constants as zlibConstants, createInflateRaw } from 'node:zlib';
import type { ReadOnlyFileAccess } from './define-tool';
import { entryDataOffset, localHeaderFor, type ZipEntry } from './zip-index';

/** Bytes per ranged read: large enough that a 100 MB workbook takes ~100 reads, small enough to bound memory. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * A sequential zip stream of `entries`, in the order given, made from ranged reads of the file.
 * Each entry is inflated here and passed on STORED (method 0) under a rewritten local header
 * (sizes known, no data descriptor): a damaged deflate stream, or one that inflates to another
 * size than the directory declares (a zip bomb lying about its size), fails THIS stream, where the
 * caller sees it, instead of failing inside the consumer, which may never report it (exceljs's
 * reader hangs). Streaming zip readers (exceljs's WorkbookReader) take entries in stream order;
 * giving them the workbook, styles and shared strings before the sheets means they never park a
 * sheet in a temp file (which exceljs would otherwise write outside the workspace, through node:fs,
 * with the sheet's content). Memory: one chunk at a time.
 */
export function zipEntriesStream(files: ReadOnlyFileAccess, path: string, entries: readonly ZipEntry[], signal?: AbortSignal): Readable {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (const entry of entries) {
      if (signal?.aborted) return;
      yield localHeaderFor({ ...entry, method: 0, compressedSize: entry.size });
      let produced = 0;
      for await (const bytes of entryChunks(files, path, entry, signal)) {
        produced += bytes.length;
        if (produced > entry.size) throw new Error(`zip entry '${entry.name}': inflates beyond its declared ${entry.size} bytes`);
        yield bytes;
      }
      if (signal?.aborted) return;
      if (produced !== entry.size) throw new Error(`zip entry '${entry.name}': ${produced} of ${entry.size} bytes`);
    }
    // The central directory is not needed by a sequential reader: its signature ends the stream.
    yield Uint8Array.of(0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0));
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** An entry's content, decompressed as it streams; `headBytes` stops after that many stored bytes. */
async function* entryChunks(files: ReadOnlyFileAccess, path: string, entry: ZipEntry, signal?: AbortSignal, headBytes?: number): AsyncGenerator<Uint8Array> {
  const raw = storedChunks(files, path, entry, headBytes);
  if (entry.method === 0) {
    yield* raw;
    return;
  }
  if (entry.method !== 8) throw new Error(`zip entry '${entry.name}': compression method ${entry.method}`);
  // A cut-off head is inflated as far as it goes (SYNC_FLUSH) instead of failing as truncated.
  const head = headBytes !== undefined && headBytes < entry.compressedSize;
  // pipeline, not pipe: a failed read (the file vanished) must fail the inflated stream too.
  const inflate = createInflateRaw(head ? { finishFlush: zlibConstants.Z_SYNC_FLUSH } : {});
  const source = pipeline(Readable.from(raw), inflate, () => undefined);
  try {
    for await (const bytes of source as AsyncIterable<Uint8Array>) {
      if (signal?.aborted) return;
      yield bytes;
    }
  } finally {
    source.destroy();
  }
}

/** Raw bytes of an entry as stored (compressed), one chunk at a time. */
async function* storedChunks(files: ReadOnlyFileAccess, path: string, entry: ZipEntry, limit = entry.compressedSize): AsyncGenerator<Uint8Array> {
  const start = await entryDataOffset(files, path, entry);
  if (start === null) throw new Error(`zip entry '${entry.name}': no local header`);
  const total = Math.min(limit, entry.compressedSize);
  for (let done = 0; done < total; ) {
    const bytes = await files.readBytes(path, { offset: start + done, maxBytes: Math.min(CHUNK_BYTES, total - done) });
    if (bytes.length === 0) throw new Error(`zip entry '${entry.name}': file ends early`);
    done += bytes.length;
    yield bytes;
  }
}

/**
 * An entry's content as UTF-8 text, decompressed as it streams (XML parts of office files).
 * `headBytes` stops after that many compressed bytes: enough for what an XML part says at its
 * start (a sheet's `<dimension>`), without inflating the rest.
 */
export async function* entryTextChunks(files: ReadOnlyFileAccess, path: string, entry: ZipEntry, options: { readonly headBytes?: number; readonly signal?: AbortSignal } = {}): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const bytes of entryChunks(files, path, entry, options.signal, options.headBytes)) yield decoder.decode(bytes, { stream: true });
}

/** A small entry's whole text (workbook.xml, relationships), refused beyond `maxChars`. */
export async function entryText(files: ReadOnlyFileAccess, path: string, entry: ZipEntry, maxChars: number): Promise<string | null> {
  if (entry.size > maxChars * 4) return null;
  let out = '';
  for await (const chunk of entryTextChunks(files, path, entry)) {
    out += chunk;
    if (out.length > maxChars) return null;
  }
  return out;
}
