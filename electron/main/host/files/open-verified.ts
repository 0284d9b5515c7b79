import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import type { Confiner } from './confine';
import { fileError, isErrno, osCall } from './errors';

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
  if (actual === expected) return;
  throw fileError(confiner.isInsideRoots(actual) ? 'CHANGED' : 'OUTSIDE_ROOTS', given, 'opened file is not the checked one');
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
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) throw fileError('CHANGED', given, 'file vanished while opening');
    throw fileError('IO', given, isErrno(e) ? e.code : undefined);
  }
  if (now !== expected) throw fileError(confiner.isInsideRoots(now) ? 'CHANGED' : 'OUTSIDE_ROOTS', given, 'path changed while opening');
  if (entry.dev !== handleStat.dev || entry.ino !== handleStat.ino) throw fileError('CHANGED', given, 'file replaced while opening');
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

/** Exclusive-create flags for files we create ourselves (temp files, copies). */
export const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;
