import { randomBytes } from 'node:crypto';
import { closeSync, fsync, linkSync, openSync, renameSync, rmSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import type path from 'node:path';
import { promisify } from 'node:util';
import { isErrno } from './errors';
import { CREATE_EXCLUSIVE } from './open-verified';

/**
 * Building blocks of atomic writes: a temp file next to the target, then one rename (or link) that
 * makes the whole new content appear at once. Readers see the old file or the new one, never a
 * half-written one, even if the process dies mid-write.
 */

export interface TempFile {
  readonly path: string;
  readonly handle: FileHandle;
}

/** Room for the random part and suffix within the usual 255-byte name limit, even for Hangul (3 bytes each in UTF-8). */
const TEMP_NAME_KEEP = 24;

export function tempNameFor(baseName: string): string {
  const stem = [...baseName].slice(0, TEMP_NAME_KEEP).join('');
  // Leading dot: hidden from walk/glob by default, so a search never reports a write in progress.
  return `.${stem}.${randomBytes(6).toString('hex')}.baram-tmp`;
}

/**
 * Names, links and descriptors are handled in synchronous calls below: each is a metadata
 * operation of microseconds, and an asynchronous one costs a thread-pool round trip of more CPU
 * than the operation itself (docs/2026-12-03-host-metadata-calls-sync.md). Data and fsync stay
 * asynchronous: they can take milliseconds and must not hold up the main process.
 */
export const fsyncAsync = promisify(fsync);

/** A temp file opened by descriptor (createTempNow); the caller closes `fd`. */
export interface TempDescriptor {
  readonly path: string;
  readonly fd: number;
}

/** createTemp in one synchronous open, for the gate's own writes (writeConfined). */
export function createTempNow(dir: string, baseName: string, api: path.PlatformPath, mode = 0o666): TempDescriptor {
  for (let attempt = 0; ; attempt++) {
    const tempPath = api.join(dir, tempNameFor(baseName));
    try {
      return { path: tempPath, fd: openSync(tempPath, CREATE_EXCLUSIVE, mode) };
    } catch (e) {
      if (!isErrno(e, 'EEXIST') || attempt >= 3) throw e;
    }
  }
}

/** Creates a new temp file in `dir` (exclusive create, never follows a link). */
export async function createTemp(dir: string, baseName: string, api: path.PlatformPath, mode = 0o666): Promise<TempFile> {
  for (let attempt = 0; ; attempt++) {
    const tempPath = api.join(dir, tempNameFor(baseName));
    try {
      return { path: tempPath, handle: await open(tempPath, CREATE_EXCLUSIVE, mode) };
    } catch (e) {
      // 48 random bits make a collision all but impossible; retry a little anyway.
      if (!isErrno(e, 'EEXIST') || attempt >= 3) throw e;
    }
  }
}

// Errors meaning "this file system has no hard links" (FAT/exFAT sticks, some network shares).
export const NO_HARD_LINKS: readonly string[] = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EACCES'];

/**
 * Puts a finished temp file at `dest`. With overwrite, rename replaces atomically. Without, a hard
 * link is the atomic "create only if absent" (rename would silently clobber a file that appeared
 * since our check). Where hard links are unsupported, an exclusively created placeholder reserves
 * the name first: a crash can then leave an empty file, but never destroys someone else's.
 * Throws EEXIST (as an errno error) when the name is taken.
 */
export async function commitTemp(tempPath: string, dest: string, overwrite: boolean): Promise<void> {
  if (overwrite) {
    renameSync(tempPath, dest);
    return;
  }
  try {
    linkSync(tempPath, dest);
  } catch (e) {
    if (!isErrno(e, ...NO_HARD_LINKS)) throw e;
    closeSync(openSync(dest, CREATE_EXCLUSIVE, 0o600));
    try {
      renameSync(tempPath, dest);
    } catch (renameError) {
      rmSync(dest, { force: true });
      throw renameError;
    }
    return;
  }
  rmSync(tempPath, { force: true });
}

/** Makes a rename durable: on POSIX the new directory entry is only safe once the directory is fsync'd. */
export async function syncDirectory(dir: string): Promise<void> {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    await fsyncAsync(fd);
  } catch {
    // Windows cannot open a directory this way (and NTFS journals the rename itself).
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes our own bookkeeping files (trash metadata) atomically and durably; no confinement involved. */
export async function writeFileDurably(filePath: string, data: string, api: path.PlatformPath): Promise<void> {
  const dir = api.dirname(filePath);
  const temp = await createTemp(dir, api.basename(filePath), api, 0o600);
  try {
    await temp.handle.writeFile(data, 'utf8');
    await temp.handle.sync();
    await temp.handle.close();
    await rename(temp.path, filePath);
  } catch (e) {
    await temp.handle.close().catch(() => undefined);
    await rm(temp.path, { force: true });
    throw e;
  }
  await syncDirectory(dir);
}
