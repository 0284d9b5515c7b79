import type { Stats } from 'node:fs';
import { link, lstat, mkdir, open, readdir, readlink, rename, rm, symlink, type FileHandle } from 'node:fs/promises';
import type path from 'node:path';
import { commitTemp, createTemp, NO_HARD_LINKS, syncDirectory, tempNameFor } from './atomic';
import type { Confiner } from './confine';
import { lstatIfPresent, lstatOrNull } from './entries';
import { fileError, fromOsError, isErrno, osCall } from './errors';
import { CREATE_EXCLUSIVE, openVerifiedForRead } from './open-verified';
import { realForm } from '../../policy/paths';
import { assertParentDirectory } from './write';

/**
 * How symlinks inside a copied or moved tree are treated:
 *  - 'inside-only': user copies/moves; a link that would lead outside the roots from its new place
 *    refuses the whole operation (FORBIDDEN) before anything is written.
 *  - 'verbatim': Baram's own trash; links go there and come back exactly as they were.
 */
export type LinkPolicy = 'inside-only' | 'verbatim';

/** Names for error messages: the paths the caller gave (never the resolved host paths). */
interface Names {
  readonly from: string;
  readonly to: string;
}

const COPY_BUFFER_BYTES = 1024 * 1024;

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** A root, or a folder holding a root or a protected path, cannot be moved away or trashed. */
export function assertRemovable(confiner: Confiner, real: string, given: string): void {
  if (confiner.holdsGuarded(real)) throw fileError('FORBIDDEN', given, 'workspace root or protected path');
}

/**
 * Decides what an existing destination means. Returns whether it will be replaced. Only a file
 * (or link) replaces a file (or link): folders are never merged or replaced, that is a separate,
 * visible step (delete first).
 */
function decideReplace(src: Stats, dst: Stats | null, overwrite: boolean, to: string): boolean {
  if (dst === null) return false;
  // Same file under another spelling: a case-only rename on Windows ("report.txt" → "Report.txt").
  if (sameFile(src, dst)) return true;
  if (!overwrite) throw fileError('EXISTS', to);
  if (dst.isDirectory()) throw fileError('IS_DIRECTORY', to, 'a folder is never replaced');
  if (src.isDirectory()) throw fileError('EXISTS', to, 'a file is never replaced by a folder');
  return true;
}

interface Prepared {
  readonly src: string;
  readonly srcStat: Stats;
  readonly dst: string;
  readonly replace: boolean;
}

async function prepare(confiner: Confiner, names: Names, overwrite: boolean, forMove: boolean): Promise<Prepared | null> {
  const api = confiner.rules.api;
  const src = await confiner.entry(names.from);
  const srcStat = await lstatOrNull(src.path, names.from);
  if (srcStat === null) throw fileError('NOT_FOUND', names.from);
  if (forMove) assertRemovable(confiner, src.path, names.from);
  const dst = await confiner.entry(names.to);
  if (dst.path === src.path) {
    if (forMove) return null; // already there
    throw fileError('EXISTS', names.to, 'source and destination are the same');
  }
  if (srcStat.isDirectory() && confiner.rules.isInside(dst.path, src.path)) {
    throw fileError('INVALID_PATH', names.to, 'a folder cannot go inside itself');
  }
  await assertParentDirectory(api.dirname(dst.path), names.to);
  const dstStat = await lstatOrNull(dst.path, names.to);
  return { src: src.path, srcStat, dst: dst.path, replace: decideReplace(srcStat, dstStat, overwrite, names.to) };
}

export async function moveConfined(confiner: Confiner, names: Names, overwrite: boolean): Promise<void> {
  const prepared = await prepare(confiner, names, overwrite, true);
  if (prepared === null) return;
  await moveEntry(confiner, prepared.src, prepared.srcStat, prepared.dst, prepared.replace, 'inside-only', names);
}

export async function copyConfined(confiner: Confiner, names: Names, overwrite: boolean): Promise<void> {
  const prepared = await prepare(confiner, names, overwrite, false);
  if (prepared === null) return;
  await copyEntry(confiner, prepared.src, prepared.srcStat, prepared.dst, prepared.replace, 'inside-only', names);
  await syncDirectory(confiner.rules.api.dirname(prepared.dst));
}

/**
 * Moves one checked entry. Rename when possible; without `replace`, a file moves by hard link +
 * unlink, which (unlike rename) cannot clobber a file that appeared since the check. Across
 * devices (the trash on another drive): copy, then remove the source.
 */
