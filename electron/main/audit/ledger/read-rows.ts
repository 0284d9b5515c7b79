import type { LedgerRow } from './rows';
import { listSegments, openSegmentRows } from './segments';

/** A row as SQLite returns it (column names as stored). */
export interface StoredRow {
  readonly seq: number;
  readonly body: string;
  readonly prev_hash: string;
  readonly entry_hash: string;
  readonly epoch: number;
  readonly mac: string;
}

export interface SegmentRow extends LedgerRow {
  /** The first row read from a segment after the first: where segment links are checked. */
  readonly startsSegment: boolean;
}

/**
 * Every row of a ledger folder in seq order (optionally from `fromSeq`), segment by segment, each
 * through its own read-only connection and one SELECT (one snapshot per segment): readers never
 * write and never trust the writer's state. Verify, export and tail all read rows here.
 */
export function* readLedgerRows(dir: string, fromSeq = 1): Generator<SegmentRow> {
  let segmentsRead = 0;
  for (const segment of listSegments(dir)) {
    const db = openSegmentRows(segment.file);
    if (!db) continue;
    try {
      let first = segmentsRead > 0;
      const rows = db.prepare<[number], StoredRow>('SELECT seq, body, prev_hash, entry_hash, epoch, mac FROM entries WHERE seq >= ? ORDER BY seq').iterate(fromSeq);
      for (const row of rows) {
        yield { seq: row.seq, body: row.body, prevHash: row.prev_hash, entryHash: row.entry_hash, epoch: row.epoch, mac: row.mac, startsSegment: first };
        first = false;
      }
      segmentsRead += 1;
    } finally {
      db.close();
    }
  }
}
