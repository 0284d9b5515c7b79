import type { ReadTreeOptions, TreeFile, TreeScanner } from '../../../common/file-access';
import type { Confiner } from './confine';
import { lstatOrNull } from './entries';
import { fileError, fromOsError, isErrno } from './errors';
import { readCheckedSized } from './read';
import { readOneSync, TreeReader, type ReadOutcome, type TreeReaderHooks, type TreeReaderOptions } from './tree-reader';
import { OWN_BUFFER } from './read-outcome';
import { fileOf, readTreeFile, type ReadTreeFile } from './tree-file';
import { treeIo } from './tree-io';
import { FolderOpener } from './tree-reader-openat';
import { Claims, PartReader, partCount, partItem, PlanFiles, Slabs, type PackedPart, type Plan } from './tree-reader-plan';
import { SLAB_BYTES } from './tree-reader-protocol';
import { findingsOf, scannedOf, treeScanner } from './tree-scan';
import { treeReaderPool, WorkerUnavailable, type ReaderThread, type TreeJob, type TreeReaderPool } from './tree-reader-pool';

/**
 * FileAccess.readTree: the start path gets the full check here (Confiner.target, as walk and
 * readBytes do); the folder below it is walked by a TreeReader on a worker thread, which posts the
 * files in plans; both threads read a plan's files, the worker from the front and this thread
 * (between searches) from the back, whoever gets to a file first (tree-reader-plan.ts): on two
 * cores one reader thread is slower than the search. Measurements and the alternatives tried:
 * docs/2026-12-02-search-io.md, docs/2026-12-02-search-work-stealing.md.
 *
 * In-thread reading (time-sliced) is used with an include filter (a function cannot cross to a
 * worker, and filtered searches read few files), where no worker can start, and by the security
 * tests (its beforeOpen hook swaps folders mid-walk).
 */

// One batch or plan: enough files that a message costs little next to reading them (~10 µs a
// file), few enough that the search starts early. The byte bound (in-thread batches) is a slab.
export const BATCH_BYTES = SLAB_BYTES;
const BATCH_FILES = 96;
// Files per plan (the worker's walk-ahead unit). Each plan ends in one meeting of the threads, where
// this thread waits for the worker's part: twice the batch halved those waits (Korean benchmark
// search ~105 → ~95 ms, A/B in alternation); four times was no better.
const PLAN_FILES = 192;
// This thread's reads from the back of one plan end at this many bytes (plus one window); what
// neither thread read is read when handed out (by path, each file proven): bounds the memory held.
const OWN_PART_BYTES = 4 * 1024 * 1024;
// The main thread yields to the event loop at least this often: IPC and the Stop button stay
// responsive in the desktop app (a frame is 16 ms).
const SLICE_MS = 4;

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
  /**
   * Worker mode: who reads the plans' files. 'both' (default): whoever gets there first; tests
   * force one side: 'worker' (this thread reads only what the worker leaves over its byte bound),
   * 'main' (the worker only walks).
   */
  readonly readers?: 'both' | 'worker' | 'main';
  /** Worker mode: receives the job (tests watch how far the worker got). */
  readonly onJob?: (job: TreeJob) => void;
  /** Open relative to open folders where native/tree-io works (default true); false: by path, each file proven. */
  readonly openat?: boolean;
  /** Worker mode: called on this thread before each file of a plan it reads (security tests). */
  readonly beforeMainRead?: (path: string) => void;
  /** Worker mode: JobRequest.pause (security tests). */
  readonly workerPause?: SharedArrayBuffer;
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
    const readers = runtime.readers ?? 'both';
    // Loaded before the job starts: a module that cannot be loaded fails the call, with its reason.
    const scanner = options.scan === undefined ? null : await treeScanner(options.scan);
    const started = (runtime.pool ?? treeReaderPool).start({
      confiner: confiner.snapshot(),
      start: start.path,
      options: readerOptions,
      planFiles: PLAN_FILES,
      workerReads: readers !== 'main',
      ...(options.scan === undefined ? {} : { scan: options.scan }),
      ...(runtime.workerPause === undefined ? {} : { pause: runtime.workerPause }),
    });
    if (started === null) {
      yield* inThread();
      return;
    }
    runtime.onJob?.(started.job);
    // The plans are consumed here rather than in a nested generator: each file then passes one
    // generator, not two (~1.5 ms per 6,000 files).
    const { job, thread } = started;
    const consumer = new WorkerConsumer(job, thread, confiner, windowBytes, options.reuseBuffers === true, runtime, scanner);
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
        let plan: Plan | null;
        try {
          plan = await job.take();
        } catch (e) {
          // The worker could not even start (its file missing from a broken install, say): read
          // on this thread instead, from the beginning, since nothing was handed out yet.
          if (!(e instanceof WorkerUnavailable) || received) throw e;
          unavailable = true;
          break;
        }
        if (plan === null) break;
        received = true;
        const files = await consumer.filesOf(plan);
        if (files === null) break; // the job ended (cancelled) while the worker's part was awaited
        for (const item of files) {
          if (aborted) return;
          // A file neither thread read ahead (over both byte bounds): read now, by path.
          const file = typeof item === 'string' ? consumer.readLate(item) : item;
          if (file !== null) yield file;
        }
        consumer.done();
        if (performance.now() - lastTurn >= SLICE_MS) {
          await nextTurn();
          lastTurn = performance.now();
        }
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
    return readTreeFile(realPath, size, bytes, windowBytes);
  } catch (e) {
    return { ok: false, path: realPath, code: fromOsError(e, given).code };
  }
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
      for (const item of batch) {
        if (item.kind === 'failed') yield { ok: false, path: item.path, code: item.code };
        else yield fileOf(item.path, item.size, item.view.buffer, item.offset, item.length, windowBytes);
      }
      await nextTurn();
    }
  } finally {
    // The consumer may leave early (maxFiles, an error of its own): the open folders go with it.
    reader.close();
  }
}

