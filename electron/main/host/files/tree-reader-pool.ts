import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { PackedPart, Plan } from './tree-reader-plan';
import { CANCELLED, CONTROL_SLOTS, CREDITS, READ_DONE, type JobError, type JobRequest, type ReadCounts, type WorkerReply, type WorkerSetup } from './tree-reader-protocol';

/**
 * The worker threads behind FileAccess.readTree. A worker is kept between searches: starting one
 * and running a first tiny job took ~50 ms from the desktop bundle (plain Node) and ~300 ms from
 * the TypeScript sources (tsx loads in the new thread), against ~120 ms for a whole search of the
 * 55 MB benchmark corpus. Idle workers are unref'd (they never keep the process alive) and end
 * after IDLE_MS.
 */

// Two searches at once get a worker each; a third reads on the main thread (time-sliced) rather
// than wait: a reader is never blocked behind another search.
const MAX_WORKERS = 2;
const IDLE_MS = 60_000;
// A cancelled job ends within one file; a worker stuck longer (a hung network share) is terminated.
const CANCEL_GRACE_MS = 2_000;
// Plans posted ahead of the search. The worker's part of a plan stops at 4 MiB plus one window
// (8 MiB), so what it reads ahead is bounded by ~48 MiB; typically (192 files of ~10 KiB) ~8 MiB.
const IN_FLIGHT = 4;

/** What a job request carries besides what the pool fills in. */
export type JobSpec = Omit<JobRequest, 'job' | 'control'>;

/** The worker could not be started at all (missing bundle file, loader failure). */
export class WorkerUnavailable extends Error {
  override readonly name = 'WorkerUnavailable';
}

/** The worker's entry: the compiled bundle, or the tsx shim beside the TypeScript sources. */
function workerEntry(): URL {
  // Both names are held in variables: a bundler treats `new URL('literal', import.meta.url)` as an
  // asset to copy, and the shim must never be copied into the bundle. electron.vite.config.ts
  // builds tree-reader-worker.ts as its own entry beside out/main/index.js.
  const fromSources = import.meta.url.endsWith('.ts');
  const file = fromSources ? SOURCE_ENTRY : BUNDLED_ENTRY;
  return new URL(file, import.meta.url);
}
const SOURCE_ENTRY = './tree-reader-worker.mjs';
const BUNDLED_ENTRY = './tree-reader-worker.js';

/** The main thread's end of one job: plans and the worker's parts queue here until the reader takes them. */
export class TreeJob {
  readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  private readonly plans: Plan[] = [];
  private readonly parts = new Map<number, PackedPart>();
  private waiting: { resolve(plan: Plan | null): void; reject(e: Error): void } | null = null;
  private waitingPart: { readonly plan: number; resolve(part: PackedPart | null): void } | null = null;
  private outcome: { readonly error: Error | null } | null = null;
  private cancelled = false;

  constructor(readonly id: number) {
    Atomics.store(this.control, CREDITS, IN_FLIGHT);
  }

  /** Files the worker planned (read by either thread, or failed), once it reported the end. */
  filesHandedOut: number | null = null;
  /** How the files were read, by both threads (the worker's part counted once it reported the end). */
  readonly reads: ReadCounts = { relative: 0, byPath: 0 };
  /** Files scanned where they were read (ReadTreeOptions.scan), by both threads (the worker's counted once it reported the end). */
  scanned = 0;

