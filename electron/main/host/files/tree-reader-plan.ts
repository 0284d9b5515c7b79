import type { FileErrorCode } from '../../../common/file-access';
import { assertNever } from '../../../common/assert-never';
import type { Confiner } from './confine';
import type { ReadOutcome, Slot } from './read-outcome';
import { readOneSync, type WalkedPlan } from './tree-reader';
import { readAtSync, type FolderOpener } from './tree-reader-openat';
import type { PackedScans } from './tree-scan';

/**
 * Work stealing between the reading worker and the searching main thread (FileAccess.readTree).
 * The worker walks ahead and posts each stretch of files as a plan: paths and their folders'
 * descriptors, nothing read yet. Then both threads read the plan's files, each claiming one at a
 * time through one shared word: the worker from the front, the main thread from the back, until
 * they meet. With ReadTreeOptions.scan each thread also scans a file right after reading it
 * (tree-scan.ts), so a claim costs the whole work on that file and the split shares the search, not
 * only the reading. No cost model to tune: the split is who gets there first.
 *
 * Each thread proves again the folders it read from (one readlink per folder and part) before its
 * part is handed out, as the batch reader does. The main thread reads relative to the worker's open
 * folders, which the worker closes only when the main thread says it is done with the plan
 * (READ_DONE), so a descriptor number is never reused under a reader.
 * docs/2026-12-02-search-work-stealing.md.
 */

/** How a thread read the files it claimed: relative to their open folder (tree-io), or by path with the per-file proof. */
export interface ReadCounts {
  relative: number;
  byPath: number;
}

/** A plan as it crosses to the main thread. */
export interface Plan {
  /** 0, 1, 2 … within the job. */
  readonly id: number;
  /** The files' paths, NUL-separated. */
  readonly paths: string;
  /** Per file: its folder's descriptor (open in this process), or -1 where it is read by path. */
  readonly folders: Int32Array<ArrayBuffer>;
  /** The claim word (Int32): next free index from the front in the low 16 bits, one past the last free from the back in the high ones. */
  readonly claims: SharedArrayBuffer;
}

/** At most this many files per plan (both ends must fit in one Int32). */
export const MAX_PLAN_FILES = 0x7fff;
const BACK = 0x10000;

export function planOf(id: number, walked: WalkedPlan): Plan {
  if (walked.paths.length > MAX_PLAN_FILES) throw new RangeError(`a plan holds at most ${MAX_PLAN_FILES} files`);
  const claims = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  Atomics.store(new Int32Array(claims), 0, walked.paths.length * BACK);
  return { id, paths: walked.paths.join('\0'), folders: Int32Array.from(walked.folders), claims };
}

/** The claim word of a plan, on either thread. */
export class Claims {
  private readonly word: Int32Array;

  constructor(buffer: SharedArrayBuffer) {
    this.word = new Int32Array(buffer);
  }

  /** The next index from the front, or -1 when none is left. */
  front(): number {
    for (;;) {
      const w = Atomics.load(this.word, 0);
      const front = w & 0xffff;
      if (front >= w >>> 16) return -1;
      if (Atomics.compareExchange(this.word, 0, w, w + 1) === w) return front;
    }
  }

  /** The next index from the back, or -1 when none is left. */
  back(): number {
    for (;;) {
      const w = Atomics.load(this.word, 0);
      const back = w >>> 16;
      if ((w & 0xffff) >= back) return -1;
      if (Atomics.compareExchange(this.word, 0, w, w - BACK) === w) return back - 1;
    }
  }

  /** Claims every index left, as [from, to) (empty when none). */
  rest(): readonly [number, number] {
    for (;;) {
      const w = Atomics.load(this.word, 0);
      const front = w & 0xffff;
      const back = w >>> 16;
      if (front >= back) return [front, front];
      if (Atomics.compareExchange(this.word, 0, w, front + front * BACK) === w) return [front, back];
    }
  }

  /** How many indices the front claimed (the worker's part is [0, taken)); final once nothing is left. */
  get frontTaken(): number {
    return Atomics.load(this.word, 0) & 0xffff;
  }
}

/** A plan's paths, decoded once on the thread that reads from it. */
export class PlanFiles {
  readonly paths: string[];

  constructor(readonly plan: Plan) {
    this.paths = plan.paths.length === 0 ? [] : plan.paths.split('\0');
  }