/** The file for what reading `path` came to; null when it was passed over (gone, a link now). */
function fileOfOutcome(path: string, outcome: ReadOutcome, windowBytes: number): ReadTreeFile | Extract<TreeFile, { readonly ok: false }> | null {
  if (outcome.kind === 'skipped') return null;
  if (outcome.kind === 'failed') return { ok: false, path, code: outcome.code };
  return fileOf(path, outcome.size, outcome.slot.view.buffer, outcome.slot.offset, outcome.length, windowBytes);
}

/**
 * This thread's end of a worker job: reads its part of each plan from the back, joins the worker's
 * part, hands the files out in walk order, gives buffers back once the consumer has moved past
 * them, and stops the worker when the consumer leaves early or the signal aborts.
 */
class WorkerConsumer {
  /** This thread's slabs, reused from plan to plan like the worker's. */
  private readonly spare: Uint8Array<ArrayBuffer>[] = [];
  private slabs: Slabs | null = null;
  private workerPart: PackedPart | null = null;
  /** Reads relative to the worker's open folders where tree-io works; null: by path. */
  private readonly folders: FolderOpener | null;
  private readonly readers: 'both' | 'worker' | 'main';

  constructor(
    private readonly job: TreeJob,
    private readonly thread: ReaderThread,
    private readonly confiner: Confiner,
    private readonly windowBytes: number,
    /** The consumer agreed that a plan's bytes may be reused once it moves past the plan. */
    private readonly reuse: boolean,
    private readonly runtime: ReadTreeRuntime,
    /** ReadTreeOptions.scan, loaded on this thread: run on each file this thread reads of a plan. */
    private readonly scanner: TreeScanner | null,
  ) {
    const io = runtime.openat === false ? null : treeIo();
    this.folders = io === null ? null : new FolderOpener(io);
    this.readers = runtime.readers ?? 'both';
  }