  /** The next plan, or null at the end (or after cancel). Hands the worker a credit per plan. */
  take(): Promise<Plan | null> {
    const plan = this.plans.shift();
    if (plan !== undefined) {
      this.credit();
      return Promise.resolve(plan);
    }
    if (this.cancelled) return Promise.resolve(null);
    if (this.outcome !== null) return this.outcome.error === null ? Promise.resolve(null) : Promise.reject(this.outcome.error);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** The worker's part of plan `plan` (it posts one whenever it read any of the plan), or null once the job is over without it. */
  part(plan: number): Promise<PackedPart | null> {
    const part = this.parts.get(plan);
    if (part !== undefined) {
      this.parts.delete(plan);
      return Promise.resolve(part);
    }
    if (this.isOver) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waitingPart = { plan, resolve };
    });
  }

  /** This thread reads from none of the first `plans` plans any more: the worker may close their folders. */
  readDone(plans: number): void {
    Atomics.store(this.control, READ_DONE, plans);
    Atomics.notify(this.control, READ_DONE);
  }

  /** Stops the worker within one file; pending and later take()s answer null. This thread reads nothing of the job after it. */
  cancel(): void {
    if (this.cancelled || this.outcome !== null) return;
    this.cancelled = true;
    this.plans.length = 0;
    this.parts.clear();
    Atomics.store(this.control, CANCELLED, 1);
    this.credit(); // wakes a worker waiting for credit, so it sees the flag now
    Atomics.notify(this.control, READ_DONE); // … or one waiting to close folders
    this.settle(null);
    this.settlePart(null);
  }

  get isOver(): boolean {
    return this.cancelled || this.outcome !== null;
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  deliver(plan: Plan): void {
    if (this.cancelled) return;
    if (this.waiting !== null) {
      this.credit();
      this.settle(plan);
    } else {
      this.plans.push(plan);
    }
  }

  deliverPart(plan: number, part: PackedPart): void {
    if (this.cancelled) return;
    if (this.waitingPart?.plan === plan) this.settlePart(part);
    else this.parts.set(plan, part);
  }

  finish(error: Error | null): void {
    if (this.outcome !== null) return;
    this.outcome = { error };
    this.settlePart(null);
    if (this.plans.length > 0 || this.cancelled) return;
    if (error === null) this.settle(null);
    else {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.reject(error);
    }
  }

  private settle(plan: Plan | null): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve(plan);
  }

  private settlePart(part: PackedPart | null): void {
    const waiting = this.waitingPart;
    this.waitingPart = null;
    waiting?.resolve(part);
  }

  private credit(): void {
    // Only a worker that ran out of credit can be waiting; a notify costs a system call (it showed
    // as ~8 ms of a search when made for every batch).
    if (Atomics.add(this.control, CREDITS, 1) <= 0) Atomics.notify(this.control, CREDITS);
  }
}

function jobErrorOf(error: JobError): Error {
  return Object.assign(new Error(error.message), error.code === null ? {} : { code: error.code });
}

export class ReaderThread {
  /** Our end of the slab return channel (see give). */
  private readonly recycle: MessagePort;
  private current: TreeJob | null = null;
  private replied = false;
  private idleTimer: NodeJS.Timeout | null = null;
  private graceTimer: NodeJS.Timeout | null = null;
  private dead = false;

  constructor(
    private readonly pool: TreeReaderPool,
    private readonly worker: Worker,
    recycle: MessagePort,
  ) {
    this.recycle = recycle;
    this.recycle.unref();
    worker.on('message', (reply: WorkerReply) => this.onReply(reply));
    worker.on('error', (e: Error) => this.onDeath(e));
    worker.on('exit', (code: number) => this.onDeath(new Error(`tree reader worker exited with code ${code}`)));
  }

  get busy(): boolean {
    return this.current !== null;
  }

  /**
   * Gives consumed slabs back to the worker, which fills them again instead of allocating: a
   * fresh 256 KiB buffer costs its page faults on first write, ~20 ms per pass over the 55 MB
   * corpus (measured: the reader took 160–200 ms with new slabs, 135–160 ms with reused ones).
   */
  give(buffers: readonly ArrayBuffer[]): void {
    if (this.dead) return;
    for (const buffer of buffers) this.recycle.postMessage(buffer, [buffer]);
  }

  run(job: TreeJob, request: JobSpec): void {
    this.current = job;
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.worker.ref(); // a job in progress keeps the process alive, as any pending read would
    const message: JobRequest = { ...request, job: job.id, control: job.control.buffer as SharedArrayBuffer };
    this.worker.postMessage(message);
  }

  /** The job was cancelled: the worker must answer 'end' within the grace period or be ended. */
  watchCancel(): void {
    if (this.graceTimer !== null || this.current === null) return;
    this.graceTimer = setTimeout(() => void this.terminate(), CANCEL_GRACE_MS);
    this.graceTimer.unref();
  }

