import type { MessagePort } from 'node:worker_threads';
import type { Checkpoint } from '../checkpoint/checkpoint';
import type { ChunkOutcome, LedgerPlan } from './verify-segments';
import type { VerifyOptions } from './verify-rows';

/**
 * Between verifyLedger's main thread and its workers (verify-parallel.ts, verify-worker.ts): parts
 * of the ledger are claimed from a shared counter, outcomes come back on a MessagePort that the main
 * thread reads synchronously (verifyLedger is synchronous, so it waits with Atomics.wait).
 */

// Slots of the control array (Int32Array over a SharedArrayBuffer).
/** The next part to claim (a ticket counter). */
export const NEXT = 0;
/** The lowest part whose check failed: parts after it are not checked at all. */
export const STOP = 1;
/** Bumped (and notified) whenever a part is done: the main thread waits on it. */
export const CHANGES = 2;
/** Then one status per part. */
export const STATUS = 3;

// Part statuses.
export const OPEN = 0;
export const CLAIMED = 1;
export const DONE = 2;
/** Checked (or taken over) by the main thread, whose own outcome counts. */
export const ON_MAIN = 3;

export function controlArray(parts: number): Int32Array {
  const control = new Int32Array(new SharedArrayBuffer((STATUS + parts) * Int32Array.BYTES_PER_ELEMENT));
  control[STOP] = parts;
  return control;
}

/** Claims the next open part as `as` (CLAIMED or ON_MAIN); -1 when none is left. Parts past a failure are closed unchecked. */
export function claimPart(control: Int32Array, parts: number, as: number): number {
  for (;;) {
    const index = Atomics.add(control, NEXT, 1);
    if (index >= parts) return -1;
    if (index > Atomics.load(control, STOP)) {
      if (Atomics.compareExchange(control, STATUS + index, OPEN, DONE) === OPEN) announce(control);
      continue;
    }
    if (Atomics.compareExchange(control, STATUS + index, OPEN, as) === OPEN) return index;
  }
}

/** A failure in part `index`: nothing after it needs checking. */
export function stopAfter(control: Int32Array, index: number): void {
  for (let current = Atomics.load(control, STOP); index < current; current = Atomics.load(control, STOP)) {
    if (Atomics.compareExchange(control, STOP, current, index) === current) return;
  }
}

export function announce(control: Int32Array): void {
  Atomics.add(control, CHANGES, 1);
  Atomics.notify(control, CHANGES);
}

/** VerifyOptions as plain copies: a Buffer would carry its whole pool slab (other data) across. */
export interface WireOptions {
  readonly key?: { readonly epoch: number; readonly key: Uint8Array };
  readonly checkpoints?: readonly (Omit<Checkpoint, 'signature'> & { readonly signature?: { readonly name: string; readonly epoch: number; readonly mac: Uint8Array } })[];
}

export function toWire(options: VerifyOptions): WireOptions {
  return {
    ...(options.key ? { key: { epoch: options.key.epoch, key: new Uint8Array(options.key.key) } } : {}),
    ...(options.checkpoints
      ? {
          checkpoints: options.checkpoints.map((c) => ({
            ...c,
            extensions: [...c.extensions],
            ...(c.signature ? { signature: { ...c.signature, mac: new Uint8Array(c.signature.mac) } } : {}),
          })),
        }
      : {}),
  };
}

export function fromWire(options: WireOptions): VerifyOptions {
  const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const checkpoint = ({ signature, ...rest }: NonNullable<WireOptions['checkpoints']>[number]): Checkpoint =>
    signature ? { ...rest, signature: { name: signature.name, epoch: signature.epoch, mac: asBuffer(signature.mac) } } : rest;
  return {
    ...(options.key ? { key: { epoch: options.key.epoch, key: asBuffer(options.key.key) } } : {}),
    ...(options.checkpoints ? { checkpoints: options.checkpoints.map(checkpoint) } : {}),
  };
}

export interface VerifyJob {
  readonly plan: LedgerPlan;
  readonly options: WireOptions;
  readonly control: SharedArrayBuffer;
  readonly outcomes: MessagePort;
}

/** A part the worker checked; a part whose check threw posts nothing (the main thread checks it again if needed). */
export interface WorkerReport {
  readonly outcome: ChunkOutcome;
}
