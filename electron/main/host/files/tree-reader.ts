import { closeSync, readSync } from 'node:fs';
import { assertNever } from '../../../common/assert-never';
import type { EntryType, FileErrorCode } from '../../../common/file-access';
import type { Confiner } from './confine';
import { isUnreadable, readDirectoryCheckedSync, resolveUnknownTypeSync, type ListedEntry } from './entries';
import { fromOsError } from './errors';
import { IgnoreStack } from './ignore-rules';
import { openVerifiedForReadSync } from './open-verified';
import type { ReadOutcome, Slot, SlotSource } from './read-outcome';
import { FolderOpener, readAtSync } from './tree-reader-openat';
import { treeIo } from './tree-io';
import { direntsNeedingType, walkChildren, type WalkChild } from './walk-children';

export type { ReadOutcome, Slot } from './read-outcome';

/**
 * The synchronous core of FileAccess.readTree: walks a checked folder with walk.ts's rules
 * (walk-children.ts). On a worker thread (tree-reader-worker.ts) it walks only, in plans whose
 * files both threads then read (nextPlan, tree-reader-plan.ts); time-sliced on the main thread
 * (filtered reads, no worker) it also reads each file's first window, in batches (nextBatch).
 *
 * Synchronous on purpose: an async confined read is six hops through libuv's 4-thread pool
 * (realpath, open, fstat, readlink, read, close) and walk + reads took ~1.1 s for the 6,008-file
 * benchmark corpus; the same system calls made synchronously cost ~20 µs a file and ~22 µs a
 * folder, ~150 ms for the corpus on one thread (measured on this 2-core machine).
 *
 * On Linux, folders and files are opened relative to their open parent folder (openat, through
 * native/tree-io; tree-reader-openat.ts), which needs no per-file proof: ~40 % less system-call
 * time. Elsewhere, or with `openat: false`, every file is opened by path and proven
 * (openVerifiedForReadSync). docs/2026-12-02-search-openat.md.
 */
export interface TreeReaderOptions {
  readonly respectIgnoreFiles: boolean;
  readonly includeHidden: boolean;
  /**
   * Files to hand out at most (read or reported unreadable). A planned file that vanishes before
   * it is read still counts: the bound is never exceeded.
   */
  readonly maxFiles: number;
  /** Bytes read from the start of each file. */
  readonly windowBytes: number;
  /** Whether .gitignore matching ignores case (git's core.ignorecase; Windows and macOS). */
  readonly ignoreCase: boolean;
  /** Open relative to open folders where native/tree-io works (default); false: by path, each file proven. */
  readonly openat?: boolean;
}

/** One file of a batch, in walk order. */
export type BatchItem =
  /** Read: the window lies in `view` at [offset, offset + length). */
  | {
      readonly kind: 'read';
      readonly path: string;
      /** Size when opened (fstat). */
      readonly size: number;
      readonly view: Uint8Array<ArrayBuffer>;
      readonly offset: number;
      readonly length: number;
    }
  | { readonly kind: 'failed'; readonly path: string; readonly code: FileErrorCode };

export interface BatchLimits {
  /** End the batch once its content reaches this many bytes. */
  readonly bytes: number;
  /** … or once it holds this many files (read or failed). */
  readonly files: number;
  /** performance.now() after which the batch ends (main-thread time slices); none in a worker. */
  readonly deadline?: number;
}

export interface TreeReaderHooks {
  /** Files it refuses are passed over unread and uncounted (readTree's include option). */
  accept?: (path: string) => boolean;
  /** Test seam: runs just before each file is opened (the security tests swap folders there). */
  beforeOpen?: (path: string) => void;
}

/**
 * Opens one listed file with the full proof (openVerifiedForReadSync) and reads its first
 * `windowBytes` into the slot `slots` gives for the size. Shared by both threads' reads (a folder
 * read by path, and a plan's late reads), so all read under exactly the same checks.
 */
