import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { Confiner } from './confine';
import { isErrno } from './errors';
import { TreeReader } from './tree-reader';
import { FolderOpener } from './tree-reader-openat';
import { Claims, packPart, PartReader, PlanFiles, planOf, Slabs } from './tree-reader-plan';
import { CANCELLED, CREDITS, PAUSE_LIMIT_MS, PAUSED, READ_DONE, SLAB_BYTES, type JobError, type JobRequest, type ReadCounts, type WorkerReply, type WorkerSetup } from './tree-reader-protocol';
import { treeIo } from './tree-io';

/**
 * Worker-thread entry of FileAccess.readTree: runs one job at a time, synchronously. It walks one
 * plan ahead of its reading, posts each plan before reading it (the main thread may start on it
 * from the back at once), reads the plan's files from the front until the threads meet, and posts
 * its part with the buffers transferred (no copy). tree-reader-plan.ts explains the split.
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

function run(request: JobRequest): { readonly error: JobError | null; readonly files: number; readonly reads: ReadCounts } {
  const control = new Int32Array(request.control);
  const stop = (): boolean => Atomics.load(control, CANCELLED) !== 0;
  const confiner = Confiner.fromSnapshot(request.confiner);
  const io = request.options.openat === false ? null : treeIo();
  const folders = io === null ? null : new FolderOpener(io);
  const posted: Posted[] = [];
  const unread: Posted[] = [];
  let files = 0;
  const pause = request.pause === undefined ? null : new Int32Array(request.pause);
  let readHere = 0;
  const reads: ReadCounts = { relative: 0, byPath: 0 };
  let error: JobError | null = null;
  let reader: TreeReader | null = null;

  /** Closes the folders of the oldest plans the main thread no longer reads from (it is done, or the plan was read whole here). */
  const release = (): void => {
    const done = Atomics.load(control, READ_DONE);
    for (let head = posted[0]; head !== undefined; head = posted[0]) {
      const id = head.files.plan.id;
      if (id >= done && !(head.read && head.claims.frontTaken === head.files.count)) return;
      reader?.closeFolders(head.closeAfter);
      posted.shift();
    }
  };

  const readPart = (plan: Posted): void => {
    plan.read = true;
    const slabs = new Slabs(SLAB_BYTES, reusedSlab);
    const part = new PartReader(plan.files, folders, confiner, request.options.windowBytes, reads);
    let taken = 0;
    while (request.workerReads && part.bytes < PART_BYTES && !stop()) {
      const index = plan.claims.front();
      if (index < 0) break;
      part.read(index, slabs);
      taken++;
      if (pause !== null && ++readHere === pause[0]) pauseForTest(pause);
    }
    // Nothing claimed: the main thread read the whole plan and waits for no part.
    if (taken === 0) return;
    part.proveFolders();
    const packed = packPart(part.outcomes, taken, []);
    post({ kind: 'part', job: request.job, plan: plan.files.plan.id, part: packed }, [...packed.buffers, packed.numbers.buffer]);
  };

  try {
    reader = new TreeReader(confiner, request.start, request.options);
    let walkOver = false;
    let id = 0;
    while (!stop()) {
      release();
      if (!walkOver && unread.length <= WALK_AHEAD && Atomics.load(control, CREDITS) > 0) {
        const limit = id < RAMP_STEPS ? Math.min(request.planFiles, FIRST_PLAN_FILES << id) : request.planFiles;
        let walked = null;
        try {
          walked = reader.nextPlan(limit, stop);
        } catch (e) {
          // The plans posted so far are still read; the error ends the job after them.
          error = jobError(e);
        }
        if (walked === null) {
          walkOver = true;
          continue;
        }
        const plan = planOf(id++, walked);
        files += walked.paths.length;
        Atomics.sub(control, CREDITS, 1);
        // Copied, not transferred: this thread reads from the plan too.
        post({ kind: 'plan', job: request.job, plan });
        const entry: Posted = { files: new PlanFiles(plan), claims: new Claims(plan.claims), closeAfter: walked.closeAfter, read: false };
        posted.push(entry);
        unread.push(entry);
        continue;
      }
      const next = unread.shift();
      if (next !== undefined) readPart(next);
      else if (walkOver) break;
      else Atomics.wait(control, CREDITS, 0, WAIT_MS);
    }
  } catch (e) {
    error = jobError(e);
  } finally {
    // A folder is closed only once the main thread reads from none of the plans listing its files:
    // a closed descriptor's number could be reused by the next open under a reader.
    for (release(); posted.length > 0 && !stop(); release()) {
      Atomics.wait(control, READ_DONE, Atomics.load(control, READ_DONE), WAIT_MS);
    }
    for (const plan of posted.splice(0)) reader?.closeFolders(plan.closeAfter);
    reader?.close();
  }
  return { error, files, reads };
}

port.on('message', (request: JobRequest) => {
  const { error, files, reads } = run(request);
  const reply: WorkerReply = { kind: 'end', job: request.job, error, files, reads };
  port.postMessage(reply);
});
