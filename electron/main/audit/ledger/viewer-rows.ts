import type Database from 'better-sqlite3';

/**
 * The audit viewer's filter columns, copied out of the row bodies into `viewer_rows` (schema.ts)
 * in batches rather than indexed on `entries` row by row.
 *
 * Why: with the v4 indexes every append maintained seven B-trees and wrote and fsync'd seven
 * pages per commit; the append then cost ≈ 1.7x a bare SQLite insert against the 1.5x the ledger
 * must stay under (docs/2026-12-02-audit-viewer-rows.md). Now the writer copies the new rows'
 * values once every VIEWER_BATCH_ROWS rows, inside the append transaction that crosses the
 * boundary, so viewer_rows never disagrees with `entries` in any committed state, and its page
 * writes are shared by a whole batch. The rows above viewer_rows' highest seq (fewer than a
 * batch per segment) are read from their bodies by the viewer (query/segment-query.ts).
 */
export const VIEWER_BATCH_ROWS = 4096;

/** The columns, in table order; each is the same-named virtual column of `entries` (schema.ts). */
export const VIEWER_COLUMNS = ['time', 'os_user', 'app_user', 'tool', 'outcome', 'decision', 'event_type'] as const;

const COLUMN_LIST = VIEWER_COLUMNS.join(', ');

/** The highest seq viewer_rows covers (0 when empty), as a scalar subquery: its high-water mark. */
export const VIEWER_HIGH = '(SELECT coalesce(max(seq), 0) FROM viewer_rows)';

/** Copies every row above viewer_rows' highest seq. Idempotent; reads the high-water mark itself. */
export const FILL_VIEWER_ROWS_SQL = `INSERT INTO viewer_rows (seq, ${COLUMN_LIST})
  SELECT seq, ${COLUMN_LIST} FROM entries WHERE seq > ${VIEWER_HIGH} ORDER BY seq`;

export const VIEWER_HIGH_SQL = `SELECT ${VIEWER_HIGH} AS high`;

/** Whether the rows (`after` − `before`] cross a batch boundary, so the writer should fill now. */
export function viewerFillDue(before: number, after: number, batchRows: number = VIEWER_BATCH_ROWS): boolean {
  return Math.floor(after / batchRows) > Math.floor(before / batchRows);
}

/** For tests and tools that write segments themselves: fill viewer_rows up to the last row. */
export function fillViewerRows(db: Database.Database): void {
  db.prepare(FILL_VIEWER_ROWS_SQL).run();
}
