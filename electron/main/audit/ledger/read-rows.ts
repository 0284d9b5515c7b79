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
  for (const { rows, startsSegment } of ledgerSegments(dir, fromSeq)) {
    let first = startsSegment;
    for (const row of rows) {
      yield { ...row, startsSegment: first };
      first = false;
    }
  }
}

/**
 * The segments of a ledger folder oldest first, each as its rows in seq order (from `fromSeq`)
 * through one read-only connection and one SELECT, closed when its rows have been read or the
 * caller stops. `startsSegment`: the segment's first row links to a segment before it.
 */
export function* ledgerSegments(dir: string, fromSeq = 1): Generator<{ readonly rows: IterableIterator<LedgerRow>; readonly startsSegment: boolean }> {
  let segmentsRead = 0;
  for (const segment of listSegments(dir)) {
    const db = openSegmentRows(segment.file);
    if (!db) continue;
    try {
      // Named as LedgerRow names them, so each row is handed on as better-sqlite3 made it.
      const rows = db.prepare<[number], LedgerRow>('SELECT seq, body, prev_hash AS prevHash, entry_hash AS entryHash, epoch, mac FROM entries WHERE seq >= ? ORDER BY seq').iterate(fromSeq);
      yield { rows, startsSegment: segmentsRead > 0 };
      segmentsRead += 1;
    } finally {
      db.close();
    }
  }
}