  get count(): number {
    return this.paths.length;
  }
}

/**
 * One thread's reads of the files it claimed from one plan: relative to the file's open folder
 * where it has one, else by path with the per-file proof; then every folder read from is proven
 * again, and the files of one that moved are refused (bytes wiped).
 */
export class PartReader {
  readonly outcomes = new Map<number, ReadOutcome>();
  /** Bytes read so far. */
  bytes = 0;
  /** Folders read relative to: descriptor → the indices read from it. */
  private readonly fromFolder = new Map<number, number[]>();
  /** Per folder descriptor: whether every entry of it is inside the roots and unprotected (isPlain). */
  private readonly plainFolder = new Map<number, boolean>();

  constructor(
    private readonly files: PlanFiles,
    private readonly folders: FolderOpener | null,
    private readonly confiner: Confiner,
    private readonly windowBytes: number,
    /** Counts each read by how it was made (tests: on Linux nothing goes by path). */
    private readonly counts: ReadCounts,
  ) {}

  read(index: number, slabs: Slabs): ReadOutcome {
    const path = this.files.paths[index] as string;
    const fd = this.files.plan.folders[index] as number;
    const slash = path.lastIndexOf('/');
    // A path from the other thread is held to the roots and protected paths before a relative
    // read (readOneSync refuses it with the right code), as readOneSync holds every path.
    const relative = fd >= 0 && this.folders !== null && slash > 0 && this.isPlain(path, slash, fd);
    if (relative) this.counts.relative++;
    else this.counts.byPath++;
    const outcome = relative
      ? readAtSync(this.folders.io, fd, path.slice(slash + 1), path, this.windowBytes, slabs)
      : readOneSync(path, this.confiner, this.windowBytes, slabs);
    if (outcome.kind === 'read') {
      this.bytes += outcome.length;
      if (relative) {
        const indices = this.fromFolder.get(fd);
        if (indices === undefined) this.fromFolder.set(fd, [index]);
        else indices.push(index);
      }
    }
    this.outcomes.set(index, outcome);
    return outcome;
  }

  /**
   * Whether `path` lies inside the roots and is not protected. Asked of its folder once per part
   * where no protected path lies at, above or below the folder (then none of its entries is one);
   * of each file otherwise. The per-file check cost ~0.8 µs a file on each thread.
   */
  private isPlain(path: string, slash: number, fd: number): boolean {
    let plain = this.plainFolder.get(fd);
    if (plain === undefined) {
      const dir = path.slice(0, slash);
      plain = this.confiner.isInsideRoots(dir) && !this.confiner.isProtected(dir) && !this.confiner.hasProtectedWithin(dir);
      this.plainFolder.set(fd, plain);
    }
    return plain || (this.confiner.isInsideRoots(path) && !this.confiner.isProtected(path));
  }

  /** Proves each folder read from again; the files of one not where it was proven are refused. */
  proveFolders(): void {
    const folders = this.folders;
    if (folders === null) return;
    for (const [fd, indices] of this.fromFolder) {
      const first = this.files.paths[indices[0] as number] as string;
      const refusal = folders.proveAgain(fd, first.slice(0, first.lastIndexOf('/')), this.confiner);
      if (refusal === null) continue;
      for (const index of indices) {
        const outcome = this.outcomes.get(index);
        if (outcome?.kind === 'read') outcome.slot.view.fill(0, outcome.slot.offset, outcome.slot.offset + outcome.length);
        this.outcomes.set(index, { kind: 'failed', code: refusal });
      }
    }
    this.fromFolder.clear();
  }
}

/** The worker's part of a plan as it crosses: outcomes of indices [0, count), buffers transferred. */
export interface PackedPart {
  readonly buffers: ArrayBuffer[];
  /** FIELDS numbers per index: kind, then buffer, offset, length, size ('read') or the error code's number. */
  readonly numbers: Float64Array<ArrayBuffer>;
  /** What ReadTreeOptions.scan found in the part's files (null: no scan asked). */
  readonly scans: PackedScans | null;
}

