import { epochOf } from '../ledger/epochs';
import type { LedgerRow } from '../ledger/rows';
import type { SealKey } from '../ledger/seal-key';
import type { LedgerVerdict, MistypedCheckpoint } from '../ledger/verify-rows';
import { checkpointBody, checkpointSignatureValid, expectedSignatureBase64, parseCheckpoint, type Checkpoint } from './checkpoint';

/**
 * A checkpoint typed back from paper with a slip in it must be reported as malformed, never as
 * tampering (issue 15 item 14). Verification runs as always; when it fails against a checkpoint the
 * auditor GAVE, that checkpoint is compared with the rows: if it is a near copy of what the ledger
 * really holds, it is set aside as mistyped and verification runs again without it.
 *
 * Why this cannot hide tampering: a slip is recognised only where the ledger matches the paper
 * but for a few characters, and SHA-256 and HMAC leave no near misses to forge — a rewritten chain
 * gives a hash that differs from the printed one everywhere, not in three characters. The
 * checkpoints in the data folder are Baram's own files, never set aside; a ledger that fails
 * against them fails as before. A checkpoint set aside is not counted as matched.
 */
const MAX_SLIPS = 3;

export function verifyTolerantOfSlips(
  run: (given: readonly Checkpoint[]) => LedgerVerdict,
  given: readonly Checkpoint[],
  rows: () => Iterable<LedgerRow>,
  key: SealKey | undefined,
): LedgerVerdict {
  let remaining = [...given];
  const mistyped: MistypedCheckpoint[] = [];
  for (;;) {
    const verdict = run(remaining);
    const culprit = verdict.ok ? undefined : remaining.find((c) => failedAgainst(verdict, c));
    const slip = culprit ? typingSlip(culprit, rows, key) : undefined;
    if (!culprit || !slip) return mistyped.length === 0 ? verdict : { ...verdict, mistypedCheckpoints: mistyped };
    mistyped.push(slip);
    remaining = remaining.filter((c) => c !== culprit);
  }
}

/** Whether the failure is one a wrong `checkpoint` would cause (its seq; for a cut tail, any beyond the end). */
function failedAgainst(verdict: Extract<LedgerVerdict, { ok: false }>, checkpoint: Checkpoint): boolean {
  if (verdict.reason === 'truncated') return checkpoint.size >= verdict.firstBadSeq;
  return (verdict.reason === 'rewritten' || verdict.reason === 'bad-checkpoint') && checkpoint.size === verdict.firstBadSeq;
}

/** How `checkpoint` is a near copy of what the ledger holds, if it is one. */
function typingSlip(checkpoint: Checkpoint, rows: () => Iterable<LedgerRow>, key: SealKey | undefined): MistypedCheckpoint | undefined {
  let atSize: LedgerRow | undefined;
  let sameHash: LedgerRow | undefined;
  let recorded: Checkpoint | undefined;
  for (const row of rows()) {
    if (row.seq === checkpoint.size) atSize ??= row;
    if (row.entryHash === checkpoint.rootHash) sameHash ??= row;
    if (row.seq > checkpoint.size) recorded ??= recordedCheckpoint(row, checkpoint.size);
    if (atSize && sameHash && recorded) break;
  }
  const signed = (size: number, rootHash: string): boolean => !key || signatureMatches(relaid(checkpoint, size, rootHash), key);
  if (atSize && atSize.entryHash !== checkpoint.rootHash && nearMiss(base64(atSize.entryHash), base64(checkpoint.rootHash)) && signed(atSize.seq, atSize.entryHash)) {
    return { size: checkpoint.size, line: 'hash' };
  }
  if (sameHash && sameHash.seq !== checkpoint.size && signed(sameHash.seq, sameHash.entryHash)) {
    return { size: checkpoint.size, line: 'size', seq: sameHash.seq };
  }
  if (!key || atSize?.entryHash !== checkpoint.rootHash || checkpointSignatureValid(checkpoint, key)) return undefined;
  if (signatureMatches(checkpoint, key)) return { size: checkpoint.size, line: 'signature' };
  // The time line is signed too: compared with the checkpoint the ledger recorded when it was
  // taken (its audit.checkpoint row), which must itself match the row and check under the key.
  if (recorded && recorded.rootHash === atSize.entryHash && checkpointSignatureValid(recorded, key) && nearMiss(signedText(recorded), signedText(checkpoint))) {
    return { size: checkpoint.size, line: 'time' };
  }
  return undefined;
}

/** The checkpoint an `audit.checkpoint` row recorded for `size`, if `row` is one. */
function recordedCheckpoint(row: LedgerRow, size: number): Checkpoint | undefined {
  if (!row.body.includes('"type":"audit.checkpoint"')) return undefined;
  try {
    const data = (JSON.parse(row.body) as { data?: { size?: unknown; text?: unknown } }).data;
    return data?.size === size && typeof data.text === 'string' ? parseCheckpoint(data.text) : undefined;
  } catch {
    return undefined;
  }
}

function signedText(checkpoint: Checkpoint): string {
  return checkpoint.body + (checkpoint.signature?.base64 ?? '');
}

/** Valid, or within a few characters of the signature Baram would have written (in the signed epoch or the time line's). */
function signatureMatches(checkpoint: Checkpoint, key: SealKey): boolean {
  if (checkpointSignatureValid(checkpoint, key)) return true;
  const typed = checkpoint.signature?.base64;
  if (typed === undefined) return false;
  const epochs = new Set([checkpoint.signature?.epoch ?? -1, timeEpoch(checkpoint)]);
  return [...epochs].some((epoch) => {
    const expected = epoch < 0 ? undefined : expectedSignatureBase64(checkpoint, key, epoch);
    return expected !== undefined && nearMiss(expected, typed);
  });
}

function timeEpoch(checkpoint: Checkpoint): number {
  const time = checkpoint.extensions.find((e) => e.startsWith('time '))?.slice(5);
  const ms = time === undefined ? NaN : Date.parse(time);
  return Number.isFinite(ms) ? epochOf(new Date(ms)) : -1;
}

function relaid(checkpoint: Checkpoint, size: number, rootHash: string): Checkpoint {
  return { ...checkpoint, size, rootHash, body: checkpointBody(checkpoint.origin, size, base64(rootHash), checkpoint.extensions) };
}

function base64(hex: string): string {
  return Buffer.from(hex, 'hex').toString('base64');
}

/**
 * Equal length and at most MAX_SLIPS characters apart, where letters differing only in case and
 * the look-alikes O/0 and I/l/1 count as the same: what a person copying from paper gets wrong.
 */
export function nearMiss(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let slips = 0;
  for (let i = 0; i < a.length && slips <= MAX_SLIPS; i++) if (fold(a[i] ?? '') !== fold(b[i] ?? '')) slips += 1;
  return slips <= MAX_SLIPS;
}

function fold(c: string): string {
  const lower = c.toLowerCase();
  if (lower === 'o') return '0';
  if (lower === 'i' || lower === 'l') return '1';
  return lower;
}
