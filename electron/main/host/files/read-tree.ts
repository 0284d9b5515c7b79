import { isAscii, isUtf8 } from 'node:buffer';
import { assertNever } from '../../../common/assert-never';
import type { ReadTreeOptions, TreeFile } from '../../../common/file-access';
import type { Confiner } from './confine';
import { lstatOrNull } from './entries';
import { fileError, fromOsError, isErrno } from './errors';
import { readCheckedSized } from './read';
import { batchItems, readOneSync, TreeReader, type Batch, type BatchItem, type BatchLimits, type ReadOutcome, type Slot, type TreeReaderHooks, type TreeReaderOptions } from './tree-reader';
import { treeIo } from './tree-io';
import { FolderOpener, readAtSync } from './tree-reader-openat';
import { CONSUME_NS, MAIN_READ_NS } from './tree-reader-protocol';
import { treeReaderPool, WorkerUnavailable, type ReaderThread, type TreeJob, type TreeReaderPool } from './tree-reader-pool';

/**
 * FileAccess.readTree: the start path gets the full check here (Confiner.target, as walk and
 * readBytes do); the folder below it is walked and read by a TreeReader on a worker thread, while
 * this thread searches what has arrived and reads a share of the files itself (the worker hands
 * them over as 'delegated'): on two cores one reader thread is slower than the search, so both
 * threads read. Measurements and the alternatives tried: docs/2026-12-02-search-io.md.
 *
 * In-thread reading (time-sliced) is used with an include filter (a function cannot cross to a
 * worker, and filtered searches read few files), where no worker can start, and by the security
 * tests (its beforeOpen hook swaps folders mid-walk).
 */

// One batch: enough files that a message per batch costs little next to reading them (~20 µs a
// file), few enough that the search starts early and the reading stays balanced between the
// threads. The byte bound is the worker's slab size.
export const BATCH_BYTES = 256 * 1024;
const BATCH_FILES = 96;
// The main thread yields to the event loop at least this often: IPC and the Stop button stay
// responsive in the desktop app (a frame is 16 ms).
const SLICE_MS = 4;
// Smoothing of the measured search cost per file (weight of the newest batch).
const SMOOTHING = 0.3;

export interface ReadTreeSettings {
  /** .gitignore matching ignores case (Windows, macOS), as in walk. */
  readonly ignoreCase: boolean;
  /** The host's read limit; windows are capped at it. */
  readonly maxReadBytes: number;
}

/** How the folder is read: tests choose; FileAccess.readTree always uses the default. */
export interface ReadTreeRuntime {
  /** 'worker' (default) or 'in-thread' (time-sliced on this thread). */
  readonly mode?: 'worker' | 'in-thread';
  /** In-thread only: called before each file is opened (security tests). */
  readonly beforeOpen?: (path: string) => void;
  readonly pool?: TreeReaderPool;
  /** Worker mode: whether this thread reads a share of the files (default true). */
  readonly share?: boolean;
  /** Worker mode: receives the job (tests watch how far the worker got). */
  readonly onJob?: (job: TreeJob) => void;
  /** Open relative to open folders where native/tree-io works (default true); false: by path, each file proven. */
  readonly openat?: boolean;
  /** Worker mode: called on this thread before each delegated file is read (security tests). */
  readonly beforeDelegatedRead?: (path: string) => void;
}

function assertWindow(windowBytes: number): void {
  if (!Number.isSafeInteger(windowBytes) || windowBytes <= 0) {
    throw new RangeError(`readTree: windowBytes must be a positive integer, got ${String(windowBytes)}`);
  }
}

