import type { FileAccess, WalkEntry } from '../../../electron/common/file-access';
import { isFileAccessError, type FileErrorCode } from '../../../electron/common/file-access';
import { decodeText } from '../../kit/text-decoding';
import { asBuffer } from './finders';
import { formatHit } from './format';
import type { Query } from './query';
import { scanBytes, scanText, type LineHit, type ScanState } from './scan';

/**
 * Walks, reads and scans files for one search. Pure orchestration over the FileAccess capability
 * (no node:*), so the tool and the benchmark run exactly the same code.
 */
export type FileSource = Pick<FileAccess, 'walk' | 'readBytes' | 'display'>;

export interface SearchOptions {
  /** File or folder as the model gave it (the host resolves it; '' is not allowed here). */
  readonly path: string;
  readonly query: Query;
  /** Extra filter on absolute file paths (the `glob` argument); null = every file. */
  readonly include: ((absolutePath: string) => boolean) | null;
  /** Stop after this many matching lines. */
  readonly maxResults: number;
  /** Stop before the formatted lines exceed this many characters (the model's output budget). */
  readonly maxChars: number;
  readonly signal: AbortSignal;
}

export interface Unreadable {
  readonly path: string;
  readonly code: FileErrorCode;
}

export interface SearchReport {
  /** Formatted `path:LINE:text` lines, in walk order. */
  readonly lines: readonly string[];
  readonly filesWithMatches: number;
  readonly filesSearched: number;
  readonly binarySkipped: number;
  readonly unreadable: readonly Unreadable[];
  /** Files of which only the beginning was searched (display paths). */
  readonly partial: readonly string[];
  /** Why the search stopped before the end, if it did. */
  readonly stopped: 'maxResults' | 'maxChars' | null;
  readonly cancelled: boolean;
}

/**
 * Files are read in windows of this size: one read for nearly every office file, bounded memory
 * for a multi-gigabyte log (the window after the last complete line carries over).
 */
export const WINDOW_BYTES = 8 * 1024 * 1024;
// A "line" longer than this is not text anyone reads line by line; the rest of the file is skipped.
const MAX_CARRY_BYTES = 2 * WINDOW_BYTES;
// Reads in flight ahead of the scanner. A confined read is six calls on libuv's 4-thread pool
// (realpath, open, fstat, readlink of /proc/self/fd, read, close), so the pool, not the scan, sets
// the pace: on the 6,000-file benchmark corpus walk+read took 1.4 s with 8 reads ahead and 1.0 s
// with 32. The byte budget keeps 32 large files from being held at once.
const READ_AHEAD = 32;
const READ_AHEAD_BYTES = 64 * 1024 * 1024;

type ReadResult = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly error: unknown };

function settle(p: Promise<Uint8Array>): Promise<ReadResult> {
  return p.then(
    (bytes) => ({ ok: true, bytes }),
    (error: unknown) => ({ ok: false, error }),
  );
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * kit/looksBinary's rule (a NUL in the first 8 KiB, unless a UTF-16 BOM says text) with a native
 * memchr: kit's JS loop took 40–80 ms of a 55 MB search of 6,000 files, most of the scan time.
 */
export function isBinary(bytes: Uint8Array): boolean {
  if (isUtf16Bom(bytes)) return false;
  return asBuffer(bytes).subarray(0, 8192).indexOf(0) >= 0;
}

function isUtf16Bom(b: Uint8Array): boolean {
  return b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff));
}

