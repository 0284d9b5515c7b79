import { closeSync, readSync } from 'node:fs';
import { assertNever } from '../../../common/assert-never';
import type { EntryType, FileErrorCode, ReadTreeOptions, TreeFile } from '../../../common/file-access';
import type { Confiner } from './confine';
import { isUnreadable, lstatOrNull, readDirectoryCheckedSync, resolveUnknownTypeSync } from './entries';
import { fileError, fromOsError, isErrno } from './errors';
import { IgnoreStack } from './ignore-rules';
import { openVerifiedForReadSync } from './open-verified';
import { readCheckedSized } from './read';
import { readTreeFile } from './tree-file';
import { isDocumentPath, treeDocumentFile, treeDocuments, type TreeDocuments } from './tree-document';
import { openVerifiedForRead } from './open-verified';
import { uncachedStore, type DocumentTextStore } from '../documents/text-cache';
import { direntsNeedingType, walkChildren, type WalkChild } from './walk-children';

/**
 * FileAccess.readTree: walk + first window of each file, on the calling thread, in synchronous
 * calls made in short time slices (the event loop is served between them). The start path gets
 * the full check (Confiner.target, as walk and readBytes do); each folder is listed only if it
 * still resolves to itself (readDirectoryCheckedSync); each file is opened without following a
 * link and proven, before a byte of it is read, to be the listed file inside the roots
 * (openVerifiedForReadSync: the kernel's name for the descriptor on Linux, realpath + identity
 * elsewhere). No worker, no native code: the same path on every platform.
 *
 * Synchronous on purpose: an async confined read is six hops through libuv's 4-thread pool
 * (open, fstat, readlink, read, close …) and took ~1.1 s for the 6,008-file benchmark corpus;
 * the same system calls made in place cost ~20 µs a file. Measurements:
 * docs/2026-12-03-search-reads-in-thread.md.
 */

// The calling thread yields to the event loop at least this often: IPC and the Stop button stay
// responsive in the desktop app (a frame is 16 ms).
const SLICE_MS = 4;
// A batch ends at this many files or bytes, whichever comes first, even within a slice: the
// consumer starts early and the memory held stays small.
const BATCH_FILES = 96;
const BATCH_BYTES = 4 * 1024 * 1024;
// Windows are packed into slabs of this size; a larger one gets a buffer of its own.
const SLAB_BYTES = 1024 * 1024;

export interface ReadTreeSettings {
  /** .gitignore matching ignores case (Windows, macOS), as in walk. */
  readonly ignoreCase: boolean;
  /** The host's read limit; windows are capped at it. */
  readonly maxReadBytes: number;
  /** The policy's path veto (FileAccess.withPathVeto): entries it covers are passed over unread. */
  readonly skip?: (absolutePath: string) => boolean;
  /** Where documents' extracted texts are kept (ReadTreeOptions.documents); none: every document is extracted. */
  readonly documentStore?: DocumentTextStore;
}

/** Test seams; FileAccess.readTree passes none. */
export interface ReadTreeRuntime {
  /** Called just before each file is opened: the security tests swap folders and files there. */
  readonly beforeOpen?: (path: string) => void;
}

function assertWindow(windowBytes: number): void {
  if (!Number.isSafeInteger(windowBytes) || windowBytes <= 0) {
    throw new RangeError(`readTree: windowBytes must be a positive integer, got ${String(windowBytes)}`);
  }
}

