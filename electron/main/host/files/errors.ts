import { FileAccessError, type FileErrorCode } from '../../../common/file-access';

/** A Node system error (ENOENT, EACCES, …) as thrown by node:fs. */
export interface ErrnoError extends Error {
  readonly code: string;
}

export function isErrno(e: unknown, ...codes: string[]): e is ErrnoError {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && (codes.length === 0 || codes.includes(code));
}

export function fileError(code: FileErrorCode, given: string, reason?: string): FileAccessError {
  return new FileAccessError(code, given, reason === undefined ? `${code}: ${given}` : `${code}: ${given} (${reason})`);
}

/**
 * Maps an OS error to a FileAccessError about the path the caller gave. The OS message is dropped on
 * purpose: it carries the resolved host path (user names, drive layout), which the model must not
 * see; only the errno name survives, for the log.
 */
export function fromOsError(e: unknown, given: string): FileAccessError {
  if (e instanceof FileAccessError) return e;
  if (!isErrno(e)) return fileError('IO', given);
  switch (e.code) {
    case 'ENOENT':
      return fileError('NOT_FOUND', given);
    case 'EEXIST':
    case 'ENOTEMPTY':
      return fileError('EXISTS', given);
    case 'EISDIR':
      return fileError('IS_DIRECTORY', given);
    case 'ENOTDIR':
      return fileError('NOT_DIRECTORY', given);
    case 'ELOOP':
      // Every path we open is realpath'd first, so a link where the check saw none means the
      // path changed under us; O_NOFOLLOW turned that into ELOOP. Treat it as an escape attempt.
      return fileError('OUTSIDE_ROOTS', given, 'symbolic link appeared');
    case 'ENAMETOOLONG':
    case 'EINVAL':
      return fileError('INVALID_PATH', given, e.code);
    case 'EFBIG':
      return fileError('TOO_LARGE', given);
    default:
      return fileError('IO', given, e.code);
  }
}

/** Runs an fs operation and rethrows OS errors as FileAccessErrors about `given`. */
export async function osCall<T>(given: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    throw fromOsError(e, given);
  }
}