function isUtf8Bom(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

interface FileOutcome {
  readonly partial: boolean;
  readonly unreadable?: FileErrorCode;
}

export async function searchFiles(source: FileSource, options: SearchOptions): Promise<SearchReport> {
  const { query, include, maxResults, maxChars, signal } = options;
  const lines: string[] = [];
  const unreadable: Unreadable[] = [];
  const partial: string[] = [];
  let chars = 0;
  let filesWithMatches = 0;
  let filesSearched = 0;
  let binarySkipped = 0;
  let stopped: SearchReport['stopped'] = null;
  let cancelled = false;

  /** Scans one file from its first window on; appends hits. */
  async function scanFile(entry: WalkEntry, first: Uint8Array, hits: LineHit[], room: number): Promise<FileOutcome> {
    if (isUtf16Bom(first)) {
      // UTF-16 is rare in offices (some exports); decoded whole, up to one window.
      scanText(decodeText(first).text, query, room, hits);
      return { partial: first.length >= WINDOW_BYTES };
    }
    const state: ScanState = { firstLine: 1, encoding: isUtf8Bom(first) ? 'utf-8' : null };
    let buffer = first;
    let start = isUtf8Bom(first) ? 3 : 0;
    let offset = first.length;
    let final = first.length < WINDOW_BYTES;
    for (;;) {
      const outcome = scanBytes(buffer, start, final, query, state, room - hits.length, hits);
      if (final || outcome.stoppedEarly || hits.length >= room) return { partial: false };
      const carry = buffer.subarray(outcome.consumed);
      if (carry.length > MAX_CARRY_BYTES) return { partial: true };
      if (signal.aborted) return { partial: true };
      let next: Uint8Array;
      try {
        next = await source.readBytes(entry.path, { offset, maxBytes: WINDOW_BYTES });
      } catch (e) {
        if (isFileAccessError(e)) return { partial: true, unreadable: e.code };
        throw e;
      }
      offset += next.length;
      final = next.length < WINDOW_BYTES;
      buffer = carry.length === 0 ? next : concat(carry, next);
      start = 0;
    }
  }

  const walk = source.walk(options.path, { respectIgnoreFiles: true, includeHidden: false })[Symbol.asyncIterator]();
  let walkDone = false;
  const queue: { entry: WalkEntry; read: Promise<ReadResult> }[] = [];
  let queuedBytes = 0;
  const refill = async (): Promise<void> => {
    while (!walkDone && queue.length < READ_AHEAD && (queue.length === 0 || queuedBytes < READ_AHEAD_BYTES)) {
      const step = await walk.next();
      if (step.done === true) {
        walkDone = true;
        break;
      }
      const entry = step.value;
      if (include !== null && !include(entry.path)) continue;
      queuedBytes += Math.min(entry.size, WINDOW_BYTES);
      queue.push({ entry, read: settle(source.readBytes(entry.path, { maxBytes: WINDOW_BYTES })) });
    }
  };

  try {
    for (;;) {
      if (signal.aborted) {
        cancelled = true;
        break;
      }
      await refill();
      const item = queue.shift();
      if (item === undefined) break;
      queuedBytes -= Math.min(item.entry.size, WINDOW_BYTES);
      const read = await item.read;
      if (!read.ok) {
        if (!isFileAccessError(read.error)) throw read.error;
        unreadable.push({ path: source.display(item.entry.path), code: read.error.code });
        continue;
      }
      if (isBinary(read.bytes)) {
        binarySkipped++;
        continue;
      }
      filesSearched++;
      const hits: LineHit[] = [];
      // One hit beyond the cap tells "capped" apart from "exactly maxResults matches".
      const outcome = await scanFile(item.entry, read.bytes, hits, maxResults + 1 - lines.length);
      const display = source.display(item.entry.path);
      if (outcome.unreadable !== undefined) unreadable.push({ path: display, code: outcome.unreadable });
      else if (outcome.partial) partial.push(display);
      if (hits.length > 0) filesWithMatches++;
      for (const hit of hits) {
        const line = formatHit(display, hit);
        if (chars + line.length + 1 > maxChars) {
          stopped = 'maxChars';
          break;
        }
        chars += line.length + 1;
        lines.push(line);
      }
      if (stopped === null && lines.length > maxResults) {
        lines.length = maxResults;
        stopped = 'maxResults';
      }
      if (stopped !== null) break;
    }
  } finally {
    // Stop the walk early (cap reached, cancelled, or an error): no more directories are read.
    if (!walkDone) await walk.return?.();
  }
  if (signal.aborted && stopped === null) cancelled = true;
  return { lines, filesWithMatches, filesSearched, binarySkipped, unreadable, partial, stopped, cancelled };
}
