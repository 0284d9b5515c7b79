import { createHash } from 'node:crypto';

/** SHA-256 as lowercase hex (node:crypto). The gate's argument, approval and output digests. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
