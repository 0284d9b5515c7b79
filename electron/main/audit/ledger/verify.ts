import { availableParallelism } from 'node:os';
import { verifyInParallel, type ParallelRun } from './verify-parallel';
import { BATCH_SEQS, feedSegment, planLedger, SegmentReaders } from './verify-segments';
import { ChainVerifier, type LedgerVerdict, type VerifyOptions } from './verify-rows';

/**
 * How verifyLedger goes about it. Nothing but tests and benchmarks sets these: the verdict is the
 * same whichever way (tests/security/audit-verify-paths.test.ts).
 * - path:        'rows' feeds every row to one verifier in order, on the calling thread;
 *                'parts' checks parts of the ledger independently (verify-segments.ts checkChunk),
 *                on the calling thread and `workers` worker threads, and stitches them together.
 *                Default: 'parts' with a worker per further core from PARALLEL_MIN_ROWS rows on.
 * - workers:     worker threads for 'parts' (default: available cores − 1).
 * - workersOnly: the calling thread checks no part itself, it only stitches.
 * - chunkRows:   seqs per part; batchSeqs: seqs per batch read from SQLite.
 * - report:      told how many parts the workers and the calling thread checked.
 */
export interface VerifyTuning {
  readonly path?: 'rows' | 'parts';
  readonly workers?: number;
  readonly workersOnly?: boolean;
  readonly chunkRows?: number;
  readonly batchSeqs?: number;
  readonly report?: ParallelRun['report'];
}

/**
 * From here on a second thread pays. A worker started from the TypeScript sources (the CLI, tests)
 * needs ~0.4 s before it checks anything (tsx loads in the new thread); the calling thread checks
 * parts meanwhile. Measured with the key on the 2-core VM, idle, one thread vs two: 100k rows
 * 490 vs 520 ms, 150k 709 vs 707 ms, 200k 1069 vs 853 ms, 300k 1593 vs 1163 ms.
 */
const PARALLEL_MIN_ROWS = 150_000;
/** ~0.2 s of checking per part: enough parts for the threads to finish together, few enough to stitch cheaply. */
const CHUNK_ROWS = 32_768;

/** Verifies the ledger folder `dir`: every segment oldest first, as one chain (verify-rows.ts). */
export function verifyLedger(dir: string, options: VerifyOptions = {}, tuning: VerifyTuning = {}): LedgerVerdict {
  const plan = planLedger(dir, tuning.chunkRows ?? CHUNK_ROWS, tuning.batchSeqs ?? BATCH_SEQS);
  const workers = tuning.workers ?? availableParallelism() - 1;
  const path = tuning.path ?? (plan.estimatedRows >= PARALLEL_MIN_ROWS && workers > 0 ? 'parts' : 'rows');
  if (path === 'parts') {
    return verifyInParallel(plan, options, {
      workers: Math.min(workers, plan.chunks.length),
      mainThreadChecks: tuning.workersOnly !== true,
      ...(tuning.report ? { report: tuning.report } : {}),
    });
  }
  const verifier = new ChainVerifier(options);
  const readers = new SegmentReaders(plan.batchSeqs);
  try {
    for (const segment of plan.segments) if (!feedSegment(readers, segment, verifier)) break;
  } finally {
    readers.close();
  }
  return verifier.finish();
}
