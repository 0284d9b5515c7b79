import { rm } from 'node:fs/promises';
import { commitTemp, createTemp, syncDirectory } from './atomic';
import type { Confiner } from './confine';
import { lstatOrNull } from './entries';
import { fileError, fromOsError, osCall } from './errors';
import { verifyHandle } from './open-verified';

/** The directory a new entry goes into must already exist (mkdir is a separate, approved step). */
export async function assertParentDirectory(dir: string, given: string): Promise<void> {
  const parent = await lstatOrNull(dir, given);
  if (parent === null) throw fileError('NOT_FOUND', given, 'parent folder does not exist');
  if (!parent.isDirectory()) throw fileError('NOT_DIRECTORY', given, 'parent is not a folder');
}

/**
 * Atomic write: temp file in the target's real directory, write, fsync, then rename (or link when
 * overwriting is not allowed). A symlink at the target that stays inside the roots is written
 * through (its target is replaced), as editors do; one that leads outside was refused by the check.
 */
export async function writeConfined(
  confiner: Confiner,
  given: string,
  data: Uint8Array | string,
  overwrite: boolean,
): Promise<void> {
  const api = confiner.rules.api;
  const target = await confiner.target(given);
  const dir = api.dirname(target.path);
  await assertParentDirectory(dir, given);
  const existing = await lstatOrNull(target.path, given);
  if (existing?.isDirectory()) throw fileError('IS_DIRECTORY', given);
  if (existing !== null && !overwrite) throw fileError('EXISTS', given);
  // An overwritten file keeps its permissions (a shared file stays shared, a private one private).
  const keepMode = existing?.isFile() ? existing.mode & 0o7777 : undefined;

  const temp = await osCall(given, () => createTemp(dir, api.basename(target.path), api));
  let committed = false;
  try {
    const tempStat = await temp.handle.stat();
    // The temp file must have landed in the checked directory, not behind a link swapped in since.
    await verifyHandle(temp.handle, tempStat, temp.path, confiner, given);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    await temp.handle.writeFile(bytes);
    if (keepMode !== undefined && process.platform !== 'win32') await temp.handle.chmod(keepMode);
    await temp.handle.sync();
    await temp.handle.close();
    await commitTemp(temp.path, target.path, overwrite);
    committed = true;
  } catch (e) {
    throw fromOsError(e, given);
  } finally {
    if (!committed) {
      await temp.handle.close().catch(() => undefined);
      await rm(temp.path, { force: true }).catch(() => undefined);
    }
  }
  await syncDirectory(dir);
}
