import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditLedger } from '../ledger/audit-ledger';
import { EPOCH_MS } from '../ledger/epochs';
import { checkpointOrigin, formatCheckpoint, parseCheckpoint, type Checkpoint } from './checkpoint';
import { checkpointFiles, checkpointsDir } from './checkpoint-files';

export { checkpointFloor, checkpointsDir, localCheckpoints } from './checkpoint-files';

/**
 * Checkpoints of a ledger folder: written as text files under `checkpoints/` and recorded in the
 * ledger itself (an `audit.checkpoint` row carrying the text), daily and on demand. The copy that
 * counts is the one security staff print or photograph (qr.ts): files on the machine can be deleted
 * by whoever can delete rows.
 */
export interface TakenCheckpoint {
  readonly text: string;
  readonly file: string;
  readonly checkpoint: Checkpoint;
  /** seq of the `audit.checkpoint` row that records it (the row right after the checkpoint's head, unless another process wrote in between). */
  readonly recordSeq: number;
}

/** Takes a checkpoint of the ledger's current head now. */
export async function takeCheckpoint(ledger: AuditLedger, hostId: string, now: Date): Promise<TakenCheckpoint> {
  // Seal first, so the checkpoint is signed with today's key and an idle day still moves the key on.
  ledger.sealIfDue();
  const head = ledger.head();
  const text = ledger.withCurrentKey((key) => formatCheckpoint(checkpointOrigin(hostId), head, now, key));
  const dir = checkpointsDir(ledger.dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `checkpoint-${String(head.seq).padStart(12, '0')}-${now.getTime()}.txt`);
  writeDurably(file, text);
  const recordSeq = await ledger.append({ type: 'audit.checkpoint', data: { size: head.seq, rootHash: head.entryHash, text } });
  return { text, file, checkpoint: parseCheckpoint(text), recordSeq };
}

/**
 * Takes the day's checkpoint if none was taken since the start of the current UTC day. The desktop
 * app calls this at start and hourly, so a checkpoint exists for every day the machine was on, even
 * when nobody used Baram.
 */
export async function ensureDailyCheckpoint(ledger: AuditLedger, hostId: string, now: Date): Promise<TakenCheckpoint | undefined> {
  const latest = latestCheckpointTime(ledger.dir);
  const dayStart = Math.floor(now.getTime() / EPOCH_MS) * EPOCH_MS;
  if (latest !== undefined && latest >= dayStart) return undefined;
  return takeCheckpoint(ledger, hostId, now);
}

/** The newest checkpoint text on this machine, if any. */
export function latestCheckpointText(ledgerDir: string): string | undefined {
  const newest = checkpointFiles(ledgerDir).at(-1);
  return newest ? readFileSync(newest.file, 'utf8') : undefined;
}

function latestCheckpointTime(ledgerDir: string): number | undefined {
  return checkpointFiles(ledgerDir).at(-1)?.takenAt;
}

/** temp + fsync + rename: a checkpoint file is either complete or absent. */
function writeDurably(file: string, text: string): void {
  const temp = `${file}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}
