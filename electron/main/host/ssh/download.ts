import { lstat, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SFTPWrapper, Stats } from 'ssh2';
import type { SshFailed, SshRefused } from '../../../common/ssh-capability';
import { commitTemp, createTemp, syncDirectory, type TempFile } from '../files/atomic';
import { isErrno } from '../files/errors';
import { CallStopped, type CallLimits } from './call-limits';
import type { OpenConnection } from './connect';
import { sshText } from './messages';

export interface DownloadPlan {
  readonly hostName: string;
  readonly remotePath: string;
  readonly localPath: string;
  readonly overwrite: boolean;
  readonly maxBytes: number;
}

export type DownloadEnd = { readonly kind: 'downloaded'; readonly bytes: number } | SshRefused | SshFailed;

/** Remote paths are opaque to us, but a NUL would cut the string on the server side. */
const MAX_REMOTE_PATH_LENGTH = 4096;

/**
 * Checks the local destination before any connection is made. The caller (FileAccess) has already
 * confined `localPath` to the workspace roots; this is the second line: the path must be absolute
 * and free of `..` segments and NUL (so it cannot mean something else than what was confined), its
 * folder must exist, and an existing file (or link) there is not replaced unless asked.
 */
export async function checkLocalTarget(localPath: string, overwrite: boolean): Promise<SshRefused | null> {
  const segments = localPath.split(/[\\/]/);
  if (!path.isAbsolute(localPath) || localPath.includes('\u0000') || segments.includes('..') || path.basename(localPath) === '' || /[\\/]$/.test(localPath)) {
    return { kind: 'refused', reason: 'invalid-path', message: sshText.invalidLocalPath() };
  }
  try {
    if (!(await stat(path.dirname(localPath))).isDirectory()) throw new Error('not a directory');
  } catch {
    return { kind: 'refused', reason: 'invalid-path', message: sshText.localFolderMissing(localPath) };
  }
  if (!overwrite && (await exists(localPath))) return { kind: 'refused', reason: 'local-exists', message: sshText.localExists(localPath) };
  return null;
}

export function checkRemotePath(remotePath: string): SshRefused | null {
  if (remotePath.trim() === '' || remotePath.includes('\u0000') || remotePath.length > MAX_REMOTE_PATH_LENGTH) {
    return { kind: 'refused', reason: 'invalid-path', message: sshText.invalidRemotePath() };
  }
  return null;
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch (e) {
    return !isErrno(e, 'ENOENT');
  }
}

/**
 * 32 KiB is what every SFTP server accepts in one READ (OpenSSH allows 256 KiB, the RFC draft
 * only guarantees 32 KiB), so each request is answered in full.
 */
const READ_CHUNK_BYTES = 32 * 1024;

/**
 * Copies one remote regular file into a temp file next to localPath, then renames it into place.
 * The size cap is checked three times: by stat before opening (a file known to be too large is
 * never read), by fstat of the opened handle (the path may have been replaced in between), and
 * while reading (the file may grow): no more than cap + 1 bytes are ever requested, and the
 * (cap + 1)th byte aborts the transfer and removes the temp file. Nothing partial is ever visible
 * at localPath. Throws CallStopped when the deadline passes or the user stops the call.
 */
