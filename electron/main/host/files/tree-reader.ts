import { closeSync, readSync, type Dirent } from 'node:fs';
import { assertNever } from '../../../common/assert-never';
import type { EntryType, FileErrorCode } from '../../../common/file-access';
import type { Confiner } from './confine';
import { isUnreadable, readDirectoryCheckedSync, resolveUnknownTypeSync } from './entries';
import { fromOsError } from './errors';
import { IgnoreStack } from './ignore-rules';
import { openVerifiedForReadSync } from './open-verified';
import { direntsNeedingType, walkChildren, type WalkChild } from './walk-children';

/**
 * The synchronous core of FileAccess.readTree: walks a checked folder with walk.ts's rules
 * (walk-children.ts) and reads each file's first window, in batches. Runs on a worker thread
 * (tree-reader-worker.ts), or time-sliced on the main thread (filtered reads, no worker).
 *
 * Synchronous on purpose: an async confined read is six hops through libuv's 4-thread pool
 * (realpath, open, fstat, readlink, read, close) and walk + reads took ~1.1 s for the 6,008-file
 * benchmark corpus; the same system calls made synchronously cost ~20 µs a file and ~22 µs a
 * folder, ~150 ms for the corpus on one thread (measured on this 2-core machine).
 */
export interface TreeReaderOptions {
  readonly respectIgnoreFiles: boolean;
  readonly includeHidden: boolean;
  /**
   * Files to hand out at most (read, delegated, or reported unreadable). A delegated file that
   * vanishes before the main thread opens it still counts: the bound is never exceeded.
   */
  readonly maxFiles: number;
  /** Bytes read from the start of each file. */
  readonly windowBytes: number;
  /** Whether .gitignore matching ignores case (git's core.ignorecase; Windows and macOS). */
  readonly ignoreCase: boolean;
}

/** One file of a batch, in walk order (decoded from the batch by batchItems). */
export type BatchItem =
  /** Read: the window lies in `buffers[buffer]` at [offset, offset + length). */
  | {
      readonly kind: 'read';
      readonly path: string;
      /** Size when opened (fstat). */
      readonly size: number;
      readonly buffer: number;
      readonly offset: number;
      readonly length: number;
    }
  | { readonly kind: 'failed'; readonly path: string; readonly code: FileErrorCode }
  /** Listed and checked but left for the receiving thread to read (readOneSync). */
  | { readonly kind: 'delegated'; readonly path: string };

/**
 * A batch as it crosses threads: its buffers, plus the items packed into one string and one
 * number array rather than an object each. Structured cloning of ~100 item objects per batch cost
 * ~9 ms per 6,000 files on the two threads together; the packed form ~3 ms.
 */
export interface Batch {
  /** Transferable as they are: a worker hands them over without copying. */
  readonly buffers: ArrayBuffer[];
  /** The files' paths, NUL-separated (no path holds a NUL). */
  readonly paths: string;
  /** FIELDS numbers per file: kind, then buffer, offset, length, size ('read') or the error code's index ('failed'). */
  readonly numbers: Float64Array<ArrayBuffer>;
}

const FIELDS = 5;
const KIND_READ = 0;
const KIND_FAILED = 1;
const KIND_DELEGATED = 2;
// A code crosses as its number; a Record, so that a new FileErrorCode does not compile until numbered.
const ERROR_NUMBER: Readonly<Record<FileErrorCode, number>> = {
  OUTSIDE_ROOTS: 0,
  FORBIDDEN: 1,
  INVALID_PATH: 2,
  NOT_FOUND: 3,
  EXISTS: 4,
  IS_DIRECTORY: 5,
  NOT_DIRECTORY: 6,
  TOO_LARGE: 7,
  CHANGED: 8,
  IO: 9,
};
const ERROR_CODES = Object.keys(ERROR_NUMBER).sort((a, b) => ERROR_NUMBER[a as FileErrorCode] - ERROR_NUMBER[b as FileErrorCode]) as FileErrorCode[];

/** The items of a batch, in order. */
export function batchItems(batch: Batch): BatchItem[] {
  const count = batchSize(batch);
  const paths = count === 0 ? [] : batch.paths.split('\0');
  const n = batch.numbers;
  const items: BatchItem[] = [];
  for (let i = 0; i < count; i++) {
    const path = paths[i] as string;
    const at = i * FIELDS;
    const kind = n[at];
    if (kind === KIND_READ) {
      items.push({ kind: 'read', path, buffer: n[at + 1] as number, offset: n[at + 2] as number, length: n[at + 3] as number, size: n[at + 4] as number });
    } else if (kind === KIND_FAILED) {
      items.push({ kind: 'failed', path, code: ERROR_CODES[n[at + 1] as number] ?? 'IO' });
    } else {
      items.push({ kind: 'delegated', path });
    }
  }
  return items;
}

