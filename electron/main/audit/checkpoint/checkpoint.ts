import { createHash } from 'node:crypto';
import { u64 } from '../ledger/bytes';
import type { LedgerHead } from '../ledger/rows';
import { deriveKey, textMac, type SealKey } from '../ledger/seal-key';
import { readCheckpointFields } from './checkpoint-text';

/**
 * A checkpoint in the C2SP tlog-checkpoint layout (https://c2sp.org/tlog-checkpoint): origin line,
 * tree size, base64 root hash, extension lines, a blank line, then signed-note signature lines
 * `— <name> <base64(key id ‖ signature)>`. Our "tree" is the hash chain, so the size is the last seq
 * and the root hash is that row's entry_hash. The signature is an HMAC under the day's sealing key
 * (key id 4 bytes ‖ epoch u64 ‖ HMAC-SHA256), checkable by whoever holds the verification key.
 *
 * Printed or photographed (qr.ts) and kept off the machine, a checkpoint makes truncation and a
 * rewritten chain visible even to a verifier without the key.
 */
const SIGNATURE_DOMAIN = 'baram-audit-checkpoint-v1';
const KEY_ID_DOMAIN = 'baram-audit-checkpoint-key-id-v1';

export interface Checkpoint {
  readonly origin: string;
  /** The last seq the checkpoint covers. */
  readonly size: number;
  /** entry_hash of row `size`, hex. */
  readonly rootHash: string;
  /** `time <ISO>` and any other extension lines, as written. */
  readonly extensions: readonly string[];
  readonly signature?: { readonly name: string; readonly epoch: number; readonly mac: Buffer; readonly base64: string };
  /** The note body the signature covers (everything before the blank line, newline-terminated). */
  readonly body: string;
}

export function checkpointOrigin(hostId: string): string {
  return `baram.audit/${hostId}`;
}

/** The text of a checkpoint of `head`, signed with `key` (the sealing key of the current day). */
export function formatCheckpoint(origin: string, head: LedgerHead, time: Date, key: SealKey): string {
  const body = `${origin}\n${head.seq}\n${Buffer.from(head.entryHash, 'hex').toString('base64')}\ntime ${time.toISOString()}\n`;
  const signature = Buffer.concat([keyId(origin), u64(key.epoch), textMac(key, SIGNATURE_DOMAIN, body)]);
  return `${body}\n\u2014 ${origin} ${signature.toString('base64')}\n`;
}

export { CheckpointFormatError } from './checkpoint-text';

/**
 * Reads a checkpoint as written, pasted with the command's output around it, or typed back from
 * paper (checkpoint-text.ts); `body` is the canonical note body, so the signature is checked over
 * what formatCheckpoint signed whatever the typography. Throws CheckpointFormatError.
 */
export function parseCheckpoint(text: string): Checkpoint {
  const fields = readCheckpointFields(text);
  const signature = fields.signatures.find((s) => s.name.toLowerCase() === fields.origin.toLowerCase());
  const decoded = signature ? decodeSignature(fields.origin, signature.base64) : undefined;
  return {
    origin: fields.origin,
    size: fields.size,
    rootHash: Buffer.from(fields.rootBase64, 'base64').toString('hex'),
    extensions: fields.extensions,
    body: checkpointBody(fields.origin, fields.size, fields.rootBase64, fields.extensions),
    ...(decoded ? { signature: decoded } : {}),
  };
}

/** The note body the signature covers, exactly as formatCheckpoint lays it out. */
export function checkpointBody(origin: string, size: number, rootBase64: string, extensions: readonly string[]): string {
  return [origin, String(size), rootBase64, ...extensions].map((line) => `${line}\n`).join('');
}

/** `checkpoint` with another root hash (a mistyped hash line corrected), its body re-laid. */
export function withRootHash(checkpoint: Checkpoint, rootHash: string): Checkpoint {
  const body = checkpointBody(checkpoint.origin, checkpoint.size, Buffer.from(rootHash, 'hex').toString('base64'), checkpoint.extensions);
  return { ...checkpoint, rootHash, body };
}

/** The base64 signature Baram would have written for `checkpoint`'s body in `epoch` (≥ the key's). */
export function expectedSignatureBase64(checkpoint: Checkpoint, verificationKey: SealKey, epoch: number): string | undefined {
  if (epoch < verificationKey.epoch) return undefined;
  const key = deriveKey(verificationKey, epoch);
  try {
    return Buffer.concat([keyId(checkpoint.origin), u64(epoch), textMac(key, SIGNATURE_DOMAIN, checkpoint.body)]).toString('base64');
  } finally {
    key.key.fill(0);
  }
}

/** True when the checkpoint carries a Baram signature that the verification key confirms. */
export function checkpointSignatureValid(checkpoint: Checkpoint, verificationKey: SealKey): boolean {
  const signature = checkpoint.signature;
  if (!signature || signature.epoch < verificationKey.epoch) return false;
  const key = deriveKey(verificationKey, signature.epoch);
  try {
    return textMac(key, SIGNATURE_DOMAIN, checkpoint.body).equals(signature.mac);
  } finally {
    key.key.fill(0);
  }
}

function decodeSignature(name: string, base64: string): { name: string; epoch: number; mac: Buffer; base64: string } | undefined {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== 4 + 8 + 32) return undefined;
  return { name, epoch: Number(bytes.readBigUInt64BE(4)), mac: bytes.subarray(12), base64 };
}

function keyId(origin: string): Buffer {
  return createHash('sha256').update(KEY_ID_DOMAIN).update(origin).digest().subarray(0, 4);
}