  /**
   * The plan's files in order (a path: read it when handing it out, readLate), or null when the
   * job ended before the worker's part came (cancelled).
   */
  async filesOf(plan: Plan): Promise<(TreeFile | string)[] | null> {
    // Nothing is read after cancel(): the worker may have closed the plan's folders.
    if (this.job.isCancelled) return null;
    const files = new PlanFiles(plan);
    const claims = new Claims(plan.claims);
    const spare = this.reuse ? this.spare : [];
    const slabs = new Slabs(SLAB_BYTES, () => spare.pop() ?? null);
    this.slabs = slabs;
    const own = new PartReader(files, this.folders, this.confiner, this.windowBytes, this.job.reads);
    // The files read here, made once at the read (and scanned then); handed out unless refused since.
    const ownFiles = new Map<number, ReadTreeFile>();
    let worker: PackedPart | null = null;
    if (this.readers === 'worker') {
      // The worker claims from the front until its byte bound; only what it leaves is read here.
      worker = await this.job.part(plan.id);
      if (worker === null) return null;
    } else {
      while (own.bytes < OWN_PART_BYTES) {
        const index = claims.back();
        if (index < 0) break;
        const path = files.paths[index] as string;
        this.runtime.beforeMainRead?.(path);
        const outcome = own.read(index, slabs);
        if (outcome.kind !== 'read') continue;
        const file = fileOf(path, outcome.size, outcome.slot.view.buffer, outcome.slot.offset, outcome.length, this.windowBytes);
        // As on the worker (tree-reader-worker.ts): a claim costs the reading and the scanning.
        if (this.scanner !== null) {
          file.scanned = findingsOf(this.scanner, file);
          if (file.scanned !== undefined) this.job.scanned++;
        }
        ownFiles.set(index, file);
      }
    }
    const [lateFrom, lateTo] = claims.rest();
    own.proveFolders();
    this.job.readDone(plan.id + 1);
    // The claims are settled: the worker's part is [0, frontTaken) and it posted one if that is not empty.
    const taken = claims.frontTaken;
    if (worker === null && taken > 0) {
      worker = await this.job.part(plan.id);
      if (worker === null) return null;
    }
    this.workerPart = worker;
    return this.inOrder(files, worker, taken, own, ownFiles, lateFrom, lateTo);
  }

  /** The files of a plan in walk order: the worker's part [0, taken), then the late ones and this thread's part. */
  private inOrder(files: PlanFiles, worker: PackedPart | null, taken: number, own: PartReader, ownFiles: ReadonlyMap<number, ReadTreeFile>, lateFrom: number, lateTo: number): (TreeFile | string)[] {
    const out: (TreeFile | string)[] = [];
    for (let index = 0; index < files.count; index++) {
      const path = files.paths[index] as string;
      if (index < taken) {
        const item = worker === null || index >= partCount(worker) ? ({ kind: 'failed', code: 'IO' } as const) : partItem(worker, index);
        if (item.kind === 'read') {
          const file = fileOf(path, item.size, item.buffer, item.offset, item.length, this.windowBytes);
          file.scanned = scannedOf(worker?.scans ?? null, index);
          out.push(file);
        } else if (item.kind === 'failed') out.push({ ok: false, path, code: item.code });
      } else if (index >= lateFrom && index < lateTo) {
        out.push(path);
      } else {
        // Still a read after the folders' proof: the file made at the read; else its refusal.
        const outcome = own.outcomes.get(index) ?? { kind: 'failed', code: 'IO' };
        const file = outcome.kind === 'read' ? ownFiles.get(index) : fileOfOutcome(path, outcome, this.windowBytes);
        if (file !== undefined && file !== null) out.push(file);
      }
    }
    return out;
  }

  /** A file neither thread read ahead, read by path with the per-file proof; null when passed over (gone, a link now). */
  readLate(path: string): TreeFile | null {
    this.job.reads.byPath++;
    return fileOfOutcome(path, readOneSync(path, this.confiner, this.windowBytes, OWN_BUFFER), this.windowBytes);
  }

  /** The consumer has asked for what follows the plan: it is done with the plan's bytes. */
  done(): void {
    if (!this.reuse) return;
    if (this.workerPart !== null) this.thread.give(this.workerPart.buffers.filter((b) => b.byteLength === SLAB_BYTES));
    this.workerPart = null;
    for (const slab of this.slabs?.used ?? []) if (slab.length === SLAB_BYTES) this.spare.push(slab);
    this.slabs = null;
  }

  stop(): void {
    if (this.job.isOver) return;
    this.job.cancel();
    this.thread.watchCancel();
  }
}