/** Files in a batch, without decoding it. */
export function batchSize(batch: Batch): number {
  return batch.numbers.length / FIELDS;
}

export interface BatchLimits {
  /** End the batch once its content reaches this many bytes. */
  readonly bytes: number;
  /** … or once it holds this many files (read, failed or delegated). */
  readonly files: number;
  /** performance.now() after which the batch ends (main-thread time slices); none in a worker. */
  readonly deadline?: number;
}

export interface TreeReaderHooks {
  /** Files it refuses are passed over unread and uncounted (readTree's include option). */
  accept?: (path: string) => boolean;
  /** Asked per file: true leaves the file to the consumer's thread (a 'delegated' item). */
  delegate?(): boolean;
  /** A slab to fill, instead of a new allocation (one the consumer gave back); null for none. */
  reuseSlab?(): Uint8Array<ArrayBuffer> | null;
  /** Test seam: runs just before each file is opened (the security tests swap folders there). */
  beforeOpen?: (path: string) => void;
}

/** Where readOneSync puts a window: `view` at `offset`; `buffer` numbers it within a batch. */
export interface Slot {
  readonly buffer: number;
  readonly view: Uint8Array<ArrayBuffer>;
  readonly offset: number;
}

export type ReadOutcome =
  | { readonly kind: 'read'; readonly size: number; readonly slot: Slot; readonly length: number }
  | { readonly kind: 'failed'; readonly code: FileErrorCode }
  /** Gone, a link now, or no longer a regular file since the listing: passed over, as walk does. */
  | { readonly kind: 'skipped' };

/**
 * Opens one listed file with the full proof (openVerifiedForReadSync) and reads its first
 * `windowBytes` into the slot `place` gives for the size. Shared by the worker's reader and the
 * main thread's reads of delegated files, so both read under exactly the same checks.
 */
export function readOneSync(path: string, confiner: Confiner, windowBytes: number, place: (length: number) => Slot): ReadOutcome {
  const opened = openVerifiedForReadSync(path, confiner);
  if (!opened.ok) return opened.skip ? { kind: 'skipped' } : { kind: 'failed', code: opened.error.code };
  const { fd, stat } = opened;
  try {
    const wanted = Math.min(stat.size, windowBytes);
    const slot = place(wanted);
    let filled = 0;
    while (filled < wanted) {
      const n = readSync(fd, slot.view, slot.offset + filled, wanted - filled, filled);
      if (n === 0) break; // shrank since fstat
      filled += n;
    }
    return { kind: 'read', size: stat.size, slot, length: filled };
  } catch (e) {
    return { kind: 'failed', code: fromOsError(e, path).code };
  } finally {
    closeSync(fd);
  }
}

interface Frame {
  readonly ignores: IgnoreStack;
  readonly children: readonly WalkChild[];
  next: number;
}

export class TreeReader {
  /** Time spent reading files on this thread (ms) and how many, when delegating (for the split). */
  readMs = 0;
  reads = 0;
  private readonly stack: Frame[] = [];
  private started = false;
  private remaining: number;

  constructor(
    private readonly confiner: Confiner,
    /** A folder that passed the full check (Confiner.target) on the main thread. */
    private readonly start: string,
    private readonly options: TreeReaderOptions,
    private readonly hooks: TreeReaderHooks = {},
  ) {
    this.remaining = options.maxFiles;
  }

  /**
   * The next batch (possibly empty, when a deadline passed among folders), or null when the walk is
   * over. `stop` is asked before every folder and file:
   * a cancelled search stops within one file. Folder errors other than "no permission" (which
   * passes the folder over, as walk does) are thrown as the OS reported them.
   */
  nextBatch(limits: BatchLimits, stop: () => boolean): Batch | null {
    if (!this.started) {
      this.started = true;
      this.enter(this.start, IgnoreStack.empty(this.confiner.rules, this.options.ignoreCase));
    }
    const batch = new BatchBuilder(limits.bytes, this.hooks.reuseSlab);
    while (this.remaining > 0 && !stop()) {
      const frame = this.stack[this.stack.length - 1];
      if (frame === undefined) break;
      const child = frame.children[frame.next++];
      if (child === undefined) {
        this.stack.pop();
        continue;
      }
      if (child.isDir) this.enter(child.path, frame.ignores);
      else if (this.take(child.path, batch)) this.remaining--;
      if (batch.bytes >= limits.bytes || batch.files >= limits.files) break;
      if (limits.deadline !== undefined && performance.now() >= limits.deadline) break;
    }
    // An empty batch is not the end: a time slice can pass among folders that hold no files.
    const over = this.remaining <= 0 || this.stack.length === 0 || stop();
    return batch.files === 0 && over ? null : batch.finish();
  }