export function readOneSync(path: string, confiner: Confiner, windowBytes: number, slots: SlotSource): ReadOutcome {
  const opened = openVerifiedForReadSync(path, confiner);
  if (!opened.ok) return opened.skip ? { kind: 'skipped' } : { kind: 'failed', code: opened.error.code };
  const { fd, stat } = opened;
  try {
    const wanted = Math.min(stat.size, windowBytes);
    const slot = slots.place(wanted);
    let filled = 0;
    while (filled < wanted) {
      const n = readSync(fd, slot.view, slot.offset + filled, wanted - filled, filled);
      if (n === 0) break; // shrank since fstat
      filled += n;
    }
    return { kind: 'read', size: stat.size, slot, length: filled };
  } catch (e) {
    return { kind: 'failed', code: fromOsError(e, path).code };
  } finally {
    closeSync(fd);
  }
}

interface Frame {
  readonly path: string;
  readonly ignores: IgnoreStack;
  readonly children: readonly WalkChild[];
  next: number;
  /** The folder, open (tree-io): its files are opened relative to it; -1 when read by path. */
  readonly fd: number;
  /** Its number among the folders the current batch read files from (BatchBuilder.read), or -1. */
  inBatch: number;
}

export class TreeReader {
  private readonly stack: Frame[] = [];
  private started = false;
  private remaining: number;
  /** Null: every folder and file by path, with the per-file proof. */
  private readonly folders: FolderOpener | null;
  /** Folders left during the current batch, closed once it has proven them again. */
  private readonly leftInBatch: Frame[] = [];
  /** Planning (the worker): folders left during the current plan, closed by the worker when both threads are done with it. */
  private leftInPlan: number[] | null = null;

  constructor(
    private readonly confiner: Confiner,
    /** A folder that passed the full check (Confiner.target) on the main thread. */
    private readonly start: string,
    private readonly options: TreeReaderOptions,
    private readonly hooks: TreeReaderHooks = {},
  ) {
    this.remaining = options.maxFiles;
    const io = options.openat === false ? null : treeIo();
    this.folders = io === null ? null : new FolderOpener(io);
  }

  /** Whether folders and files are opened relative to open folders (tree-io), for tests and the bench. */
  get opensRelative(): boolean {
    return this.folders?.usable === true;
  }

  /**
   * Closes the folders still open. Call when leaving the walk before its end (cancelled, maxFiles
   * reached, an error); a walk that ran to its end has closed them already. When planning, only
   * once no thread reads from the plans any more.
   */
  close(): void {
    for (const frame of [...this.stack.splice(0), ...this.leftInBatch.splice(0)]) this.folders?.close(frame.fd);
    this.closeFolders(this.leftInPlan?.splice(0) ?? []);
  }

  /** Closes folders a plan handed out (Plan.closeAfter). */
  closeFolders(fds: readonly number[]): void {
    for (const fd of fds) this.folders?.close(fd);
  }

  /**
   * The next batch (possibly empty, when a deadline passed among folders), or null when the walk is
   * over. `stop` is asked before every folder and file:
   * a cancelled search stops within one file. Folder errors other than "no permission" (which
   * passes the folder over, as walk does) are thrown as the OS reported them.
   */
  nextBatch(limits: BatchLimits, stop: () => boolean): BatchItem[] | null {
    const batch = new BatchBuilder(limits.bytes);
    this.walk(
      stop,
      (child, frame) => this.take(child, frame, batch),
      () => batch.bytes >= limits.bytes || batch.files >= limits.files || (limits.deadline !== undefined && performance.now() >= limits.deadline),
    );
    this.proveBatchFolders(batch);
    // An empty batch is not the end: a time slice can pass among folders that hold no files.
    return batch.files === 0 && this.over(stop) ? null : batch.finish();
  }

