import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditLedger } from '../ledger/audit-ledger';
import { EPOCH_MS } from '../ledger/epochs';
import { checkpointOrigin, formatCheckpoint, parseCheckpoint, type Checkpoint } from './checkpoint';

/**
 * Checkpoints of a ledger folder: written as text files under `checkpoints/` and recorded in the
 * ledger itself (an `audit.checkpoint` row carrying the text), daily and on demand. The copy that
 * counts is the one security staff print or photograph (qr.ts): files on the machine can be deleted
 * by whoever can delete rows.
 */
export function checkpointsDir(ledgerDir: string): string {
  return join(ledgerDir, 'checkpoints');
}

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

/**
 * The checkpoints kept in the ledger folder, oldest first; a file that does not parse is skipped
 * (it proves nothing about the ledger either way). verify checks them with those it is given.
 */
export function localCheckpoints(ledgerDir: string): Checkpoint[] {
  return checkpointFiles(ledgerDir).flatMap(({ file }) => {
    const checkpoint = readCheckpoint(file);
    return checkpoint ? [checkpoint] : [];
  });
}

/**
 * The highest seq a checkpoint in the ledger folder covers (0 when there is none): the ledger can
 * never legitimately end below it, so the writer refuses to append when it does (audit-ledger.ts).
 * The file names carry the seq, so only the files naming the highest ones are read, until one parses.
 */
export function checkpointFloor(ledgerDir: string): { readonly seq: number; readonly file?: string } {
  const files = checkpointFiles(ledgerDir).sort((a, b) => b.namedSeq - a.namedSeq || b.takenAt - a.takenAt);
  for (const { file } of files) {
    const checkpoint = readCheckpoint(file);
    if (checkpoint) return { seq: checkpoint.size, file };
  }
  return { seq: 0 };
}

function readCheckpoint(file: string): Checkpoint | undefined {
  try {
    return parseCheckpoint(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function latestCheckpointTime(ledgerDir: string): number | undefined {
  return checkpointFiles(ledgerDir).at(-1)?.takenAt;
}

function checkpointFiles(ledgerDir: string): { file: string; namedSeq: number; takenAt: number }[] {
  const dir = checkpointsDir(ledgerDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => /^checkpoint-(\d{12})-(\d+)\.txt$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ file: join(dir, m[0]), namedSeq: Number(m[1]), takenAt: Number(m[2]) }))
    .sort((a, b) => a.takenAt - b.takenAt);
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