export async function* readTreeConfined(
  confiner: Confiner,
  given: string,
  options: ReadTreeOptions,
  settings: ReadTreeSettings,
  runtime: ReadTreeRuntime = {},
): AsyncGenerator<TreeFile> {
  assertWindow(options.windowBytes);
  const windowBytes = Math.min(options.windowBytes, settings.maxReadBytes);
  const maxFiles = options.maxFiles ?? Number.POSITIVE_INFINITY;
  const start = await confiner.target(given);
  const startStat = await lstatOrNull(start.path, given);
  if (startStat === null) throw fileError('NOT_FOUND', given);
  if (startStat.isFile()) {
    // A file named explicitly is read whatever the ignore rules (and the include filter, which is
    // for what a folder holds) say, as walk yields it.
    if (maxFiles > 0) yield await readStartFile(confiner, start.path, given, windowBytes, settings.maxReadBytes);
    return;
  }
  if (!startStat.isDirectory()) throw fileError('NOT_DIRECTORY', given);
  if (maxFiles <= 0 || options.signal?.aborted === true) return;

  const readerOptions: TreeReaderOptions = {
    respectIgnoreFiles: options.respectIgnoreFiles ?? true,
    includeHidden: options.includeHidden ?? false,
    maxFiles,
    windowBytes,
    ignoreCase: settings.ignoreCase,
    ...(runtime.openat === false ? { openat: false } : {}),
  };
  const signal = options.signal;
  const inThread = (hooks: TreeReaderHooks = {}): AsyncGenerator<TreeFile> =>
    readInThread(new TreeReader(confiner, start.path, readerOptions, hooks), windowBytes, signal);
  try {
    const include = options.include;
    if (runtime.mode === 'in-thread' || include !== undefined || runtime.beforeOpen !== undefined) {
      const hooks: TreeReaderHooks = {};
      if (include !== undefined) hooks.accept = include;
      if (runtime.beforeOpen !== undefined) hooks.beforeOpen = runtime.beforeOpen;
      yield* inThread(hooks);
      return;
    }
    const limits: BatchLimits = { bytes: BATCH_BYTES, files: BATCH_FILES };
    const share = runtime.share ?? true;
    const started = (runtime.pool ?? treeReaderPool).start({ confiner: confiner.snapshot(), start: start.path, options: readerOptions, limits, share });
    if (started === null) {
      yield* inThread();
      return;
    }
    runtime.onJob?.(started.job);
    // The batches are consumed here rather than in a nested generator: each file then passes one
    // generator, not two (~1.5 ms per 6,000 files).
    const { job, thread } = started;
    const consumer = new WorkerConsumer(job, thread, confiner, windowBytes, options.reuseBuffers === true, runtime);
    // A flag set by the listener, not signal.aborted per file: that getter cost ~2 ms per 6,000 files.
    let aborted = false;
    const onAbort = (): void => {
      aborted = true;
      consumer.stop();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let received = false;
    let unavailable = false;
    let lastTurn = performance.now();
    try {
      for (;;) {
        let batch: Batch | null;
        try {
          batch = await job.take();
        } catch (e) {
          // The worker could not even start (its file missing from a broken install, say): read
          // on this thread instead, from the beginning, since nothing was handed out yet.
          if (!(e instanceof WorkerUnavailable) || received) throw e;
          unavailable = true;
          break;
        }
        if (batch === null) break;
        received = true;
        // The cost counted for the split runs from here to the next take(): reading the delegated
        // files, the search of each file, giving buffers back and serving the event loop.
        const started = performance.now();
        const files = consumer.filesOf(batch);
        for (const file of files) {
          if (aborted) return;
          yield file;
        }
        consumer.done(batch);
        if (performance.now() - lastTurn >= SLICE_MS) {
          await nextTurn();
          lastTurn = performance.now();
        }
        consumer.reportCost(files.length, performance.now() - started);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      consumer.stop(); // a no-op after the end; otherwise the consumer left early (cap, error)
    }
    if (unavailable) yield* inThread();
  } catch (e) {
    // An OS error on a folder (EIO, EMFILE …), about the path as given; anything else is a bug.
    throw isErrno(e) ? fromOsError(e, given) : e;
  }
}

async function readStartFile(confiner: Confiner, realPath: string, given: string, windowBytes: number, cap: number): Promise<TreeFile> {
  try {
    const { bytes, size } = await readCheckedSized(realPath, confiner, given, { maxBytes: windowBytes }, cap);
    return readFile(realPath, size, bytes, windowBytes);
  } catch (e) {
    return { ok: false, path: realPath, code: fromOsError(e, given).code };
  }
}

/** Exponential smoothing of a per-file cost; -1: nothing measured yet. */
function smoothed(previous: number, latest: number): number {
  return previous < 0 ? latest : previous + SMOOTHING * (latest - previous);
}

function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** The TreeReader on this thread, in slices of SLICE_MS with the event loop served in between. */
async function* readInThread(reader: TreeReader, windowBytes: number, signal: AbortSignal | undefined): AsyncGenerator<TreeFile> {
  const stop = (): boolean => signal?.aborted === true;
  try {
    for (;;) {
      const batch = reader.nextBatch({ bytes: BATCH_BYTES, files: BATCH_FILES, deadline: performance.now() + SLICE_MS }, stop);
      if (batch === null) return;
      for (const item of batchItems(batch)) {
        // No delegation in-thread: every item is read or failed.
        if (item.kind === 'failed') yield { ok: false, path: item.path, code: item.code };
        else if (item.kind === 'read') yield fileOf(item.path, item.size, batch.buffers[item.buffer] as ArrayBuffer, item.offset, item.length, windowBytes);
      }
      await nextTurn();
    }
  } finally {
    // The consumer may leave early (maxFiles, an error of its own): the open folders go with it.
    reader.close();
  }
}

function fileOf(path: string, size: number, buffer: ArrayBuffer, offset: number, length: number, windowBytes: number): TreeFile {
  // A Buffer view (a Uint8Array to the consumer): the search needs one for native indexOf and
  // would otherwise wrap every file a second time (~2 ms per 6,000 files).
  return readFile(path, size, Buffer.from(buffer, offset, length), windowBytes);
}

function readFile(path: string, size: number, bytes: Uint8Array, windowBytes: number): TreeFile {
  return new ReadTreeFile(path, size, bytes, size <= windowBytes);
}

/** A file that was read. A class, not a literal with a getter: one allocation per file, not three. */
class ReadTreeFile {
  readonly ok = true;
  private checkedUtf8: boolean | undefined;
  private checkedAscii: boolean | undefined;

  constructor(
    readonly path: string,
    readonly size: number,
    readonly bytes: Uint8Array,
    readonly complete: boolean,
  ) {}

  /** Computed on first use: a search asks only about files with a non-ASCII match. */
  get utf8(): boolean {
    return (this.checkedUtf8 ??= isUtf8(this.bytes));
  }

  /** Computed on first use: a search asks only when it looks for non-ASCII bytes. */
  get ascii(): boolean {
    return (this.checkedAscii ??= isAscii(this.bytes));
  }
}

/**
 * This thread's end of a worker job: turns a batch into files (reading the delegated ones here),
 * gives slabs back once the consumer has moved past them, tells the worker what the search costs,
 * and stops the worker when the consumer leaves early or the signal aborts.
 */
class WorkerConsumer {
  /** This thread's own slabs for delegated files; reused like the worker's. */
  private readonly spare: Uint8Array<ArrayBuffer>[] = [];
  private own: OwnSlabs | null = null;
  /** Reading done here during the current batch (ms, files), and the smoothed costs per file of both. */
  private readMs = 0;
  private reads = 0;
  private consumeMs = -1;
  private readCostMs = -1;
  /** Delegated files are read relative to their folder, opened here (tree-io); null: by path. */
  private readonly folders: FolderOpener | null;
  /** The folders opened for the current batch's delegated files, by path, with the files read from each. */
  private readonly opened = new Map<string, { readonly fd: number; readonly files: number[] }>();

  constructor(
    private readonly job: TreeJob,
    private readonly thread: ReaderThread,
    private readonly confiner: Confiner,
    private readonly windowBytes: number,
    /** The consumer agreed that a batch's bytes may be reused once it moves past the batch. */
    private readonly reuse: boolean,
    private readonly runtime: ReadTreeRuntime,
  ) {
    const io = runtime.openat === false ? null : treeIo();
    this.folders = io === null ? null : new FolderOpener(io);
  }

  /** The batch's files, in order; delegated files are read now (gone ones left out). */
  filesOf(batch: Batch): TreeFile[] {
    const own = new OwnSlabs(this.reuse ? this.spare : []);
    this.own = own;
    const files: TreeFile[] = [];
    try {
      for (const item of batchItems(batch)) {
        const file = this.fileOf(item, batch, own, files.length);
        if (file !== null) files.push(file);
      }
      this.proveFolders(files);
    } finally {
      this.closeFolders();
    }
    return files;
  }

  /**
   * As the worker does for its batches (TreeReader): the files read relative to a folder opened
   * here are handed out only if the folder is still where it was proven, else refused and wiped.
   */
  private proveFolders(files: TreeFile[]): void {
    const folders = this.folders;
    if (folders === null) return;
    for (const [path, folder] of this.opened) {
      const refusal = folders.proveAgain(folder.fd, path, this.confiner);
      if (refusal === null) continue;
      for (const index of folder.files) {
        const file = files[index] as TreeFile;
        if (file.ok) file.bytes.fill(0);
        files[index] = { ok: false, path: file.path, code: refusal };
      }
    }
  }

  private closeFolders(): void {
    for (const { fd } of this.opened.values()) this.folders?.close(fd);
    this.opened.clear();
  }

  /** A delegated file, relative to its folder opened here where tree-io works, else by path with the per-file proof. */
  private readDelegated(path: string, own: OwnSlabs, index: number): ReadOutcome {
    this.runtime.beforeDelegatedRead?.(path);
    const place = (length: number): Slot => own.place(length);
    const slash = path.lastIndexOf('/');
    const folders = this.folders;
    // A path that came over from the worker is held to the roots and the protected paths here too
    // (readOneSync refuses it with the right code), as readOneSync holds every path it is given.
    const plain = slash > 0 && this.confiner.isInsideRoots(path) && !this.confiner.isProtected(path);
    if (folders === null || !plain) return readOneSync(path, this.confiner, this.windowBytes, place);
    const dir = path.slice(0, slash);
    let folder = this.opened.get(dir);
    if (folder === undefined) {
      const fd = folders.openByPath(dir);
      if (fd === null) return readOneSync(path, this.confiner, this.windowBytes, place);
      folder = { fd, files: [] };
      this.opened.set(dir, folder);
    }
    const outcome = readAtSync(folders.io, folder.fd, path.slice(slash + 1), path, this.windowBytes, place);
    if (outcome.kind === 'read') folder.files.push(index);
    return outcome;
  }

  /** The consumer has asked for what follows the batch: it is done with the batch's bytes. */
  done(batch: Batch): void {
    if (!this.reuse) return;
    this.thread.give(batch.buffers.filter((b) => b.byteLength === BATCH_BYTES));
    this.own?.release();
  }

  /** What this thread spends per file besides reading (the search), and per file it reads, for the worker's split. */
  reportCost(files: number, batchMs: number): void {
    if (files === 0) return;
    const perFile = Math.max(0, batchMs - this.readMs) / files;
    this.consumeMs = smoothed(this.consumeMs, perFile);
    Atomics.store(this.job.control, CONSUME_NS, Math.max(1, Math.round(this.consumeMs * 1e6)));
    if (this.reads > 0) {
      this.readCostMs = smoothed(this.readCostMs, this.readMs / this.reads);
      Atomics.store(this.job.control, MAIN_READ_NS, Math.max(1, Math.round(this.readCostMs * 1e6)));
    }
    this.readMs = 0;
    this.reads = 0;
  }

  stop(): void {
    if (this.job.isOver) return;
    this.job.cancel();
    this.thread.watchCancel();
  }

  /** The file of one item; `index`: where it will lie among the batch's files. */
  private fileOf(item: BatchItem, batch: Batch, own: OwnSlabs, index: number): TreeFile | null {
    switch (item.kind) {
      case 'read':
        return fileOf(item.path, item.size, batch.buffers[item.buffer] as ArrayBuffer, item.offset, item.length, this.windowBytes);
      case 'failed':
        return { ok: false, path: item.path, code: item.code };
      case 'delegated': {
        const started = performance.now();
        const outcome = this.readDelegated(item.path, own, index);
        this.readMs += performance.now() - started;
        this.reads++;
        if (outcome.kind === 'skipped') return null;
        if (outcome.kind === 'failed') return { ok: false, path: item.path, code: outcome.code };
        const { view, offset } = outcome.slot;
        return fileOf(item.path, outcome.size, view.buffer, offset, outcome.length, this.windowBytes);
      }
      default:
        return assertNever(item);
    }
  }
}

/** Places the delegated files of one batch in reused slabs (a window too big for one gets its own buffer). */
class OwnSlabs {
  private readonly used: Uint8Array<ArrayBuffer>[] = [];
  private current: Uint8Array<ArrayBuffer> | null = null;
  private filled = 0;

  constructor(private readonly spare: Uint8Array<ArrayBuffer>[]) {}

  place(length: number): Slot {
    if (length > BATCH_BYTES) return { buffer: 0, view: new Uint8Array(length), offset: 0 };
    if (this.current === null || length > BATCH_BYTES - this.filled) {
      this.current = this.spare.pop() ?? new Uint8Array(BATCH_BYTES);
      this.used.push(this.current);
      this.filled = 0;
    }
    const slot = { buffer: 0, view: this.current, offset: this.filled };
    this.filled += length;
    return slot;
  }

  release(): void {
    this.spare.push(...this.used);
  }
}