  /**
   * The next `files` files, walked and checked but not read (the worker's plans: tree-reader-plan.ts),
   * or null when the walk is over. Each file's folder stays open until the plan's `closeAfter`
   * (the folders left meanwhile) is given to closeFolders; errors as nextBatch.
   */
  nextPlan(files: number, stop: () => boolean): WalkedPlan | null {
    const paths: string[] = [];
    const folders: number[] = [];
    this.leftInPlan ??= [];
    this.walk(
      stop,
      (child, frame) => {
        if (this.hooks.accept !== undefined && !this.hooks.accept(child.path)) return false;
        paths.push(child.path);
        folders.push(frame.fd);
        return true;
      },
      () => paths.length >= files,
    );
    // At the end, the folders left stay with the reader: earlier plans may still be read from
    // them, and close() comes after both threads are done.
    if (paths.length === 0 && this.over(stop)) return null;
    return { paths, folders, closeAfter: this.leftInPlan.splice(0) };
  }

  /** Walks on, giving each file to `take` (true: it counts toward maxFiles), until `full` or the end. */
  private walk(stop: () => boolean, take: (child: WalkChild, frame: Frame) => boolean, full: () => boolean): void {
    if (!this.started) {
      this.started = true;
      this.enter(this.start, '', -1, IgnoreStack.empty(this.confiner.rules, this.options.ignoreCase));
    }
    while (this.remaining > 0 && !stop()) {
      const frame = this.stack[this.stack.length - 1];
      if (frame === undefined) break;
      const child = frame.children[frame.next++];
      if (child === undefined) {
        this.leave(this.stack.pop() as Frame);
        continue;
      }
      if (child.isDir) this.enter(child.path, child.name, frame.fd, frame.ignores);
      else if (take(child, frame)) this.remaining--;
      if (full()) break;
    }
  }

  private over(stop: () => boolean): boolean {
    return this.remaining <= 0 || this.stack.length === 0 || stop();
  }

  /** Lists a folder (relative to its open parent where it can) and pushes its children. */
  private enter(dir: string, name: string, parentFd: number, parentIgnores: IgnoreStack): void {
    let listed: { readonly entries: ListedEntry[]; readonly fd: number } | null;
    try {
      const opened = this.folders?.open(dir, name, parentFd);
      listed = opened === undefined ? this.listByPath(dir) : opened;
    } catch (e) {
      if (isUnreadable(e)) return;
      throw e;
    }
    if (listed === null) return; // gone, or no longer where it was checked (swapped for a link)
    const { entries, fd } = listed;
    const { respectIgnoreFiles, includeHidden } = this.options;
    let children: WalkChild[];
    let ignores: IgnoreStack;
    try {
      ignores = respectIgnoreFiles ? parentIgnores.enterSync(dir, entries) : parentIgnores;
      const lookedUp = new Map<ListedEntry, EntryType | null>();
      for (const entry of direntsNeedingType(entries, includeHidden)) {
        lookedUp.set(entry, resolveUnknownTypeSync(entry, this.confiner.rules.api.join(dir, entry.name)));
      }
      children = walkChildren(dir, entries, { confiner: this.confiner, ignores, includeHidden }, lookedUp);
    } catch (e) {
      this.folders?.close(fd);
      throw e;
    }
    if (children.length > 0) this.stack.push({ path: dir, ignores, children, next: 0, fd, inBatch: -1 });
    else this.folders?.close(fd);
  }

  private listByPath(dir: string): { readonly entries: ListedEntry[]; readonly fd: number } | null {
    const entries = readDirectoryCheckedSync(dir, this.confiner);
    return entries === null ? null : { entries, fd: -1 };
  }

  private leave(frame: Frame): void {
    // A folder the current batch read from stays open until the batch has proven it again; one a
    // plan lists files of, until both threads are done reading the plan.
    if (this.leftInPlan !== null) {
      if (frame.fd >= 0) this.leftInPlan.push(frame.fd);
    } else if (frame.inBatch >= 0) this.leftInBatch.push(frame);
    else this.folders?.close(frame.fd);
  }

