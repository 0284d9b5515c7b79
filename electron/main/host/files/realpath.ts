import { lstat, readlink, realpath } from 'node:fs/promises';
import type path from 'node:path';
import { isErrno } from './errors';

// Linux gives up after 40 links (MAXSYMLINKS); so do we.
const MAX_LINK_HOPS = 40;

class LinkLoopError extends Error {
  readonly code = 'ELOOP';
}

/**
 * realpath of the longest existing prefix, with the missing rest appended. A dangling symlink on
 * the way is followed lexically (its target may not exist yet), so "ws/link → /etc/new" resolves to
 * /etc/new and is judged outside, exactly as it would be once the target exists.
 */
export async function realpathLenient(abs: string, api: path.PlatformPath, hops = 0): Promise<string> {
  try {
    return await realpath(abs);
  } catch (e) {
    if (!isErrno(e, 'ENOENT', 'ENOTDIR')) throw e;
  }
  const parent = api.dirname(abs);
  if (parent === abs) return abs;
  const realParent = await realpathLenient(parent, api, hops);
  const candidate = api.join(realParent, api.basename(abs));
  let isLink: boolean;
  try {
    isLink = (await lstat(candidate)).isSymbolicLink();
  } catch (e) {
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) return candidate;
    throw e;
  }
  if (!isLink) return candidate;
  if (hops >= MAX_LINK_HOPS) throw new LinkLoopError('too many symbolic links');
  const target = await readlink(candidate);
  return realpathLenient(api.resolve(realParent, target), api, hops + 1);
}
