import { createHash } from 'node:crypto';
import { u64 } from './bytes';

/**
 * Domain separation: a ledger hash can never be confused with any other SHA-256 the app computes
 * (toolset/policy digests, approval bindings), and a future format gets a new string.
 */
export const LEDGER_DOMAIN = 'baram-audit-v1';

/** prev_hash of seq 1: there is no earlier row. */
export const GENESIS_PREV_HASH = '0'.repeat(64);

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** domain ‖ 0x00: the fixed start of every preimage. */
const DOMAIN_HEAD = Buffer.from(`${LEDGER_DOMAIN}\0`, 'latin1');

/**
 * entry_hash = SHA-256(domain ‖ 0x00 ‖ seq as u64 big-endian ‖ prev_hash as 32 raw bytes ‖ body UTF-8).
 * Every field before the body has a fixed width (the domain ends at its NUL), so no two different
 * (seq, prev_hash, body) triples share an encoding.
 */
export function computeEntryHash(seq: number, prevHash: string, body: string): string {
  if (!Number.isSafeInteger(seq) || seq < 1) throw new RangeError(`Audit seq must be a positive integer, got ${seq}`);
  if (!HEX_SHA256.test(prevHash)) throw new RangeError('Audit prev_hash must be 64 lowercase hex characters');
  return createHash('sha256').update(DOMAIN_HEAD).update(u64(seq)).update(prevHash, 'hex').update(body, 'utf8').digest('hex');
}
