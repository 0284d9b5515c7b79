import type { MessagePort } from 'node:worker_threads';
import type { TreeScanRequest } from '../../../common/file-access';
import type { ConfinerSnapshot } from './confine';
import type { TreeReaderOptions } from './tree-reader';
import type { PackedPart, Plan, ReadCounts } from './tree-reader-plan';

export type { ReadCounts } from './tree-reader-plan';

/**
 * Messages between FileAccess.readTree (main thread) and tree-reader-worker.ts. Plain data only:
 * the worker rebuilds the Confiner from its snapshot and never sees a function. The folder
 * descriptors in a plan are numbers valid in the whole process (tree-reader-plan.ts).
 */
export interface JobRequest {
  readonly job: number;
  readonly confiner: ConfinerSnapshot;
  /** A folder that passed the full check on the main thread. */
  readonly start: string;
  readonly options: TreeReaderOptions;
  /** Files per plan. */
  readonly planFiles: number;
  /** Whether the worker reads (claims from the front); false only in tests, where the main thread then reads every file. */
  readonly workerReads: boolean;
  /** ReadTreeOptions.scan: the worker scans each file it reads (tree-scan.ts). */
  readonly scan?: TreeScanRequest;
  /**
   * Test seam (security tests): Int32Array [files, state]. After reading its `files`-th file the
   * worker sets state PAUSED and waits (at most PAUSE_LIMIT_MS) until the test sets RESUMED, so
   * a test can move a folder between a read and the proof that follows it.
   */
  readonly pause?: SharedArrayBuffer;
  /** Int32Array view: [CREDITS, CANCELLED, READ_DONE]. Shared: neither waits for the other's event loop. */
  readonly control: SharedArrayBuffer;
}

export type WorkerReply =
  /** Files walked, not read yet: the main thread may start reading from the back at once. */
  | { readonly kind: 'plan'; readonly job: number; readonly plan: Plan }
  /** What the worker read of plan `plan`: indices [0, its count), proven. */
  | { readonly kind: 'part'; readonly job: number; readonly plan: number; readonly part: PackedPart }
  /** The job is over (walk finished, cancelled, or failed); the worker takes the next one. */
  | { readonly kind: 'end'; readonly job: number; readonly error: JobError | null; readonly files: number; readonly reads: ReadCounts; readonly scanned: number };


export interface JobError {
  /** The errno name (EIO, EMFILE …) when the OS reported one. */
  readonly code: string | null;
  readonly message: string;
}

/** What the worker is started with (workerData). */
export interface WorkerSetup {
  /** The main thread gives consumed slabs back through this port (zero-copy both ways). */
  readonly recycle: MessagePort;
}

/** Plans the worker may post ahead of the main thread; it stops walking at zero. */
export const CREDITS = 0;
/** Non-zero: stop after the current file and end the job. The main thread reads nothing more once it set it. */
export const CANCELLED = 1;
/**
 * How many plans (from the first) the main thread is done reading from: the worker closes a plan's
 * folders only then (or once the plan was read whole by the worker itself).
 */
export const READ_DONE = 2;
export const CONTROL_SLOTS = 3;
/** The slabs file windows are packed in, on both threads; the main thread gives slabs of this size back. */
export const SLAB_BYTES = 256 * 1024;

/** JobRequest.pause states. */
export const PAUSED = 1;
export const RESUMED = 2;
export const PAUSE_LIMIT_MS = 5000;
