import Database from 'better-sqlite3';
import { computeEntryHash, GENESIS_PREV_HASH } from './chain';

export type LedgerDamage = 'edited' | 'missing' | 'reordered' | 'bad-link';

export type LedgerVerdict =
  | { readonly ok: true; readonly rows: number }
  | { readonly ok: false; readonly firstBadSeq: number; readonly reason: LedgerDamage };

interface StoredRow {
  readonly seq: number;
  readonly body: string;
  readonly prev_hash: string;
  readonly entry_hash: string;
}

/**
 * Recomputes the whole chain from a separate read-only connection (so verification never writes
 * and never trusts the writer's state) and reports the first row that does not fit:
 * - missing:   a seq is absent (rows deleted);
 * - reordered: a row holds another row's body (its body's seq differs from the row's seq);
 * - edited:    the body no longer matches the row's entry_hash;
 * - bad-link:  the row's prev_hash is not the entry_hash of the row before it.
 * Rows cut off the end are not detectable here; that is what checkpoints are for (SPEC §3).
 */
export function verifyLedger(file: string): LedgerVerdict {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare<[], StoredRow>('SELECT seq, body, prev_hash, entry_hash FROM entries ORDER BY seq').iterate();
    let expectedSeq = 1;
    let prevHash = GENESIS_PREV_HASH;
    for (const row of rows) {
      const damage = checkRow(row, expectedSeq, prevHash);
      if (damage) return { ok: false, firstBadSeq: expectedSeq, reason: damage };
      prevHash = row.entry_hash;
      expectedSeq += 1;
    }
    return { ok: true, rows: expectedSeq - 1 };
  } finally {
    db.close();
  }
}

function checkRow(row: StoredRow, expectedSeq: number, prevHash: string): LedgerDamage | undefined {
  if (row.seq !== expectedSeq) return 'missing';
  const bodySeq = seqInBody(row.body);
  if (bodySeq === undefined) return 'edited';
  if (bodySeq !== row.seq) return 'reordered';
  if (!safeHashEquals(row.seq, row.prev_hash, row.body, row.entry_hash)) return 'edited';
  if (row.prev_hash !== prevHash) return 'bad-link';
  return undefined;
}

function seqInBody(body: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || !('seq' in parsed)) return undefined;
    return typeof parsed.seq === 'number' ? parsed.seq : undefined;
  } catch {
    return undefined;
  }
}

function safeHashEquals(seq: number, prevHash: string, body: string, entryHash: string): boolean {
  try {
    return computeEntryHash(seq, prevHash, body) === entryHash;
  } catch {
    // A prev_hash that is not 64 hex characters cannot have produced this row.
    return false;
  }
}