export async function downloadOverSftp(connection: OpenConnection, plan: DownloadPlan, limits: CallLimits): Promise<DownloadEnd> {
  const { hostName, remotePath, maxBytes } = plan;
  let sftp: SFTPWrapper;
  try {
    sftp = await limits.race(sftpCall<SFTPWrapper>((cb) => connection.client.sftp(cb)));
  } catch (e) {
    rethrowStop(e);
    return { kind: 'failed', reason: 'channel', message: sshText.channelRefused(hostName, 'sftp') };
  }

  let remoteHandle: Buffer | null = null;
  let temp: TempFile | null = null;
  let committed = false;
  try {
    const byPath = await limits.race(sftpCall<Stats>((cb) => sftp.stat(remotePath, cb)));
    const pathVerdict = judgeRemoteFile(byPath, plan);
    if (pathVerdict !== null) return pathVerdict;

    remoteHandle = await limits.race(sftpCall<Buffer>((cb) => sftp.open(remotePath, 'r', cb)));
    const handle = remoteHandle;
    const opened = await limits.race(sftpCall<Stats>((cb) => sftp.fstat(handle, cb)));
    const handleVerdict = judgeRemoteFile(opened, plan);
    if (handleVerdict !== null) return handleVerdict;

    const dir = path.dirname(plan.localPath);
    try {
      temp = await createTemp(dir, path.basename(plan.localPath), path);
    } catch {
      return { kind: 'failed', reason: 'local-io', message: sshText.localIo(plan.localPath) };
    }

    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let received = 0;
    for (;;) {
      const want = Math.min(READ_CHUNK_BYTES, maxBytes + 1 - received);
      const got = await limits.race(readChunk(sftp, handle, buffer, want, received));
      if (got === 0) break;
      received += got;
      if (received > maxBytes) return { kind: 'refused', reason: 'too-large', message: sshText.tooLarge(remotePath, null, maxBytes) };
      try {
        await temp.handle.write(buffer, 0, got);
      } catch {
        return { kind: 'failed', reason: 'local-io', message: sshText.localIo(plan.localPath) };
      }
    }

    try {
      await temp.handle.sync();
      await temp.handle.close();
      await commitTemp(temp.path, plan.localPath, plan.overwrite);
      committed = true;
      await syncDirectory(dir);
    } catch (e) {
      if (isErrno(e, 'EEXIST')) return { kind: 'refused', reason: 'local-exists', message: sshText.localExists(plan.localPath) };
      return { kind: 'failed', reason: 'local-io', message: sshText.localIo(plan.localPath) };
    }
    return { kind: 'downloaded', bytes: received };
  } catch (e) {
    rethrowStop(e);
    return remoteFailure(e, hostName, remotePath);
  } finally {
    if (temp !== null && !committed) {
      await temp.handle.close().catch(() => undefined);
      await rm(temp.path, { force: true }).catch(() => undefined);
    }
    // Closing the remote handle and the SFTP channel is a courtesy: the connection ends next anyway.
    if (remoteHandle !== null) sftp.close(remoteHandle, () => undefined);
    sftp.end();
  }
}

function judgeRemoteFile(stats: Stats, plan: DownloadPlan): SshRefused | null {
  if (!stats.isFile()) return { kind: 'refused', reason: 'not-a-file', message: sshText.notAFile(plan.remotePath) };
  if (stats.size > plan.maxBytes) {
    return { kind: 'refused', reason: 'too-large', message: sshText.tooLarge(plan.remotePath, stats.size, plan.maxBytes) };
  }
  return null;
}

/** SFTP status NO_SUCH_FILE (draft-ietf-secsh-filexfer-02 §7). */
const SFTP_NO_SUCH_FILE = 2;

function remoteFailure(e: unknown, hostName: string, remotePath: string): SshFailed {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === SFTP_NO_SUCH_FILE) return { kind: 'failed', reason: 'remote-not-found', message: sshText.remoteNotFound(remotePath) };
  // Any other status (3 permission denied, 4 failure, …) is the server declining to hand the file out.
  if (typeof code === 'number') return { kind: 'failed', reason: 'remote-denied', message: sshText.remoteDenied(remotePath) };
  return { kind: 'failed', reason: 'connection-lost', message: sshText.connectionLost(hostName) };
}

function rethrowStop(e: unknown): void {
  if (e instanceof CallStopped) throw e;
}

function sftpCall<T>(start: (callback: (err: Error | undefined, value: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    try {
      start((err, value) => (err ? reject(err) : resolve(value)));
    } catch (e) {
      // ssh2 throws synchronously when the connection is already gone.
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}

function readChunk(sftp: SFTPWrapper, handle: Buffer, buffer: Buffer, length: number, position: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    try {
      // ssh2 reports end of file as 0 bytes read, not as an error.
      sftp.read(handle, buffer, 0, length, position, (err, bytesRead) => (err ? reject(err) : resolve(bytesRead)));
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}
