import { constants } from 'node:os';
import type { FileErrorCode } from '../../../common/file-access';
import type { Confiner } from './confine';
import type { ListedEntry } from './entries';
import { fromOsError, type ErrnoError } from './errors';
import type { TreeIo } from './tree-io';
import type { ReadOutcome, Slot, SlotSource } from './read-outcome';

/**
 * The TreeReader's system calls through native/tree-io: every folder is opened relative to its open
 * parent and every file relative to its open folder (openat), never following a link. The chain
 * starts at the start folder, opened by the path the main thread checked in full, and each folder
 * is proven once, after its open, to be the path the walk built (the kernel's name for it, as the
 * per-file proof in open-verified.ts does for files). A file opened so is an entry of a proven
 * folder: no per-file proof is needed. Each folder is proven again before the files read from it
 * are handed out (FolderOpener.proveAgain, once per batch). docs/2026-12-02-search-openat.md.
 */

/** errno number → name (ENOENT, …), as node:fs names them. */
const ERRNO_NAMES = new Map<number, string>(Object.entries(constants.errno).map(([name, value]) => [value, name]));

function errnoError(negated: number, path: string): ErrnoError {
  const code = ERRNO_NAMES.get(-negated) ?? 'EIO';
  return Object.assign(new Error(`${code}: ${path}`), { code });
}

/** Outcomes where the walk passes over a file or folder, as it does a vanished one or a link. */
function isGoneOrLink(code: number, io: TreeIo): boolean {
  return code === -constants.errno.ENOENT || code === -constants.errno.ENOTDIR || code === -constants.errno.ELOOP || code === io.NOT_REGULAR;
}

/** Out of descriptors (a very deep tree, or the process near its limit): that folder is read by path instead. */
function isOutOfDescriptors(code: number): boolean {
  return code === -constants.errno.EMFILE || code === -constants.errno.ENFILE;
}

// One per thread: the size crosses from C in it (a Float64Array write, no object per file).
const sizeOut = new Float64Array(1);

const LETTER_FILE = 'f';
const LETTER_DIRECTORY = 'd';
const LETTER_LINK = 'l';
const LETTER_UNKNOWN = 'u';

/** One entry of tree-io's listing: type letter f, d, l, o(ther) or u(nknown, only an lstat can tell). */
class IoEntry implements ListedEntry {
  constructor(
    readonly name: string,
    private readonly letter: string,
  ) {}
  isFile(): boolean {
    return this.letter === LETTER_FILE;
  }
  isDirectory(): boolean {
    return this.letter === LETTER_DIRECTORY;
  }
  isSymbolicLink(): boolean {
    return this.letter === LETTER_LINK;
  }
  // "Other" says only "not a file, folder or link": the walk needs no finer distinction.
  isFIFO(): boolean {
    return this.letter !== LETTER_FILE && this.letter !== LETTER_DIRECTORY && this.letter !== LETTER_LINK && this.letter !== LETTER_UNKNOWN;
  }
  isSocket(): boolean {
    return false;
  }
  isBlockDevice(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
}

function parseListing(text: string): ListedEntry[] {
  const entries: ListedEntry[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\0', at);
    entries.push(new IoEntry(text.slice(at + 1, end), text.charAt(at)));
    at = end + 1;
  }
  return entries;
}

export class FolderOpener {
  /** False once the kernel could not name a descriptor (no /proc): the reader goes by path from then on. */
  usable = true;

  constructor(readonly io: TreeIo) {}

  /**
   * Opens and lists the folder `path` (entry `name` of the open folder `parentFd`; by `path` when
   * -1: the start, or below a folder read by path). Null: passed over (gone, a link now, or not
   * proven to be `path`). Undefined: read it by path (no proof possible, out of descriptors).
   * Throws other errors as node:fs would (EACCES, …); the caller decides.
   */
  open(path: string, name: string, parentFd: number): { readonly entries: ListedEntry[]; readonly fd: number } | null | undefined {
    if (!this.usable) return undefined;
    const fd = this.io.openFolder(parentFd, name, path);
    if (fd === this.io.NO_PROOF) {
      this.usable = false;
      return undefined;
    }
    if (fd === this.io.NOT_PROVEN || isGoneOrLink(fd, this.io)) return null;
    if (isOutOfDescriptors(fd)) return undefined;
    if (fd < 0) throw errnoError(fd, path);
    const listing = this.io.listFolder(fd);
    if (typeof listing === 'number') {
      this.io.closeFd(fd);
      if (isGoneOrLink(listing, this.io)) return null;
      throw errnoError(listing, path);
    }
    return { entries: parseListing(listing), fd };
  }

  /**
   * Null when the open folder `fd` is still `path`; else the code for the files read from it since
   * it was last proven: CHANGED while it lies inside the roots, OUTSIDE_ROOTS when moved out (or
   * when the kernel cannot name it now: refused, not guessed).
   */
  proveAgain(fd: number, path: string, confiner: Confiner): FileErrorCode | null {
    const now = this.io.nameOf(fd);
    if (now === path) return null;
    return typeof now === 'string' && confiner.isInsideRoots(now) ? 'CHANGED' : 'OUTSIDE_ROOTS';
  }

  close(fd: number): void {
    if (fd >= 0) this.io.closeFd(fd);
  }
}

/**
 * readOneSync for a file of an open folder: openat without following a link, regular files only,
 * its first `windowBytes` into the slot `slots` gives for its size.
 */
export function readAtSync(io: TreeIo, folderFd: number, name: string, path: string, windowBytes: number, slots: SlotSource): ReadOutcome {
  const fd = io.openFile(folderFd, name, sizeOut);
  if (fd < 0) return isGoneOrLink(fd, io) ? { kind: 'skipped' } : { kind: 'failed', code: fromOsError(errnoError(fd, path), path).code };
  const size = sizeOut[0] as number;
  let slot: Slot;
  try {
    slot = slots.place(Math.min(size, windowBytes));
  } catch (e) {
    io.closeFd(fd);
    throw e;
  }
  const length = io.readClose(fd, slot.view, slot.offset, Math.min(size, windowBytes));
  if (length < 0) return { kind: 'failed', code: fromOsError(errnoError(length, path), path).code };
  return { kind: 'read', size, slot, length };
}