  /**
   * The files of a batch read relative to open folders are handed out only if each folder is still
   * where it was proven when opened: a folder renamed or moved out of the roots meanwhile has its
   * files in this batch refused (their bytes wiped), so no content is reported under a path it was
   * not read from. One readlink per folder and batch, instead of one per file.
   */
  private proveBatchFolders(batch: BatchBuilder): void {
    const folders = this.folders;
    if (folders === null) return;
    batch.forEachFolder((frame, index) => {
      const refusal = folders.proveAgain(frame.fd, frame.path, this.confiner);
      if (refusal !== null) batch.refuseFolder(index, refusal);
      frame.inBatch = -1;
    });
    for (const frame of this.leftInBatch.splice(0)) folders.close(frame.fd);
  }

  /** Adds one file to the batch; false when it was passed over (filtered out, gone, a link now). */
  private take(child: WalkChild, folder: Frame, batch: BatchBuilder): boolean {
    const path = child.path;
    const { accept, beforeOpen } = this.hooks;
    if (accept !== undefined && !accept(path)) return false;
    beforeOpen?.(path);
    const relative = folder.fd >= 0 && this.folders !== null;
    const outcome = relative
      ? readAtSync(this.folders.io, folder.fd, child.name, path, this.options.windowBytes, batch)
      : readOneSync(path, this.confiner, this.options.windowBytes, batch);
    switch (outcome.kind) {
      case 'skipped':
        return false;
      case 'failed':
        batch.failed(path, outcome.code);
        return true;
      case 'read':
        batch.read(path, outcome.size, outcome.slot, outcome.length, relative ? folder : null);
        return true;
      default:
        return assertNever(outcome);
    }
  }
}

/** Files walked but not read (TreeReader.nextPlan). */
export interface WalkedPlan {
  readonly paths: string[];
  /** Per file, its folder's descriptor (open until `closeAfter` is closed), or -1: read it by path. */
  readonly folders: number[];
  /** Folders the walk left during this plan: close them once no thread reads from this plan or an earlier one. */
  readonly closeAfter: number[];
}

/**
 * Packs file windows into one slab per batch (one allocation); a window larger than what is left
 * of the slab gets a buffer of its own. In-thread reading only: the worker reads plans
 * (tree-reader-plan.ts).
 */
class BatchBuilder {
  private readonly items: BatchItem[] = [];
  /** Folders files were read relative to, and per file the index of its folder there (-1: by path). */
  private readonly folders: Frame[] = [];
  private readonly folderOf: number[] = [];
  private slab: Uint8Array<ArrayBuffer> | null = null;
  private used = 0;
  /** Content bytes so far. */
  bytes = 0;

  constructor(private readonly slabBytes: number) {}

  get files(): number {
    return this.items.length;
  }

  place(length: number): Slot {
    if (this.slab !== null && length <= this.slab.length - this.used) return { view: this.slab, offset: this.used };
    if (this.slab === null && length <= this.slabBytes) {
      this.slab = new Uint8Array(this.slabBytes);
      return { view: this.slab, offset: 0 };
    }
    return { view: new Uint8Array(length), offset: 0 };
  }

  read(path: string, size: number, slot: Slot, length: number, folder: Frame | null): void {
    if (slot.view === this.slab) this.used += length;
    this.bytes += length;
    this.items.push({ kind: 'read', path, size, view: slot.view, offset: slot.offset, length });
    if (folder !== null && folder.inBatch < 0) folder.inBatch = this.folders.push(folder) - 1;
    this.folderOf.push(folder === null ? -1 : folder.inBatch);
  }

  failed(path: string, code: FileErrorCode): void {
    this.items.push({ kind: 'failed', path, code });
    this.folderOf.push(-1);
  }

  forEachFolder(visit: (folder: Frame, index: number) => void): void {
    this.folders.forEach(visit);
  }

  /** Turns the files read from one folder into failures with `code`, wiping what was read of them. */
  refuseFolder(index: number, code: FileErrorCode): void {
    for (let i = 0; i < this.folderOf.length; i++) {
      const item = this.items[i] as BatchItem;
      if (this.folderOf[i] !== index) continue;
      if (item.kind === 'read') item.view.fill(0, item.offset, item.offset + item.length);
      this.items[i] = { kind: 'failed', path: item.path, code };
    }
  }

  finish(): BatchItem[] {
    return this.items;
  }
}
