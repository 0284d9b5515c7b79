import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { CHANGES, claimPart, controlArray, DONE, ON_MAIN, OPEN, CLAIMED, STATUS, stopAfter, toWire, type VerifyJob, type WorkerReport } from './verify-protocol';
import { checkChunk, SegmentReaders, stitch, type ChunkOutcome, type LedgerPlan } from './verify-segments';
import type { LedgerVerdict, VerifyOptions } from './verify-rows';

/**
 * verifyLedger on several threads: the ledger's parts (verify-segments.ts planLedger) are claimed
 * from a shared counter by the main thread and `workers` worker threads alike, each part checked on
 * its own (checkChunk), and the main thread stitches the outcomes in seq order with the rules of
 * the single-threaded path (stitch). verifyLedger is synchronous, so the main thread checks parts
 * itself while the workers start (a worker from the TypeScript sources takes ~0.4 s to load tsx)
 * and waits for the rest with Atomics.wait.
 */

/** A worker that finished nothing for this long is presumed dead; the main thread checks its parts. */
const STALL_MS = 20_000;
const WAIT_SLICE_MS = 200;

/** The worker's entry: the compiled bundle, or the tsx shim beside the TypeScript sources. */
function workerEntry(): URL {
  // Both names are held in variables: a bundler treats `new URL('literal', import.meta.url)` as an
  // asset to copy, and the shim must never be copied into the bundle. electron.vite.config.ts
  // builds verify-worker.ts as its own entry beside out/main/index.js.
  const fromSources = import.meta.url.endsWith('.ts');
  return new URL(fromSources ? SOURCE_ENTRY : BUNDLED_ENTRY, import.meta.url);
}
const SOURCE_ENTRY = './verify-worker.mjs';
const BUNDLED_ENTRY = './audit-verify-worker.js';

export interface ParallelRun {
  /** Worker threads to start besides the calling one. */
  readonly workers: number;
  /** false: the calling thread only stitches, every part is checked by a worker (tests). */
  readonly mainThreadChecks: boolean;
  /** Told how the parts were shared out (tests). */
  readonly report?: (shares: { readonly byWorkers: number; readonly byMainThread: number }) => void;
}

export function verifyInParallel(plan: LedgerPlan, options: VerifyOptions, run: ParallelRun): LedgerVerdict {
  const parts = plan.chunks.length;
  const control = controlArray(parts);
  const wire = toWire(options);
  // One channel per worker: a port can be handed to one thread only.
  const inboxes: MessagePort[] = [];
  const threads: Worker[] = [];
  for (let i = 0; i < run.workers; i++) {
    const { port1, port2 } = new MessageChannel();
    const thread = startWorker({ plan, options: wire, control: control.buffer as SharedArrayBuffer, outcomes: port2 });
    if (thread) {
      threads.push(thread);
      inboxes.push(port1);
    } else {
      port1.close();
      port2.close();
    }
  }
  // Each worker got its own copy of the key (cloned by the Worker constructor): this one is done.
  wire.key?.key.fill(0);
  const readers = new SegmentReaders(plan.batchSeqs);
  try {
    const results = new Map<number, ChunkOutcome | Error>();
    const checkHere = (index: number): void => {
      const chunk = plan.chunks[index];
      const segment = chunk ? plan.segments[chunk.segment] : undefined;
      if (!chunk || !segment) return;
      try {
        const outcome = checkChunk(readers, segment, chunk, options);
        results.set(index, outcome);
        if (!outcome.empty && outcome.tally.failure) stopAfter(control, index);
      } catch (error) {
        results.set(index, error instanceof Error ? error : new Error(String(error)));
      }
    };
    // Without a worker (none could start) the calling thread checks everything, whatever was asked.
    if (run.mainThreadChecks || threads.length === 0) {
      for (let index = claimPart(control, parts, ON_MAIN); index >= 0; index = claimPart(control, parts, ON_MAIN)) checkHere(index);
    }
    awaitWorkers(control, parts, checkHere);
    const byMainThread = results.size;
    for (const inbox of inboxes) {
      for (let report = receiveMessageOnPort(inbox); report; report = receiveMessageOnPort(inbox)) {
        const { outcome } = report.message as WorkerReport;
        // An outcome counts only for a part the worker finished as its own (not one taken over).
        if (Atomics.load(control, STATUS + outcome.index) === DONE) results.set(outcome.index, outcome);
      }
    }
    run.report?.({ byWorkers: results.size - byMainThread, byMainThread });
    return stitch(plan, options, (index) => {
      const result = results.get(index);
      if (result instanceof Error) throw result;
      if (result) return result;
      // A part a worker could not check (its error is re-raised here, as the single-threaded path
      // would raise it), or whose outcome never arrived.
      checkHere(index);
      const again = results.get(index);
      if (again instanceof Error) throw again;
      if (!again) throw new Error(`verify: part ${index} of the ledger was not checked`);
      return again;
    });
  } finally {
    readers.close();
    for (const inbox of inboxes) inbox.close();
    for (const thread of threads) void thread.terminate();
  }
}

/** Waits until every part is done; takes over the parts of a worker that stopped finishing any. */
function awaitWorkers(control: Int32Array, parts: number, checkHere: (index: number) => void): void {
  let seen = Atomics.load(control, CHANGES);
  let quietSince = performance.now();
  for (;;) {
    let pending = false;
    for (let index = 0; index < parts && !pending; index++) {
      const status = Atomics.load(control, STATUS + index);
      pending = status !== DONE && status !== ON_MAIN;
    }
    if (!pending) return;
    Atomics.wait(control, CHANGES, seen, WAIT_SLICE_MS);
    const now = Atomics.load(control, CHANGES);
    if (now !== seen) {
      seen = now;
      quietSince = performance.now();
      continue;
    }
    if (performance.now() - quietSince < STALL_MS) continue;
    for (let index = 0; index < parts; index++) {
      for (const from of [OPEN, CLAIMED]) {
        if (Atomics.compareExchange(control, STATUS + index, from, ON_MAIN) === from) checkHere(index);
      }
    }
    quietSince = performance.now();
  }
}

/**
 * One worker; undefined when none can start here. A worker that fails later (its module cannot
 * load, say) simply claims nothing: the main thread checks every part itself.
 */
function startWorker(job: VerifyJob): Worker | undefined {
  try {
    // No inherited execArgv: under `tsx` it would load tsx's loader a second time (the shim
    // registers its own), and nothing else the parent was started with concerns verification.
    const worker = new Worker(workerEntry(), { workerData: job, transferList: [job.outcomes], execArgv: [] });
    // The error of a worker that failed reaches this (unblocked) thread only after the verdict;
    // it changed nothing, as the main thread checked the parts that worker never claimed.
    worker.on('error', () => undefined);
    worker.unref();
    return worker;
  } catch {
    return undefined;
  }
}
