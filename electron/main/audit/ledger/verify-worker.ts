import { workerData } from 'node:worker_threads';
import { announce, claimPart, CLAIMED, DONE, fromWire, STATUS, stopAfter, type VerifyJob, type WorkerReport } from './verify-protocol';
import { checkChunk, SegmentReaders } from './verify-segments';

/**
 * Worker-thread entry of verifyLedger (verify-parallel.ts): claims parts of the ledger until none
 * is left, checks each with the same code the main thread uses (verify-segments.ts checkChunk) and
 * posts the outcome, then ends. Runs one job: a verification starts its own workers.
 */
const job = workerData as VerifyJob | null;
if (job === null) throw new Error('verify-worker.ts runs only as a worker thread started by verifyLedger');

const control = new Int32Array(job.control);
const options = fromWire(job.options);
const readers = new SegmentReaders(job.plan.batchSeqs);
const parts = job.plan.chunks.length;
try {
  for (let index = claimPart(control, parts, CLAIMED); index >= 0; index = claimPart(control, parts, CLAIMED)) {
    const chunk = job.plan.chunks[index];
    const segment = chunk ? job.plan.segments[chunk.segment] : undefined;
    try {
      if (!chunk || !segment) throw new Error(`verify worker: no part ${index} in the plan`);
      const outcome = checkChunk(readers, segment, chunk, options);
      const report: WorkerReport = { outcome };
      job.outcomes.postMessage(report);
      if (!outcome.empty && outcome.tally.failure) stopAfter(control, index);
    } catch {
      // Nothing is posted: the main thread checks this part again itself if the verdict depends
      // on it, and so throws the real error where a single-threaded verification would.
    }
    // The outcome is in the main thread's queue before the status says so (postMessage enqueues
    // synchronously). A part the main thread took over (stalled) stays its.
    Atomics.compareExchange(control, STATUS + index, CLAIMED, DONE);
    announce(control);
  }
} finally {
  readers.close();
  options.key?.key.fill(0);
  job.outcomes.close();
}
