import { closeSync, fchmodSync, fstatSync, rmSync, write, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { commitTemp, createTempNow, fsyncAsync, syncDirectory, type TempDescriptor } from './atomic';
import type { Confiner } from './confine';
import { lstatOrNull } from './entries';
import { fileError, fromOsError } from './errors';
import { verifyDescriptorNow } from './open-verified';

const writeAsync = promisify(write);

/** Content up to this size is written in one synchronous call; more goes asynchronously (see atomic.ts). */
const WRITE_NOW_MAX = 256 * 1024;

async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const rest = bytes.length - done;
    done += rest <= WRITE_NOW_MAX ? writeSync(fd, bytes, done, rest) : (await writeAsync(fd, bytes, done, rest)).bytesWritten;
  }
}

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

  let temp: TempDescriptor;
  try {
    temp = createTempNow(dir, api.basename(target.path), api);
  } catch (e) {
    throw fromOsError(e, given);
  }
  let open = true;
  let committed = false;
  try {
    // The temp file must have landed in the checked directory, not behind a link swapped in since.
    verifyDescriptorNow(temp.fd, fstatSync(temp.fd), temp.path, confiner, given);
    await writeAll(temp.fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    if (keepMode !== undefined && process.platform !== 'win32') fchmodSync(temp.fd, keepMode);
    await fsyncAsync(temp.fd);
    open = false;
    closeSync(temp.fd);
    await commitTemp(temp.path, target.path, overwrite);
    committed = true;
  } catch (e) {
    throw fromOsError(e, given);
  } finally {
    if (!committed) cleanUp(temp, open);
  }
  await syncDirectory(dir);
}

/** After a failed write: close and remove the temp file, quietly (the write's own error is what counts). */
function cleanUp(temp: TempDescriptor, open: boolean): void {
  try {
    if (open) closeSync(temp.fd);
    rmSync(temp.path, { force: true });
  } catch {
    // A temp file left behind is hidden (leading dot) and named .baram-tmp.
  }
}
