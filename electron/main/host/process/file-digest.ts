import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * SHA-256 of program files for the audit record (SPEC S-SHELL: "the resolved absolute path is
 * recorded", and its digest tells auditors WHICH git ran). Cached by path, size, mtime and inode:
 * hashing /usr/bin/git (≈4 MB) costs ≈10 ms, paid once per program version rather than per call.
 */
export interface DigestKey {
  readonly realPath: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

/** A session runs a handful of programs; the bound only stops a pathological policy from growing it. */
const MAX_ENTRIES = 256;

export class ProgramDigests {
  private readonly cache = new Map<string, string>();

  async sha256(key: DigestKey): Promise<string> {
    const id = `${key.realPath}\u0000${key.size}\u0000${key.mtimeMs}\u0000${key.ino}`;
    const hit = this.cache.get(id);
    if (hit !== undefined) return hit;
    const digest = await hashFile(key.realPath);
    if (this.cache.size >= MAX_ENTRIES) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(id, digest);
    return digest;
  }
}

function hashFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