export async function* readTreeConfined(
  confiner: Confiner,
  given: string,
  options: ReadTreeOptions,
  settings: ReadTreeSettings,
  runtime: ReadTreeRuntime = {},
): AsyncGenerator<TreeFile> {
  assertWindow(options.windowBytes);
  const windowBytes = Math.min(options.windowBytes, settings.maxReadBytes);
  const maxFiles = options.maxFiles ?? Number.POSITIVE_INFINITY;
  const start = await confiner.target(given);
  const documents = treeDocuments(options.documents, settings.documentStore ?? uncachedStore(), settings.maxReadBytes);
  const startStat = await lstatOrNull(start.path, given);
  if (startStat === null) throw fileError('NOT_FOUND', given);
  if (startStat.isFile()) {
    // A file named explicitly is read whatever the ignore rules (and the include filter, which is
    // for what a folder holds) say, as walk yields it.
    if (maxFiles > 0) {
      yield documents !== undefined && isDocumentPath(start.path, documents)
        ? await startDocument(confiner, start.path, given, documents)
        : await readStartFile(confiner, start.path, given, windowBytes, settings.maxReadBytes);
    }
    return;
  }
  if (!startStat.isDirectory()) throw fileError('NOT_DIRECTORY', given);

  const signal = options.signal;
  // A flag set by the listener, not signal.aborted per file: that getter cost ~2 ms per 6,000 files.
  let aborted = signal?.aborted === true;
  const onAbort = (): void => {
    aborted = true;
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const walker = new TreeWalker(confiner, start.path, {
    respectIgnoreFiles: options.respectIgnoreFiles ?? true,
    includeHidden: options.includeHidden ?? false,
    ignoreCase: settings.ignoreCase,
    windowBytes,
    maxFiles,
    accept: options.include,
    beforeOpen: runtime.beforeOpen,
    reuseBuffers: options.reuseBuffers === true,
    skip: settings.skip,
    documents,
  });
  try {
    for (;;) {
      const batch = walker.next(performance.now() + SLICE_MS, () => aborted);
      for (const file of batch) {
        if (aborted) return;
        yield file;
      }
      if (walker.over || aborted) return;
      await nextTurn();
    }
  } catch (e) {
    // An OS error on a folder (EIO, EMFILE …), about the path as given; anything else is a bug.
    throw isErrno(e) ? fromOsError(e, given) : e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

async function readStartFile(confiner: Confiner, realPath: string, given: string, windowBytes: number, cap: number): Promise<TreeFile> {
  try {
    const { bytes, size } = await readCheckedSized(realPath, confiner, given, { maxBytes: windowBytes }, cap);
    return readTreeFile(realPath, size, bytes, windowBytes);
  } catch (e) {
    return { ok: false, path: realPath, code: fromOsError(e, given).code };
  }
}

/** A document named as the start path: proven and identified like one the walk reaches. */
async function startDocument(confiner: Confiner, realPath: string, given: string, documents: TreeDocuments): Promise<TreeFile> {
  try {
    const { handle, stat } = await openVerifiedForRead(realPath, confiner, given);
    await handle.close().catch(() => undefined);
    return treeDocumentFile(realPath, stat, documents, confiner);
  } catch (e) {
    return { ok: false, path: realPath, code: fromOsError(e, given).code };
  }
}

function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** What reading one listed file came to. */
export type ReadOutcome =
  | { readonly kind: 'read'; readonly size: number; readonly bytes: Uint8Array }
  | { readonly kind: 'failed'; readonly code: FileErrorCode }
  /** Gone, a link now, or no longer a regular file since the listing: passed over, as walk does. */
  | { readonly kind: 'skipped' };

/**
 * Opens one listed file with the full proof (openVerifiedForReadSync) and reads its first
 * `windowBytes`; `place(length)` gives the memory the window goes to. Nothing is read from a
 * descriptor that was not proven to be `path`, inside the roots and not protected.
 */
export function readOneSync(path: string, confiner: Confiner, windowBytes: number, place: (length: number) => Uint8Array): ReadOutcome {
  const opened = openVerifiedForReadSync(path, confiner);
  if (!opened.ok) return opened.skip ? { kind: 'skipped' } : { kind: 'failed', code: opened.error.code };
  const { fd, stat } = opened;
  try {
    const wanted = Math.min(stat.size, windowBytes);
    const bytes = place(wanted);
    let filled = 0;
    while (filled < wanted) {
      const n = readSync(fd, bytes, filled, wanted - filled, filled);
      if (n === 0) break; // shrank since fstat
      filled += n;
    }
    return { kind: 'read', size: stat.size, bytes: filled === wanted ? bytes : bytes.subarray(0, filled) };
  } catch (e) {
    return { kind: 'failed', code: fromOsError(e, path).code };
  } finally {
    closeSync(fd);
  }
}

interface WalkerOptions {
  readonly respectIgnoreFiles: boolean;
  readonly includeHidden: boolean;
  readonly ignoreCase: boolean;
  readonly windowBytes: number;
  /** Files handed out at most (read or reported unreadable). */
  readonly maxFiles: number;
  /** ReadTreeOptions.include: files it refuses are passed over unread and uncounted. */
  readonly accept: ((path: string) => boolean) | undefined;
  readonly beforeOpen: ((path: string) => void) | undefined;
  /** ReadTreeOptions.reuseBuffers: a batch's slabs are reused once the consumer asks for what follows it. */
  readonly reuseBuffers: boolean;
  readonly skip: ((absolutePath: string) => boolean) | undefined;
  readonly documents: TreeDocuments | undefined;
}

interface Frame {
  readonly ignores: IgnoreStack;
  readonly children: readonly WalkChild[];
  next: number;
}

/**
 * The walk of walk.ts (the same per-folder rules, walk-children.ts), with each file read as it is
 * reached. Windows share slabs (one allocation per megabyte, not per file; a slab holds nothing but
 * windows of files this walk read); a window larger than a slab gets its own buffer.
 */
class TreeWalker {
  private readonly stack: Frame[] = [];
  private started = false;
  private remaining: number;
  private slab: Buffer | null = null;
  private used = 0;
  /** Slabs of the batch being handed out, and (reuseBuffers) slabs free for the next batch. */
  private batchSlabs: Buffer[] = [];
  private spare: Buffer[] = [];

  constructor(
    private readonly confiner: Confiner,
    /** A folder that passed the full check (Confiner.target). */
    private readonly start: string,
    private readonly options: WalkerOptions,
  ) {
    this.remaining = options.maxFiles;
  }

  get over(): boolean {
    return this.started && (this.remaining <= 0 || this.stack.length === 0);
  }

  /** The files reached until the deadline or a batch bound (possibly none: a slice spent among folders). */
  next(deadline: number, stop: () => boolean): TreeFile[] {
    const out: TreeFile[] = [];
    if (!this.started) {
      this.started = true;
      this.enter(this.start, IgnoreStack.empty(this.confiner.rules, this.options.ignoreCase));
    }
    // The consumer asked for what follows the last batch: it is done with that batch's windows.
    if (this.options.reuseBuffers) this.spare.push(...this.batchSlabs);
    this.batchSlabs = [];
    this.slab = null;
    let bytes = 0;
    while (this.remaining > 0 && !stop()) {
      const frame = this.stack[this.stack.length - 1];
      if (frame === undefined) break;
      const child = frame.children[frame.next++];
      if (child === undefined) {
        this.stack.pop();
        continue;
      }
      if (child.isDir) this.enter(child.path, frame.ignores);
      else {
        const file = this.read(child.path);
        if (file !== null) {
          this.remaining--;
          out.push(file);
          if (file.ok) bytes += file.bytes.length;
        }
      }
      if (out.length >= BATCH_FILES || bytes >= BATCH_BYTES || performance.now() >= deadline) break;
    }
    return out;
  }

  /** Lists a folder (if it still resolves to itself) and pushes its children. */
  private enter(dir: string, parentIgnores: IgnoreStack): void {
    let entries;
    try {
      entries = readDirectoryCheckedSync(dir, this.confiner);
    } catch (e) {
      if (isUnreadable(e)) return; // no permission: passed over, as walk does
      throw e;
    }
    if (entries === null) return; // gone, or no longer where it was checked (swapped for a link)
    const { respectIgnoreFiles, includeHidden } = this.options;
    const ignores = respectIgnoreFiles ? parentIgnores.enterSync(dir, entries) : parentIgnores;
    const lookedUp = new Map<(typeof entries)[number], EntryType | null>();
    for (const entry of direntsNeedingType(entries, includeHidden)) {
      lookedUp.set(entry, resolveUnknownTypeSync(entry, this.confiner.rules.api.join(dir, entry.name)));
    }
    const children = walkChildren(dir, entries, { confiner: this.confiner, ignores, includeHidden, skip: this.options.skip }, lookedUp);
    if (children.length > 0) this.stack.push({ ignores, children, next: 0 });
  }

  /** One file, read with the per-file proof; null when passed over (filtered out, gone, a link now). */
  private read(path: string): TreeFile | null {
    const { accept, beforeOpen, windowBytes } = this.options;
    if (accept !== undefined && !accept(path)) return null;
    beforeOpen?.(path);
    const documents = this.options.documents;
    if (documents !== undefined && isDocumentPath(path, documents)) return this.document(path, documents);
    const outcome = readOneSync(path, this.confiner, windowBytes, this.place);
    switch (outcome.kind) {
      case 'skipped':
        return null;
      case 'failed':
        return { ok: false, path, code: outcome.code };
      case 'read':
        return readTreeFile(path, outcome.size, outcome.bytes, windowBytes);
      default:
        return assertNever(outcome);
    }
  }

  /** A document: proven and identified now (its text is asked for by the consumer), not read. */
  private document(path: string, documents: TreeDocuments): TreeFile | null {
    const opened = openVerifiedForReadSync(path, this.confiner);
    if (!opened.ok) return opened.skip ? null : { ok: false, path, code: opened.error.code };
    closeSync(opened.fd);
    return treeDocumentFile(path, opened.stat, documents, this.confiner);
  }

  private readonly place = (length: number): Uint8Array => {
    const slab = this.slab;
    if (slab !== null && length <= slab.length - this.used) {
      const at = this.used;
      this.used += length;
      return slab.subarray(at, at + length);
    }
    // Buffer.alloc, not allocUnsafe: small unsafe buffers share a pool whose other contents would
    // be reachable through .buffer of a window.
    if (length > SLAB_BYTES) return Buffer.alloc(length);
    this.slab = this.spare.pop() ?? Buffer.alloc(SLAB_BYTES);
    this.batchSlabs.push(this.slab);
    this.used = length;
    return this.slab.subarray(0, length);
  };
}
