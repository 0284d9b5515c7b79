import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCheckpoint, type Checkpoint } from './checkpoint';

/**
 * The checkpoint files of a ledger folder (`checkpoints/checkpoint-<seq>-<ms>.txt`), as read by
 * verify and by the writer's check that it never appends below one. Apart from checkpoint-store.ts,
 * which writes them, so that the ledger can read them without a cycle.
 */
export function checkpointsDir(ledgerDir: string): string {
  return join(ledgerDir, 'checkpoints');
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

export function checkpointFiles(ledgerDir: string): { file: string; namedSeq: number; takenAt: number }[] {
  const dir = checkpointsDir(ledgerDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => /^checkpoint-(\d{12})-(\d+)\.txt$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ file: join(dir, m[0]), namedSeq: Number(m[1]), takenAt: Number(m[2]) }))
    .sort((a, b) => a.takenAt - b.takenAt);
}