  private enter(dir: string, parentIgnores: IgnoreStack): void {
    let dirents: Dirent[] | null;
    try {
      dirents = readDirectoryCheckedSync(dir, this.confiner);
    } catch (e) {
      if (isUnreadable(e)) return;
      throw e;
    }
    if (dirents === null) return; // gone, or no longer where it was checked (swapped for a link)
    const { respectIgnoreFiles, includeHidden } = this.options;
    const ignores = respectIgnoreFiles ? parentIgnores.enterSync(dir, dirents) : parentIgnores;
    const lookedUp = new Map<Dirent, EntryType | null>();
    for (const dirent of direntsNeedingType(dirents, includeHidden)) {
      lookedUp.set(dirent, resolveUnknownTypeSync(dirent, this.confiner.rules.api.join(dir, dirent.name)));
    }
    const children = walkChildren(dir, dirents, { confiner: this.confiner, ignores, includeHidden }, lookedUp);
    if (children.length > 0) this.stack.push({ ignores, children, next: 0 });
  }

  /** Adds one file to the batch; false when it was passed over (filtered out, gone, a link now). */
  private take(path: string, batch: BatchBuilder): boolean {
    const { accept, delegate, beforeOpen } = this.hooks;
    if (accept !== undefined && !accept(path)) return false;
    if (delegate !== undefined && delegate()) {
      batch.delegated(path);
      return true;
    }
    beforeOpen?.(path);
    const timed = delegate !== undefined;
    const started = timed ? performance.now() : 0;
    const outcome = readOneSync(path, this.confiner, this.options.windowBytes, (length) => batch.reserve(length));
    if (timed) {
      this.readMs += performance.now() - started;
      this.reads++;
    }
    switch (outcome.kind) {
      case 'skipped':
        return false;
      case 'failed':
        batch.failed(path, outcome.code);
        return true;
      case 'read':
        batch.read(path, outcome.size, outcome.slot, outcome.length);
        return true;
      default:
        return assertNever(outcome);
    }
  }
}

/**
 * Packs file windows into one slab per batch (one allocation, one transfer); a window larger than
 * what is left of the slab gets a buffer of its own.
 */
class BatchBuilder {
  private readonly paths: string[] = [];
  private readonly numbers: number[] = [];
  private readonly buffers: ArrayBuffer[] = [];
  private slab: Uint8Array<ArrayBuffer> | null = null;
  private slabIndex = -1;
  private used = 0;
  /** Content bytes so far. */
  bytes = 0;

  constructor(
    private readonly slabBytes: number,
    private readonly reuseSlab: (() => Uint8Array<ArrayBuffer> | null) | undefined,
  ) {}

  get files(): number {
    return this.paths.length;
  }

  reserve(length: number): Slot {
    if (this.slab !== null && length <= this.slab.length - this.used) return { buffer: this.slabIndex, view: this.slab, offset: this.used };
    if (this.slab === null && length <= this.slabBytes) {
      const reused = this.reuseSlab?.() ?? null;
      this.slab = reused !== null && reused.length >= this.slabBytes ? reused : new Uint8Array(this.slabBytes);
      this.slabIndex = this.buffers.push(this.slab.buffer) - 1;
      return { buffer: this.slabIndex, view: this.slab, offset: 0 };
    }
    const own = new Uint8Array(length);
    return { buffer: this.buffers.push(own.buffer) - 1, view: own, offset: 0 };
  }

  read(path: string, size: number, slot: Slot, length: number): void {
    if (slot.view === this.slab) this.used += length;
    this.bytes += length;
    this.paths.push(path);
    this.numbers.push(KIND_READ, slot.buffer, slot.offset, length, size);
  }

  failed(path: string, code: FileErrorCode): void {
    this.paths.push(path);
    this.numbers.push(KIND_FAILED, ERROR_NUMBER[code], 0, 0, 0);
  }

  delegated(path: string): void {
    this.paths.push(path);
    this.numbers.push(KIND_DELEGATED, 0, 0, 0, 0);
  }

  finish(): Batch {
    return { buffers: this.buffers, paths: this.paths.join('\0'), numbers: Float64Array.from(this.numbers) };
  }
}