export async function moveEntry(
  confiner: Confiner,
  src: string,
  srcStat: Stats,
  dst: string,
  replace: boolean,
  links: LinkPolicy,
  names: Names,
): Promise<void> {
  const api = confiner.rules.api;
  try {
    if (replace || !srcStat.isFile()) {
      // Folders: rename refuses a non-empty or non-folder destination, so the only thing a race
      // could replace is an empty folder. Links: link() follows them on some systems, so rename.
      if (!replace && srcStat.isSymbolicLink() && (await lstatIfPresent(dst)) !== null) throw fileError('EXISTS', names.to);
      await rename(src, dst);
    } else {
      await moveFileNoClobber(src, dst);
    }
  } catch (e) {
    if (!isErrno(e, 'EXDEV')) throw mapMoveError(e, names);
    await copyEntry(confiner, src, srcStat, dst, replace, links, names);
    try {
      await rm(src, { recursive: true, force: true });
    } catch (rmError) {
      throw fromOsError(rmError, names.from);
    }
  }
  await syncDirectory(api.dirname(dst));
  await syncDirectory(api.dirname(src));
}

async function moveFileNoClobber(src: string, dst: string): Promise<void> {
  try {
    await link(src, dst);
  } catch (e) {
    if (!isErrno(e, ...NO_HARD_LINKS)) throw e;
    // No hard links here: check, then rename. The window between the two is the best this file
    // system allows.
    if ((await lstatIfPresent(dst)) !== null) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
    await rename(src, dst);
    return;
  }
  await rm(src, { force: true });
}

function mapMoveError(e: unknown, names: Names): unknown {
  if (isErrno(e, 'EEXIST', 'ENOTEMPTY', 'ENOTDIR')) return fileError('EXISTS', names.to);
  if (isErrno(e, 'ENOENT')) return fileError('NOT_FOUND', names.from);
  return fromOsError(e, names.from);
}

