import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import type { EntryType, FileInfo, Fingerprint } from '../../../common/file-access';
import type { Confiner } from './confine';
import { fromOsError, isErrno } from './errors';

/**
 * What a walk needs of a listed entry (node:fs Dirents have it).
 */
export interface ListedEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isBlockDevice(): boolean;
  isCharacterDevice(): boolean;
}

export function entryType(st: Stats | ListedEntry): EntryType {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isDirectory()) return 'directory';
  if (st.isFile()) return 'file';
  return 'other';
}

export function toFileInfo(p: string, st: Stats): FileInfo {
  return {
    path: p,
    type: entryType(st),
    size: st.size,
    mtimeMs: st.mtimeMs,
    birthtimeMs: st.birthtimeMs,
    // Windows has no POSIX permission bits; Node only approximates them from the read-only flag.
    mode: process.platform === 'win32' ? 0 : st.mode & 0o7777,
  };
}

export function toFingerprint(st: Stats): Fingerprint {
  return { type: entryType(st), size: st.size, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino };
}

/**
 * lstat, or null when nothing is there; other errors become FileAccessErrors about `given`.
 * Synchronous for the same reason as policy/paths.ts realForm: a single metadata call per tool call
 * (precheck, plan fingerprints) costs a few µs in place but a thread-pool round trip when async.
 */
export async function lstatOrNull(p: string, given: string): Promise<Stats | null> {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) ?? null;
  } catch (e) {
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) return null;
    throw fromOsError(e, given);
  }
}

/** lstat, or null when the entry vanished in the meantime (another program deleted it). */
export async function lstatIfPresent(p: string): Promise<Stats | null> {
  try {
    return await lstat(p);
  } catch (e) {
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) return null;
    throw e;
  }
}

/**
 * For walks made of synchronous calls: a function to await between steps that hands the event
 * loop back (a macrotask, so timers and I/O callbacks run) once every `steps` calls.
 */
export function yieldEvery(steps: number): () => Promise<void> {
  let count = 0;
  return () => (++count % steps === 0 ? new Promise<void>((resolve) => setImmediate(resolve)) : Promise.resolve());
}

/** A sub-folder we may not read (permissions) is passed over during a traversal, not fatal to it. */
export function isUnreadable(e: unknown): boolean {
  return isErrno(e, 'EACCES', 'EPERM');
}

export function compareNames(a: string, b: string): number {
  // Code-unit order: deterministic everywhere, and Hangul syllables are already in 가나다 order.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sort key that puts folders before files, each group by name. */
export function compareDirentsFoldersFirst(a: Dirent, b: Dirent): number {
  const da = a.isDirectory() ? 0 : 1;
  const db = b.isDirectory() ? 0 : 1;
  return da - db || compareNames(a.name, b.name);
}

/**
 * Reads one directory we reached without following links. Returns null if the directory is gone,
 * or if it no longer resolves to itself: a folder swapped for a symlink between the parent's
 * listing and this read would otherwise take the traversal outside the roots. One realpath per
 * directory, not per file, keeps this cheap on the search hot path. Synchronous, as every walk's
 * metadata calls are (docs/2026-12-03-host-metadata-calls-sync.md).
 */
export function readDirectoryCheckedSync(dir: string, confiner: Confiner): Dirent[] | null {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) return null;
    throw e;
  }
  if (!confiner.stillResolvesToSync(dir)) return null;
  return dirents;
}

/** True when the listing did not say what a dirent is ("unknown"), so only an lstat can tell. */
export function hasUnknownType(dirent: ListedEntry): boolean {
  return (
    entryType(dirent) === 'other' && !dirent.isFIFO() && !dirent.isSocket() && !dirent.isBlockDevice() && !dirent.isCharacterDevice()
  );
}

/**
 * Dirent types come from the directory itself; a few file systems (some network shares, old XFS)
 * report "unknown", and then only an lstat can tell.
 */
export function resolveUnknownTypeSync(dirent: ListedEntry, p: string): EntryType | null {
  if (!hasUnknownType(dirent)) return entryType(dirent);
  let st: Stats;
  try {
    st = lstatSync(p);
  } catch (e) {
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) return null;
    throw e;
  }
  return entryType(st);
}
