import { constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync, closeSync, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import type { FileAccessError } from '../../../common/file-access';
import type { Confiner } from './confine';
import { fileError, fromOsError, isErrno, osCall } from './errors';

// Absent on Windows (undefined there): the platform has no such flag, and creating symlinks needs
// privileges it rarely grants, so the after-open identity check below carries the weight there.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// Opening a FIFO for reading blocks until a writer appears, which would park a libuv thread for
// ever; O_NONBLOCK makes open return at once, and the regular-file check then refuses it.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Where the kernel says an open descriptor points, or null where it cannot say (no /proc). On
 * Linux this is the authoritative answer: it is the path the open actually resolved, not a
 * second resolution that a racing rename could fool.
 */
async function procPathOf(fh: FileHandle): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  try {
    return await readlink(`/proc/self/fd/${fh.fd}`);
  } catch {
    return null;
  }
}

/**
 * Confirms that an open handle is the file at `expected` (a realpath'd, checked path), so that a
 * symlink swapped in between the check and the open cannot lead outside the roots.
 */
export async function verifyHandle(
  fh: FileHandle,
  handleStat: Stats,
  expected: string,
  confiner: Confiner,
  given: string,
): Promise<void> {
  const actual = await procPathOf(fh);
  if (actual === null) {
    await verifyByIdentity(handleStat, expected, confiner, given);
    return;
  }
  const refusal = judgeOpenedPath(actual, expected, confiner, given);
  if (refusal !== null) throw refusal;
}

/** The verdict on where the kernel says an open file is: null when it is the checked file. */
function judgeOpenedPath(actual: string, expected: string, confiner: Confiner, given: string): FileAccessError | null {
  if (actual === expected) return null;
  return fileError(confiner.isInsideRoots(actual) ? 'CHANGED' : 'OUTSIDE_ROOTS', given, 'opened file is not the checked one');
}

/**
 * The check where the kernel cannot name an open file (macOS, Windows): the checked path must still
 * resolve to itself (no link appeared in a parent) and name the very file we hold (same device and
 * inode). Either mismatch means it moved under us.
 */
export async function verifyByIdentity(handleStat: Stats, expected: string, confiner: Confiner, given: string): Promise<void> {
  let now: string;
  let entry: Stats;
  try {
    now = await realpath(expected);
    entry = await lstat(expected);
  } catch (e) {
    throw identityLookupError(e, given);
  }
  const refusal = judgeIdentity(now, entry, handleStat, expected, confiner, given);
  if (refusal !== null) throw refusal;
}

function identityLookupError(e: unknown, given: string): FileAccessError {
  if (isErrno(e, 'ENOENT', 'ENOTDIR')) return fileError('CHANGED', given, 'file vanished while opening');
  return fileError('IO', given, isErrno(e) ? e.code : undefined);
}

function judgeIdentity(now: string, entry: Stats, handleStat: Stats, expected: string, confiner: Confiner, given: string): FileAccessError | null {
  if (now !== expected) return fileError(confiner.isInsideRoots(now) ? 'CHANGED' : 'OUTSIDE_ROOTS', given, 'path changed while opening');
  if (entry.dev !== handleStat.dev || entry.ino !== handleStat.ino) return fileError('CHANGED', given, 'file replaced while opening');
  return null;
}

export interface OpenedFile {
  readonly handle: FileHandle;
  readonly stat: Stats;
}

/**
 * Opens a checked file for reading without following a final symlink, and verifies after the open
 * that the handle is the checked file. The caller closes the handle.
 */