/** Copies one checked entry (file, link or whole folder) to `dst`; the result appears at once. */
export async function copyEntry(
  confiner: Confiner,
  src: string,
  srcStat: Stats,
  dst: string,
  replace: boolean,
  links: LinkPolicy,
  names: Names,
): Promise<void> {
  const api = confiner.rules.api;
  const dir = api.dirname(dst);
  if (srcStat.isSymbolicLink()) {
    const linkText = await osCall(names.from, () => readlink(src));
    if (links === 'inside-only') await assertLinkStaysInside(confiner, dst, linkText, names.from);
    await placeSymlink(linkText, dst, replace, api.join(dir, tempNameFor(api.basename(dst))), names);
    return;
  }
  if (srcStat.isFile()) {
    let temp;
    try {
      temp = await createTemp(dir, api.basename(dst), api);
    } catch (e) {
      throw fromOsError(e, names.to);
    }
    let committed = false;
    try {
      await copyFileInto(confiner, src, temp.handle, names.from);
      await temp.handle.close();
      await commitTemp(temp.path, dst, replace);
      committed = true;
    } catch (e) {
      throw isErrno(e, 'EEXIST') ? fileError('EXISTS', names.to) : fromOsError(e, names.from);
    } finally {
      if (!committed) {
        await temp.handle.close().catch(() => undefined);
        await rm(temp.path, { force: true }).catch(() => undefined);
      }
    }
    return;
  }
  if (!srcStat.isDirectory()) throw fileError('INVALID_PATH', names.from, 'not a file or folder');

  const plan = await planTree(confiner, src, dst, links, names.from);
  // Built under a hidden temp name, then renamed into place: no half-copied folder is ever visible
  // under the real name, and anything that failed is removed with the temp folder.
  const tempDir = api.join(dir, tempNameFor(api.basename(dst)));
  let placed = false;
  try {
    // Folders get default permissions: copying a read-only folder's mode first would stop us
    // from filling it.
    await mkdir(tempDir);
    for (const item of plan) {
      const to = api.join(tempDir, ...item.rel);
      if (item.kind === 'directory') await mkdir(to);
      else if (item.kind === 'symlink') await symlink(item.linkText, to);
      else {
        const output = await open(to, CREATE_EXCLUSIVE, 0o600);
        try {
          await copyFileInto(confiner, api.join(src, ...item.rel), output, [names.from, ...item.rel].join('/'));
        } finally {
          await output.close();
        }
      }
    }
    await rename(tempDir, dst);
    placed = true;
  } catch (e) {
    if (isErrno(e, 'EEXIST', 'ENOTEMPTY', 'ENOTDIR')) throw fileError('EXISTS', names.to);
    throw fromOsError(e, names.from);
  } finally {
    if (!placed) await rm(tempDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function placeSymlink(linkText: string, dst: string, replace: boolean, tempPath: string, names: Names): Promise<void> {
  try {
    if (!replace) {
      await symlink(linkText, dst); // fails with EEXIST rather than clobbering
      return;
    }
    await symlink(linkText, tempPath);
    await rename(tempPath, dst);
  } catch (e) {
    await rm(tempPath, { force: true }).catch(() => undefined);
    throw isErrno(e, 'EEXIST') ? fileError('EXISTS', names.to) : fromOsError(e, names.to);
  }
}

/** A copied link must still point inside the roots when read from its new place. */
async function assertLinkStaysInside(confiner: Confiner, placedAt: string, linkText: string, given: string): Promise<void> {
  const api = confiner.rules.api;
  const resolved = realForm(api.resolve(api.dirname(placedAt), linkText), process.platform);
  if (!confiner.isInsideRoots(resolved) || confiner.isProtected(resolved)) {
    throw fileError('FORBIDDEN', given, 'symbolic link would point outside the workspace');
  }
}

/**
 * Copies a file's bytes, from a handle verified to be the checked file, into `output`; keeps
 * permissions and times (as Explorer and Finder do) and fsyncs, so a copy is never half there.
 */
async function copyFileInto(confiner: Confiner, from: string, output: FileHandle, given: string): Promise<void> {
  const { handle: input, stat } = await openVerifiedForRead(from, confiner, given);
  try {
    const buffer = Buffer.allocUnsafe(COPY_BUFFER_BYTES);
    let position = 0;
    for (;;) {
      const { bytesRead } = await input.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      await output.write(buffer, 0, bytesRead);
      position += bytesRead;
    }
    if (process.platform !== 'win32') await output.chmod(stat.mode & 0o777);
    await output.utimes(stat.atime, stat.mtime);
    await output.sync();
  } finally {
    await input.close();
  }
}

interface PlanItem {
  /** Path below the copied folder, as names. */
  readonly rel: readonly string[];
  readonly kind: 'directory' | 'file' | 'symlink';
  readonly linkText: string;
}

/**
 * Everything below `src`, parents before children, decided before anything is written: a link
 * that must not be copied, a protected path or a device file refuses the whole copy up front.
 */
async function planTree(confiner: Confiner, src: string, dst: string, links: LinkPolicy, given: string): Promise<PlanItem[]> {
  const api = confiner.rules.api;
  const plan: PlanItem[] = [];
  async function visit(rel: readonly string[]): Promise<void> {
    const names = (await readdir(api.join(src, ...rel))).sort();
    for (const name of names) {
      const childRel = [...rel, name];
      const child = api.join(src, ...childRel);
      const label = [given, ...childRel].join('/');
      // (The trash itself is protected; its own moves are 'verbatim' and exempt.)
      if (links === 'inside-only' && confiner.isProtected(child)) throw fileError('FORBIDDEN', label);
      const st = await lstat(child);
      if (st.isSymbolicLink()) {
        const linkText = await readlink(child);
        if (links === 'inside-only') await assertLinkStaysInside(confiner, api.join(dst, ...childRel), linkText, label);
        plan.push({ rel: childRel, kind: 'symlink', linkText });
      } else if (st.isDirectory()) {
        plan.push({ rel: childRel, kind: 'directory', linkText: '' });
        await visit(childRel);
      } else if (st.isFile()) {
        plan.push({ rel: childRel, kind: 'file', linkText: '' });
      } else {
        throw fileError('INVALID_PATH', label, 'not a file or folder (device, pipe or socket)');
      }
    }
  }
  try {
    await visit([]);
  } catch (e) {
    throw fromOsError(e, given);
  }
  return plan;
}

/** Total bytes of the files in a tree (links not followed): what the trash reports for a folder. */
export async function treeSize(dir: string, api: path.PlatformPath): Promise<number> {
  let total = 0;
  for (const dirent of await readdir(dir, { withFileTypes: true })) {
    const child = api.join(dir, dirent.name);
    if (dirent.isDirectory()) total += await treeSize(child, api);
    else {
      const st = await lstatIfPresent(child);
      if (st?.isFile() === true) total += st.size;
    }
  }
  return total;
}
