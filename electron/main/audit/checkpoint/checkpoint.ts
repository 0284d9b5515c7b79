import { createHash } from 'node:crypto';
import { u64 } from '../ledger/bytes';
import type { LedgerHead } from '../ledger/rows';
import { deriveKey, textMac, type SealKey } from '../ledger/seal-key';

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
  readonly signature?: { readonly name: string; readonly epoch: number; readonly mac: Buffer };
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

export class CheckpointFormatError extends Error {}

export function parseCheckpoint(text: string): Checkpoint {
  const normalized = text.replace(/\r\n/g, '\n');
  const split = normalized.indexOf('\n\n');
  if (split < 0) throw formatError('there is no blank line between the checkpoint body and its signature');
  const body = normalized.slice(0, split + 1);
  const [origin, sizeLine, hashLine, ...extensions] = body.slice(0, -1).split('\n');
  if (!origin || /\s/.test(origin)) throw formatError('the first line must be the origin (no spaces)');
  if (!sizeLine || !/^\d{1,15}$/.test(sizeLine)) throw formatError('the second line must be the number of records (seq)');
  const root = Buffer.from(hashLine ?? '', 'base64');
  if (root.length !== 32 || root.toString('base64') !== hashLine) throw formatError('the third line must be a base64 SHA-256 hash');
  const signature = normalized
    .slice(split + 2)
    .split('\n')
    .map((line) => /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line))
    .find((m) => m?.[1] === origin);
  return {
    origin,
    size: Number(sizeLine),
    rootHash: root.toString('hex'),
    extensions,
    body,
    ...(signature ? { signature: decodeSignature(signature[1] ?? '', signature[2] ?? '') } : {}),
  };
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

function decodeSignature(name: string, base64: string): { name: string; epoch: number; mac: Buffer } | undefined {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== 4 + 8 + 32) return undefined;
  return { name, epoch: Number(bytes.readBigUInt64BE(4)), mac: bytes.subarray(12) };
}

function keyId(origin: string): Buffer {
  return createHash('sha256').update(KEY_ID_DOMAIN).update(origin).digest().subarray(0, 4);
}

function formatError(what: string): CheckpointFormatError {
  return new CheckpointFormatError(
    `체크포인트 형식이 아닙니다: ${what}. 'baram audit checkpoint'가 만든 텍스트를 그대로 넣으세요. / Not a Baram checkpoint: ${what}. Pass the text 'baram audit checkpoint' printed, unchanged.`,
  );
}