  terminate(): Promise<number> {
    this.dead = true;
    this.pool.forget(this);
    this.recycle.close();
    return this.worker.terminate();
  }

  private onReply(reply: WorkerReply): void {
    this.replied = true;
    const job = this.current;
    if (job === null || reply.job !== job.id) return;
    if (reply.kind === 'plan') {
      job.deliver(reply.plan);
      return;
    }
    if (reply.kind === 'part') {
      job.deliverPart(reply.plan, reply.part);
      return;
    }
    job.filesHandedOut = reply.files;
    job.reads.relative += reply.reads.relative;
    job.reads.byPath += reply.reads.byPath;
    job.scanned += reply.scanned;
    job.finish(reply.error === null ? null : jobErrorOf(reply.error));
    this.current = null;
    if (this.graceTimer !== null) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    this.worker.unref();
    this.idleTimer = setTimeout(() => void this.terminate(), IDLE_MS);
    this.idleTimer.unref();
  }

  private onDeath(error: Error): void {
    if (this.dead) return;
    this.dead = true;
    this.pool.forget(this);
    this.recycle.close();
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    if (this.graceTimer !== null) clearTimeout(this.graceTimer);
    const job = this.current;
    this.current = null;
    if (!this.replied) {
      this.pool.disable(error);
      job?.finish(new WorkerUnavailable(error.message));
    } else {
      job?.finish(error);
    }
  }
}

export class TreeReaderPool {
  private readonly threads = new Set<ReaderThread>();
  private readonly entry: URL;
  private nextJob = 1;
  private unavailable: Error | null = null;

  /** `entry`: the worker's module (tests start the bundled one, or a missing one); default workerEntry(). */
  constructor(options: { readonly entry?: URL } = {}) {
    this.entry = options.entry ?? workerEntry();
  }

  /** Starts a job on an idle (or new) worker; null when none is free or workers cannot start here. */
  start(request: JobSpec): { readonly job: TreeJob; readonly thread: ReaderThread } | null {
    if (this.unavailable !== null) return null;
    let thread = [...this.threads].find((t) => !t.busy);
    if (thread === undefined) {
      if (this.threads.size >= MAX_WORKERS) return null;
      const { port1, port2 } = new MessageChannel();
      const setup: WorkerSetup = { recycle: port2 };
      let worker: Worker;
      try {
        // No inherited execArgv: under `tsx` it would load tsx's loader a second time (the shim
        // registers its own), and nothing else the parent was started with concerns reading files.
        worker = new Worker(this.entry, { workerData: setup, transferList: [port2], execArgv: [] });
      } catch (e) {
        port1.close();
        this.disable(e instanceof Error ? e : new Error(String(e)));
        return null;
      }
      thread = new ReaderThread(this, worker, port1);
      this.threads.add(thread);
    }
    const job = new TreeJob(this.nextJob++);
    thread.run(job, request);
    return { job, thread };
  }

  /** Workers alive, busy or idle (tests: one is reused from search to search). */
  get workers(): number {
    return this.threads.size;
  }

  /** Whether a worker is running a job (tests: a cancelled job must free its worker promptly). */
  get busy(): boolean {
    return [...this.threads].some((t) => t.busy);
  }

  /** Whether workers could not start here (readTree then reads on the main thread). */
  get disabled(): boolean {
    return this.unavailable !== null;
  }

  /** Workers cannot start in this process: readTree reads on the main thread from now on. */
  disable(error: Error): void {
    if (this.unavailable !== null) return;
    this.unavailable = error;
    console.warn(`[baram] file reading worker unavailable, reading on the main thread instead: ${error.message}`);
  }

  forget(thread: ReaderThread): void {
    this.threads.delete(thread);
  }

  /** Ends every worker (tests; shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.threads].map((t) => t.terminate()));
  }
}

/** One pool per process: workers are a process resource, whichever FileAccess asks. */
export const treeReaderPool = new TreeReaderPool();
