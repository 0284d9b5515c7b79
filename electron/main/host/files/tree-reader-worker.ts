import type { TreeScanner } from '../../../common/file-access';
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { Confiner } from './confine';
import { isErrno } from './errors';
import { TreeReader } from './tree-reader';
import { FolderOpener } from './tree-reader-openat';
import { Claims, packPart, PartReader, PlanFiles, planOf, Slabs, transferOf } from './tree-reader-plan';
import { CANCELLED, CREDITS, PAUSE_LIMIT_MS, PAUSED, READ_DONE, SLAB_BYTES, type JobError, type JobRequest, type ReadCounts, type WorkerReply, type WorkerSetup } from './tree-reader-protocol';
import { treeIo } from './tree-io';
import { PartScans, treeScanner } from './tree-scan';

/**
 * Worker-thread entry of FileAccess.readTree: runs one job at a time, synchronously. It walks one
 * plan ahead of its reading, posts each plan before reading it (the main thread may start on it
 * from the back at once), reads the plan's files from the front until the threads meet (scanning
 * each one as it is read when the job asks, tree-scan.ts), and posts its part with the buffers
 * transferred (no copy). tree-reader-plan.ts explains the split.
 */

// Wake up now and then even without a notify: a lost wake-up costs at most this long.
const WAIT_MS = 50;
// The first plans are small, so that both threads start reading at once: 16, 32, 64, then full.
const FIRST_PLAN_FILES = 16;
const RAMP_STEPS = 3;
// Plans walked but not yet read by this thread: one, so the main thread can join a plan this
// thread has not reached, and a walk never delays the reading of the plan in hand by more than one.
const WALK_AHEAD = 1;
// This thread's part of one plan ends at this many bytes (plus one window); the main thread reads
// the rest. With the plans in flight (tree-reader-pool.ts) it bounds what is read ahead.
const PART_BYTES = 4 * 1024 * 1024;

const port = parentPort;
if (port === null) throw new Error('tree-reader-worker.ts runs only as a worker thread');
const { recycle } = workerData as WorkerSetup;

function reusedSlab(): Uint8Array<ArrayBuffer> | null {
  const received = receiveMessageOnPort(recycle as MessagePort);
  return received === undefined ? null : new Uint8Array(received.message as ArrayBuffer);
}

/** A plan posted to the main thread whose folders are not closed yet. */
interface Posted {
  readonly files: PlanFiles;
  readonly claims: Claims;
  readonly closeAfter: readonly number[];
  /** This thread has read its part. */
  read: boolean;
}

/** JobRequest.pause: says it stopped, and waits for the test to go on. */
function pauseForTest(pause: Int32Array): void {
  Atomics.store(pause, 1, PAUSED);
  Atomics.notify(pause, 1);
  Atomics.wait(pause, 1, PAUSED, PAUSE_LIMIT_MS);
}

function post(reply: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(reply, transfer);
}

function jobError(e: unknown): JobError {
  return { code: isErrno(e) ? e.code : null, message: e instanceof Error ? e.message : String(e) };
}

/** One job: the walk, the plans posted and not yet released, this thread's reads. */
class Job {
  private readonly control: Int32Array;
  private readonly confiner: Confiner;
  private readonly folders: FolderOpener | null;
  private readonly pause: Int32Array | null;
  /** Posted plans whose folders are still open, oldest first. */
  private readonly posted: Posted[] = [];
  /** Posted plans this thread has not read its part of yet. */
  private readonly unread: Posted[] = [];
  private reader: TreeReader | null = null;
  private nextId = 0;
  private readHere = 0;
  files = 0;
  readonly reads: ReadCounts = { relative: 0, byPath: 0 };
  /** Files scanned (ReadTreeOptions.scan). */
  scanned = 0;
  error: JobError | null = null;

  constructor(
    private readonly request: JobRequest,
    private readonly scanner: TreeScanner | null,
  ) {
    this.control = new Int32Array(request.control);
    this.confiner = Confiner.fromSnapshot(request.confiner);
    const io = request.options.openat === false ? null : treeIo();
    this.folders = io === null ? null : new FolderOpener(io);
    this.pause = request.pause === undefined ? null : new Int32Array(request.pause);
  }

  private readonly stop = (): boolean => Atomics.load(this.control, CANCELLED) !== 0;

