import type { ReadOnlyFileAccess } from '../../kit/define-tool';
import { DOCUMENT_TIME_LIMIT_MS } from '../../kit/document-files';
import { rowsOf, type Book, type SheetRef } from './book';
import type { RowData } from './cells';
import { isFileAccessError } from '../../../electron/common/file-access';
import { ReadStopped } from './xlsx';
import { lastFilledColumn } from './table';

/**
 * The format library gave up on the file's content (a damaged deflate stream, XML that is not
 * XML). An expected outcome for files from the outside world, reported as a damaged file; the
 * library's message goes into the result's details for the audit record, not to the model.
 */
export class BookDamaged extends Error {
  override readonly name = 'BookDamaged';
}

/** Host refusals and Stop pass through; anything the parser threw means the content is damaged. */
function asReadError(e: unknown): Error | null {
  if (e instanceof ReadStopped) return null;
  if (isFileAccessError(e)) return e;
  return new BookDamaged(e instanceof Error ? e.message : String(e));
}

/**
 * Every read of a sheet goes through here: rows streamed from the top (xlsx has no row index to
 * seek in), at most a window of them kept, and a time limit besides the caller's Stop.
 */

/**
 * The document tools' time limit (issue 18 item 7): a 100k-row sheet streams in seconds, and the
 * read stops at the limit and reports how far it got.
 */
export const PARSE_TIME_LIMIT_MS = DOCUMENT_TIME_LIMIT_MS;

/** The caller's signal, also aborted when the time limit passes. */
export function parseSignal(signal: AbortSignal, limitMs = PARSE_TIME_LIMIT_MS): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(limitMs)]);
}

export type Stopped = 'time' | 'cancelled' | undefined;

export interface WindowSpec {
  /** First and last sheet rows of the range (bottom undefined = to the end). */
  readonly top: number;
  readonly bottom: number | undefined;
  /** First row to return (≥ top) and how many row numbers the window spans. */
  readonly offset: number;
  readonly limit: number;
  /** Rows from `top` kept for header detection. */
  readonly headRows: number;
}

export interface SheetWindow {
  readonly head: RowData[];
  readonly rows: RowData[];
  /** A row with content exists after the window (within the range). */
  readonly more: boolean;
  /** Highest row number seen; the sheet's last row when the read reached the end. */
  readonly lastSeen: number;
  readonly reachedEnd: boolean;
  readonly stopped: Stopped;
}

function stoppedBy(outer: AbortSignal, inner: AbortSignal): Stopped {
  if (!inner.aborted) return undefined;
  return outer.aborted ? 'cancelled' : 'time';
}

/**
 * Rows [offset, offset + limit) of the range. Reading stops at the first row past the window, so
 * a page near the top of a long sheet costs only that far; `countAll` reads on to the end to learn
 * the last row (CSV, whose rows are already in memory).
 */
export async function readWindow(
  files: ReadOnlyFileAccess,
  book: Book,
  sheet: SheetRef,
  spec: WindowSpec,
  outer: AbortSignal,
  countAll = false,
  limitMs = PARSE_TIME_LIMIT_MS,
): Promise<SheetWindow> {
  const signal = parseSignal(outer, limitMs);
  const head: RowData[] = [];
  const rows: RowData[] = [];
  const end = spec.offset + spec.limit; // first row number after the window
  let more = false;
  let lastSeen = 0;
  let reachedEnd = false;
  try {
    for await (const row of rowsOf(files, book, sheet, signal)) {
      if (signal.aborted) break;
      if (row.cells.length === 0) continue;
      lastSeen = row.index;
      if (row.index < spec.top) continue;
      if (spec.bottom !== undefined && row.index > spec.bottom) {
        if (!countAll) break;
        continue;
      }
      if (row.index < spec.top + spec.headRows) head.push(row);
      if (row.index >= end) {
        more = true;
        if (!countAll) break;
        continue;
      }
      if (row.index >= spec.offset) rows.push(row);
    }
    reachedEnd = !signal.aborted && (countAll || !more);
  } catch (e) {
    const error = asReadError(e);
    if (error) throw error;
  }
  return { head, rows, more, lastSeen, reachedEnd, stopped: stoppedBy(outer, signal) };
}

/** The used extent of a sheet by reading all of it: last row and last column with content. */
export async function measureSheet(files: ReadOnlyFileAccess, book: Book, sheet: SheetRef, outer: AbortSignal): Promise<{ rows: number; firstRow: number; columns: number; stopped: Stopped }> {
  const signal = parseSignal(outer);
  let rows = 0;
  let firstRow = 0;
  let columns = 0;
  try {
    for await (const row of rowsOf(files, book, sheet, signal)) {
      if (signal.aborted) break;
      if (lastFilledColumn([row]) === 0) continue;
      if (firstRow === 0) firstRow = row.index;
      rows = row.index;
      columns = Math.max(columns, lastFilledColumn([row]));
    }
  } catch (e) {
    const error = asReadError(e);
    if (error) throw error;
  }
  return { rows, firstRow, columns, stopped: stoppedBy(outer, signal) };
}