export async function openVerifiedForRead(realPath: string, confiner: Confiner, given: string): Promise<OpenedFile> {
  const handle = await osCall(given, () => open(realPath, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK));
  try {
    const stat = await osCall(given, () => handle.stat());
    if (stat.isDirectory()) throw fileError('IS_DIRECTORY', given);
    if (!stat.isFile()) throw fileError('INVALID_PATH', given, 'not a regular file');
    await verifyHandle(handle, stat, realPath, confiner, given);
    return { handle, stat };
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
}

/**
 * openVerifiedForRead in synchronous calls, for the reads the gate makes on every tool call
 * (readConfined): open, fstat and the descriptor proof are metadata operations that take
 * microseconds here, while each asynchronous one costs a thread-pool round trip of 50–150 µs of
 * CPU on a loaded two-core machine (measured in docs/2026-12-03-host-metadata-calls-sync.md). Same
 * refusals as openVerifiedForRead; the caller closes the descriptor.
 */
export function openVerifiedForReadNow(realPath: string, confiner: Confiner, given: string): { readonly fd: number; readonly stat: Stats } {
  let fd: number;
  try {
    fd = openSync(realPath, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    throw fromOsError(e, given);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw fileError('IS_DIRECTORY', given);
    if (!stat.isFile()) throw fileError('INVALID_PATH', given, 'not a regular file');
    verifyDescriptorNow(fd, stat, realPath, confiner, given);
    return { fd, stat };
  } catch (e) {
    closeSync(fd);
    throw fromOsError(e, given);
  }
}

/** Exclusive-create flags for files we create ourselves (temp files, copies). */
export const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;

/** What openVerifiedForReadSync answers: a descriptor proven to be the listed file, or why not. */
export type OpenedSync =
  | { readonly ok: true; readonly fd: number; readonly stat: Stats }
  /** Gone, a link now, or no longer a regular file since the listing: a walk passes over it. */
  | { readonly ok: false; readonly skip: true }
  | { readonly ok: false; readonly skip: false; readonly error: FileAccessError };

// /proc/self/fd answers on Linux; asked once per thread (a container may hide /proc).
let procFdWorks: boolean | undefined;

/**
 * Tests and the benchmark: prove each file by realpath + identity (true), as where the kernel cannot
 * name a descriptor (Windows, macOS), or as the platform can (false, the default).
 */
export function proveByIdentity(on: boolean): void {
  procFdWorks = on ? false : undefined;
}

/**
 * openVerifiedForRead for the tree reader (read-tree.ts), in synchronous calls: open without
 * following a final link (O_NOFOLLOW), fstat, then the proof that the descriptor is the file at
 * `realPath` — on Linux the kernel's own name for the descriptor (readlink of /proc/self/fd/N),
 * elsewhere realpath + lstat identity, exactly as verifyHandle decides. `realPath` is a path the
 * walk built from a checked folder and a listed name, so a proof that the descriptor is that path
 * is a proof that it is inside the roots: no per-file realpath is needed (see
 * docs/2026-12-02-search-io.md). Outcomes the walk treats as "not a file any more" come back as
 * skip; the caller closes the descriptor of an ok result.
 */
export function openVerifiedForReadSync(realPath: string, confiner: Confiner): OpenedSync {
  // The path is built inside the roots, but the check costs nothing next to the open and keeps the
  // proof self-contained: what is proven equal to the descriptor is inside and not protected.
  if (!confiner.isInsideRoots(realPath)) return { ok: false, skip: false, error: fileError('OUTSIDE_ROOTS', realPath) };
  if (confiner.isProtected(realPath)) return { ok: false, skip: false, error: fileError('FORBIDDEN', realPath) };
  let fd: number;
  try {
    fd = openSync(realPath, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    // ELOOP: the name is a link now (O_NOFOLLOW); walk skips links, so does the reader.
    if (isErrno(e, 'ENOENT', 'ENOTDIR', 'ELOOP')) return { ok: false, skip: true };
    return { ok: false, skip: false, error: fromOsError(e, realPath) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      closeSync(fd);
      return { ok: false, skip: true };
    }
    const refusal = verifyDescriptorSync(fd, stat, realPath, confiner, realPath);
    if (refusal !== null) {
      closeSync(fd);
      return { ok: false, skip: false, error: refusal };
    }
    return { ok: true, fd, stat };
  } catch (e) {
    closeSync(fd);
    return { ok: false, skip: false, error: fromOsError(e, realPath) };
  }
}

/** verifyHandle for a descriptor, in synchronous calls: throws unless `fd` is the file at `expected`. */
export function verifyDescriptorNow(fd: number, stat: Stats, expected: string, confiner: Confiner, given: string): void {
  const refusal = verifyDescriptorSync(fd, stat, expected, confiner, given);
  if (refusal !== null) throw refusal;
}

function verifyDescriptorSync(fd: number, stat: Stats, expected: string, confiner: Confiner, given: string): FileAccessError | null {
  if (process.platform === 'linux' && procFdWorks !== false) {
    let actual: string | null = null;
    try {
      actual = readlinkSync(`/proc/self/fd/${fd}`);
      procFdWorks = true;
    } catch {
      procFdWorks = false;
    }
    if (actual !== null) return judgeOpenedPath(actual, expected, confiner, given);
  }
  let now: string;
  let entry: Stats;
  try {
    now = realpathSync.native(expected);
    entry = lstatSync(expected);
  } catch (e) {
    return identityLookupError(e, given);
  }
  return judgeIdentity(now, entry, stat, expected, confiner, given);
}