const FIELDS = 5;
const KIND_READ = 0;
const KIND_FAILED = 1;
const KIND_SKIPPED = 2;
// A code crosses as its number; a Record, so that a new FileErrorCode does not compile until numbered.
const ERROR_NUMBER: Readonly<Record<FileErrorCode, number>> = {
  OUTSIDE_ROOTS: 0,
  FORBIDDEN: 1,
  INVALID_PATH: 2,
  NOT_FOUND: 3,
  EXISTS: 4,
  IS_DIRECTORY: 5,
  NOT_DIRECTORY: 6,
  TOO_LARGE: 7,
  CHANGED: 8,
  IO: 9,
};
const ERROR_CODES = Object.keys(ERROR_NUMBER).sort((a, b) => ERROR_NUMBER[a as FileErrorCode] - ERROR_NUMBER[b as FileErrorCode]) as FileErrorCode[];

/** Packs outcomes [0, count) (an index without one: IO), with the buffers they lie in. */
export function packPart(outcomes: ReadonlyMap<number, ReadOutcome>, count: number, scans: PackedScans | null): PackedPart {
  const numbers = new Float64Array(count * FIELDS);
  const buffers: ArrayBuffer[] = [];
  const index = new Map<ArrayBuffer, number>();
  for (let i = 0; i < count; i++) {
    const outcome = outcomes.get(i) ?? { kind: 'failed', code: 'IO' };
    const at = i * FIELDS;
    switch (outcome.kind) {
      case 'read': {
        let buffer = index.get(outcome.slot.view.buffer);
        if (buffer === undefined) {
          buffer = buffers.push(outcome.slot.view.buffer) - 1;
          index.set(outcome.slot.view.buffer, buffer);
        }
        numbers.set([KIND_READ, buffer, outcome.slot.offset, outcome.length, outcome.size], at);
        break;
      }
      case 'failed':
        numbers.set([KIND_FAILED, ERROR_NUMBER[outcome.code]], at);
        break;
      case 'skipped':
        numbers[at] = KIND_SKIPPED;
        break;
      default:
        assertNever(outcome);
    }
  }
  return { buffers, numbers, scans };
}

/** What a packed part transfers (rather than copies) when it crosses. */
export function transferOf(part: PackedPart): ArrayBuffer[] {
  const scans = part.scans === null ? [] : [part.scans.counts.buffer, part.scans.starts.buffer];
  return [...part.buffers, part.numbers.buffer, ...scans];
}

/** One index of a packed part. */
export type PartItem =
  | { readonly kind: 'read'; readonly buffer: ArrayBuffer; readonly offset: number; readonly length: number; readonly size: number }
  | { readonly kind: 'failed'; readonly code: FileErrorCode }
  | { readonly kind: 'skipped' };

export function partCount(part: PackedPart): number {
  return part.numbers.length / FIELDS;
}

export function partItem(part: PackedPart, index: number): PartItem {
  const n = part.numbers;
  const at = index * FIELDS;
  switch (n[at]) {
    case KIND_READ:
      return { kind: 'read', buffer: part.buffers[n[at + 1] as number] as ArrayBuffer, offset: n[at + 2] as number, length: n[at + 3] as number, size: n[at + 4] as number };
    case KIND_FAILED:
      return { kind: 'failed', code: ERROR_CODES[n[at + 1] as number] ?? 'IO' };
    default:
      return { kind: 'skipped' };
  }
}

/**
 * Places file windows in slabs of `slabBytes`, one after another (a window larger than a slab gets
 * a buffer of its own). Slabs come from `reuse` (ones the consumer gave back) before new ones: a
 * fresh buffer costs its page faults on first write.
 */
export class Slabs {
  /** Every buffer used, in order. */
  readonly used: Uint8Array<ArrayBuffer>[] = [];
  private current: Uint8Array<ArrayBuffer> | null = null;
  private filled = 0;

  constructor(
    private readonly slabBytes: number,
    private readonly reuse: () => Uint8Array<ArrayBuffer> | null,
  ) {}

  place(length: number): Slot {
    if (length > this.slabBytes) {
      const own = new Uint8Array(length);
      this.used.push(own);
      return { view: own, offset: 0 };
    }
    if (this.current === null || length > this.slabBytes - this.filled) this.nextSlab();
    const slot = { view: this.current as Uint8Array<ArrayBuffer>, offset: this.filled };
    this.filled += length;
    return slot;
  }

  private nextSlab(): void {
    const reused = this.reuse();
    this.current = reused !== null && reused.length >= this.slabBytes ? reused : new Uint8Array(this.slabBytes);
    this.used.push(this.current);
    this.filled = 0;
  }
}
