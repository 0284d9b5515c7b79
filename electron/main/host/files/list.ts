import type { FileInfo } from '../../../common/file-access';
import type { Confiner } from './confine';
import { compareDirentsFoldersFirst, isUnreadable, lstatOrNull, readDirectoryCheckedSync, toFileInfo, yieldEvery } from './entries';
import { fileError, fromOsError } from './errors';

/** Default cap on entries returned; a listing is for a model's context, never for a whole disk. */
export const DEFAULT_LIST_MAX_ENTRIES = 10_000;

/**
 * Lists a folder: folders first, then files, each by name. Recursive listings are depth-first,
 * with each folder's contents right after it. Symlinks are listed as 'symlink' and never entered;
 * protected folders are listed but not entered. At most `maxEntries` are returned: ask for one
 * more than you will show to learn whether there were more.
 */
export async function listConfined(
  confiner: Confiner,
  given: string,
  options: { readonly recursive?: boolean; readonly maxEntries?: number },
  skip?: (absolutePath: string) => boolean,
): Promise<FileInfo[]> {
  const limit = options.maxEntries ?? DEFAULT_LIST_MAX_ENTRIES;
  const start = await confiner.target(given);
  const startStat = await lstatOrNull(start.path, given);
  if (startStat === null) throw fileError('NOT_FOUND', given);
  if (!startStat.isDirectory()) throw fileError('NOT_DIRECTORY', given);

  const out: FileInfo[] = [];
  const api = confiner.rules.api;
  // Synchronous calls, the event loop handed back between folders and every 512 entries, as in
  // walk.ts (docs/2026-12-03-host-metadata-calls-sync.md).
  const pause = yieldEvery(512);

  async function visit(dir: string, top: boolean): Promise<void> {
    let dirents;
    try {
      await pause();
      dirents = readDirectoryCheckedSync(dir, confiner);
    } catch (e) {
      if (!top && isUnreadable(e)) return;
      throw fromOsError(e, given);
    }
    if (dirents === null) {
      if (top) throw fileError('CHANGED', given, 'folder changed while listing');
      return;
    }
    if (skip !== undefined) dirents = dirents.filter((d) => !skip(api.join(dir, d.name)));
    dirents.sort(compareDirentsFoldersFirst);
    const room = limit - out.length;
    const chosen = dirents.slice(0, Math.max(0, room));
    for (const dirent of chosen) {
      await pause();
      const st = await lstatOrNull(api.join(dir, dirent.name), given);
      if (st === null) continue; // deleted since the directory was read
      const child = api.join(dir, dirent.name);
      out.push(toFileInfo(child, st));
      if (out.length >= limit) return;
      if (options.recursive === true && st.isDirectory() && !confiner.isProtected(child)) await visit(child, false);
      if (out.length >= limit) return;
    }
  }

  try {
    await visit(start.path, true);
  } catch (e) {
    throw fromOsError(e, given);
  }
  return out;
}
