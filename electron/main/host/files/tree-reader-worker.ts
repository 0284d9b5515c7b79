import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { Confiner } from './confine';
import { isErrno } from './errors';
import { batchSize, TreeReader } from './tree-reader';
import { CANCELLED, CONSUME_NS, CREDITS, MAIN_READ_NS, MAIN_WAITS, type JobError, type JobRequest, type WorkerReply, type WorkerSetup } from './tree-reader-protocol';

/**
 * Worker-thread entry of FileAccess.readTree: runs one job at a time, synchronously, posting each
 * batch with its buffers transferred (no copy). Between batches it waits for a credit from the
 * main thread (Atomics.wait: the thread has nothing else to do), so only a few batches are ever
 * held ahead of the search that consumes them.
 */

// Wake up now and then even without a notify: a lost wake-up costs at most this long.
const WAIT_MS = 50;
const FIRST_BATCH_FILES = 16;
const RAMP_STEPS = 3;
// The main thread's share of the reading (see Share): where it starts, before anything is
// measured, and its bounds.
const SHARE_START = 0.4;
const SHARE_MAX = 0.9;
// Smoothing of the measured costs (weight of the newest batch).
const SMOOTHING = 0.3;
// The correction for what the cost model misses (message handling, turns of the event loop): moved
// by this much per batch toward whichever thread had to wait, within ±CORRECTION_MAX.
const CORRECTION_STEP = 0.02;
const CORRECTION_MAX = 0.3;

const port = parentPort;
if (port === null) throw new Error('tree-reader-worker.ts runs only as a worker thread');
const { recycle } = workerData as WorkerSetup;

/**
 * How many files the main thread reads itself (as 'delegated' items). On two cores one thread
 * reading alone is the bottleneck while the searching main thread waits; the split is set so that
 * both threads finish together. Per file, this thread spends w walking and r reading what it
 * keeps; the main thread spends s searching (it reports s in CONSUME_NS) and m reading what it is
 * given (MAIN_READ_NS; m ≈ 2r where this thread reads relative to open folders and the main
 * thread by path with the per-file proof). With a share f for the main thread:
 * w + (1 − f)·r = s + f·m, so f = (w + r − s) / (r + m). Measured instead of tuned: a literal
 * search of the benchmark corpus settles near 0.3, an ignoreCase one lower (its search costs more). A first version that nudged f up or down by the
 * main thread's backlog oscillated between 0 and 0.8 every ~30 batches (the backlog answers late).
 */
class Share {
  private fraction = SHARE_START;
  private owed = 0;
  private walkMs = -1;
  private readMs = -1;
  private correction = 0;
  private mainWaits = 0;

  constructor(private readonly control: Int32Array) {}

  delegate(): boolean {
    this.owed += this.fraction;
    if (this.owed < 1) return false;
    this.owed -= 1;
    return true;
  }

  /**
   * After each batch: `files` handed out in `batchMs`, of which `reads` read here in `readMs`;
   * `waited`: this thread ran out of credit before it (the main thread was behind).
   */
  update(files: number, batchMs: number, reads: number, readMs: number, waited: boolean): void {
    if (files === 0) return;
    const mainWaits = Atomics.load(this.control, MAIN_WAITS);
    const mainWaited = mainWaits !== this.mainWaits;
    this.mainWaits = mainWaits;
    if (waited !== mainWaited) this.correction += waited ? -CORRECTION_STEP : CORRECTION_STEP;
    this.correction = Math.min(CORRECTION_MAX, Math.max(-CORRECTION_MAX, this.correction));
    const walk = Math.max(0, batchMs - readMs) / files;
    this.walkMs = this.walkMs < 0 ? walk : this.walkMs + SMOOTHING * (walk - this.walkMs);
    if (reads > 0) {
      const read = readMs / reads;
      this.readMs = this.readMs < 0 ? read : this.readMs + SMOOTHING * (read - this.readMs);
    }
    const consumeNs = Atomics.load(this.control, CONSUME_NS);
    if (this.readMs <= 0 || consumeNs <= 0) return; // nothing measured yet: keep the start value
    const mainReadNs = Atomics.load(this.control, MAIN_READ_NS);
    const mainReadMs = mainReadNs > 0 ? mainReadNs / 1e6 : this.readMs; // until it has read one: as here
    const balanced = (this.walkMs + this.readMs - consumeNs / 1e6) / (this.readMs + mainReadMs);
    this.fraction = Math.min(SHARE_MAX, Math.max(0, balanced + this.correction));
  }
}

function reusedSlab(): Uint8Array<ArrayBuffer> | null {
  const received = receiveMessageOnPort(recycle as MessagePort);
  return received === undefined ? null : new Uint8Array(received.message as ArrayBuffer);
}

function run(request: JobRequest): { readonly error: JobError | null; readonly files: number } {
  const control = new Int32Array(request.control);
  const stop = (): boolean => Atomics.load(control, CANCELLED) !== 0;
  const share = request.share ? new Share(control) : null;
  let files = 0;
  let posts = 0;
  let reader: TreeReader | null = null;
  try {
    reader = new TreeReader(Confiner.fromSnapshot(request.confiner), request.start, request.options, {
      reuseSlab: reusedSlab,
      ...(share === null ? {} : { delegate: () => share.delegate() }),
    });
    for (;;) {
      const waited = Atomics.load(control, CREDITS) <= 0;
      while (Atomics.load(control, CREDITS) <= 0 && !stop()) Atomics.wait(control, CREDITS, 0, WAIT_MS);
      if (stop()) return { error: null, files };
      const started = performance.now();
      const [readsBefore, readMsBefore] = [reader.reads, reader.readMs];
      // The first batches are small, so that the main thread starts searching (and reading its
      // share) at once instead of waiting for a full batch: 16, 32, 64, then the full size.
      const limits = posts < RAMP_STEPS ? { ...request.limits, files: Math.min(request.limits.files, FIRST_BATCH_FILES << posts) } : request.limits;
      posts++;
      const batch = reader.nextBatch(limits, stop);
      if (batch === null) return { error: null, files };
      const size = batchSize(batch);
      share?.update(size, performance.now() - started, reader.reads - readsBefore, reader.readMs - readMsBefore, waited);
      files += size;
      Atomics.sub(control, CREDITS, 1);
      const reply: WorkerReply = { kind: 'batch', job: request.job, batch };
      port?.postMessage(reply, [...batch.buffers, batch.numbers.buffer]);
    }
  } catch (e) {
    return { error: { code: isErrno(e) ? e.code : null, message: e instanceof Error ? e.message : String(e) }, files };
  } finally {
    reader?.close();
  }
}

port.on('message', (request: JobRequest) => {
  const { error, files } = run(request);
  const reply: WorkerReply = { kind: 'end', job: request.job, error, files };
  port.postMessage(reply);
});
