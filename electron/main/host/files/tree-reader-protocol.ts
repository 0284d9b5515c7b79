import type { MessagePort } from 'node:worker_threads';
import type { ConfinerSnapshot } from './confine';
import type { Batch, BatchLimits, TreeReaderOptions } from './tree-reader';

/**
 * Messages between FileAccess.readTree (main thread) and tree-reader-worker.ts. Plain data only:
 * the worker rebuilds the Confiner from its snapshot and never sees a function or a handle.
 */
export interface JobRequest {
  readonly job: number;
  readonly confiner: ConfinerSnapshot;
  /** A folder that passed the full check on the main thread. */
  readonly start: string;
  readonly options: TreeReaderOptions;
  readonly limits: BatchLimits;
  /** Whether the main thread reads a share of the files itself (see tree-reader-worker.ts). */
  readonly share: boolean;
  /** Int32Array view: [CREDITS, CANCELLED, CONSUME_NS, MAIN_WAITS, MAIN_READ_NS]. Shared: neither waits for the other's event loop. */
  readonly control: SharedArrayBuffer;
}

export type WorkerReply =
  | { readonly kind: 'batch'; readonly job: number; readonly batch: Batch }
  /** The job is over (walk finished, cancelled, or failed); the worker takes the next one. */
  | { readonly kind: 'end'; readonly job: number; readonly error: JobError | null; readonly files: number };

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

/** Batches the worker may send ahead of the main thread; it blocks (Atomics.wait) at zero. */
export const CREDITS = 0;
/** Non-zero: stop after the current file and end the job. */
export const CANCELLED = 1;
/** The main thread's cost per file of what it does besides reading (searching), in ns. */
export const CONSUME_NS = 2;
/** How often the main thread found no batch waiting (it then idles until one arrives). */
export const MAIN_WAITS = 3;
/**
 * The main thread's cost per file it reads itself (a delegated file), in ns: reading by path with
 * the per-file proof costs it about twice what a read relative to an open folder costs the worker.
 */
export const MAIN_READ_NS = 4;
export const CONTROL_SLOTS = 5;