  run(): void {
    try {
      const reader = new TreeReader(this.confiner, this.request.start, this.request.options);
      this.reader = reader;
      let walkOver = false;
      while (!this.stop()) {
        this.release();
        if (!walkOver && this.unread.length <= WALK_AHEAD && Atomics.load(this.control, CREDITS) > 0) {
          walkOver = !this.walkNext(reader);
          continue;
        }
        const next = this.unread.shift();
        if (next !== undefined) this.readPart(next);
        else if (walkOver) break;
        else Atomics.wait(this.control, CREDITS, 0, WAIT_MS);
      }
    } catch (e) {
      this.error = jobError(e);
    } finally {
      // A folder is closed only once the main thread reads from none of the plans listing its
      // files: a closed descriptor's number could be reused by the next open under a reader.
      for (this.release(); this.posted.length > 0 && !this.stop(); this.release()) {
        Atomics.wait(this.control, READ_DONE, Atomics.load(this.control, READ_DONE), WAIT_MS);
      }
      for (const plan of this.posted.splice(0)) this.reader?.closeFolders(plan.closeAfter);
      this.reader?.close();
    }
  }

  /** Walks and posts the next plan; false at the end of the walk (or after an error, which ends the job once the plans posted are read). */
  private walkNext(reader: TreeReader): boolean {
    const id = this.nextId;
    const limit = id < RAMP_STEPS ? Math.min(this.request.planFiles, FIRST_PLAN_FILES << id) : this.request.planFiles;
    let walked;
    try {
      walked = reader.nextPlan(limit, this.stop);
    } catch (e) {
      this.error = jobError(e);
      return false;
    }
    if (walked === null) return false;
    const plan = planOf(id, walked);
    this.nextId++;
    this.files += walked.paths.length;
    Atomics.sub(this.control, CREDITS, 1);
    // Copied, not transferred: this thread reads from the plan too.
    post({ kind: 'plan', job: this.request.job, plan });
    const entry: Posted = { files: new PlanFiles(plan), claims: new Claims(plan.claims), closeAfter: walked.closeAfter, read: false };
    this.posted.push(entry);
    this.unread.push(entry);
    return true;
  }

  /** Claims and reads from the front of the plan, proves its folders, and posts the part. */
  private readPart(plan: Posted): void {
    plan.read = true;
    const slabs = new Slabs(SLAB_BYTES, reusedSlab);
    const windowBytes = this.request.options.windowBytes;
    const part = new PartReader(plan.files, this.folders, this.confiner, windowBytes, this.reads);
    const scans = this.scanner === null ? null : new PartScans(this.scanner, plan.files.count);
    let taken = 0;
    while (this.request.workerReads && part.bytes < PART_BYTES && !this.stop()) {
      const index = plan.claims.front();
      if (index < 0) break;
      const outcome = part.read(index, slabs);
      // Scanned while its bytes are fresh in the cache, and so that what this thread claims costs
      // what reading and scanning cost: the claims then share the search, not only the reading.
      scans?.scanRead(index, plan.files.paths[index] as string, outcome, windowBytes);
      taken++;
      if (this.pause !== null && ++this.readHere === this.pause[0]) pauseForTest(this.pause);
    }
    // Nothing claimed: the main thread read the whole plan and waits for no part.
    if (taken === 0) return;
    part.proveFolders();
    const packed = packPart(part.outcomes, taken, scans?.pack(part.outcomes, taken) ?? null);
    this.scanned += scans?.scannedFiles ?? 0;
    post({ kind: 'part', job: this.request.job, plan: plan.files.plan.id, part: packed }, transferOf(packed));
  }

  /** Closes the folders of the oldest plans the main thread no longer reads from (it is done with them, or the plan was read whole here). */
  private release(): void {
    const done = Atomics.load(this.control, READ_DONE);
    for (let head = this.posted[0]; head !== undefined; head = this.posted[0]) {
      if (head.files.plan.id >= done && !(head.read && head.claims.frontTaken === head.files.count)) return;
      this.reader?.closeFolders(head.closeAfter);
      this.posted.shift();
    }
  }
}

async function runJob(request: JobRequest): Promise<void> {
  let scanner: TreeScanner | null = null;
  try {
    if (request.scan !== undefined) scanner = await treeScanner(request.scan);
  } catch (e) {
    // Loaded on the main thread before the job started, so this is unexpected: the job fails.
    post({ kind: 'end', job: request.job, error: jobError(e), files: 0, reads: { relative: 0, byPath: 0 }, scanned: 0 });
    return;
  }
  const job = new Job(request, scanner);
  job.run();
  post({ kind: 'end', job: request.job, error: job.error, files: job.files, reads: job.reads, scanned: job.scanned });
}

// One job at a time: loading a scan module is asynchronous, so jobs queue behind each other.
let jobs = Promise.resolve();
port.on('message', (request: JobRequest) => {
  // An unexpected throw still ends the worker (the pool then fails the job), as it did before jobs queued.
  jobs = jobs
    .then(() => runJob(request))
    .catch((e: unknown) => {
      setImmediate(() => {
        throw e;
      });
    });
});
