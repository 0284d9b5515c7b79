import { basename } from 'node:path';
import type { StoredEventBody } from '../ledger/canonical-event';
import { checkPageRequest, EventFilterError, type EventFilter, type PageOptions } from './event-filter';
import { LedgerReadError, queryMessages } from './query-messages';
import { SegmentQuery } from './segment-query';

export { checkPageRequest, EventFilterError, type EventFilter, type PageOptions } from './event-filter';

export interface EventPage {
  /** Newest first (seq descending). */
  readonly events: StoredEventBody[];
  /**
   * Pass as `beforeSeq` for the next (older) page; undefined when no older event can match.
   * It is set even on a short or empty page when `scanLimitReached` is true.
   */
  readonly nextBeforeSeq?: number;
  /**
   * This call used its scan time (SCAN_MILLIS) before the page filled: matches may still lie below
   * nextBeforeSeq. The viewer shows what came and keeps asking ("searching…").
   */
  readonly scanLimitReached?: true;
}

/**
 * How long one page call may keep scanning rows that need per-row tests (text search, or a second
 * filter the driving index does not answer) before it returns what it has and where to go on.
 * The scan runs in chunks of SCAN_CHUNK_ROWS candidates and checks the clock between them, so a
 * call takes at most about SCAN_MILLIS + one chunk, on any machine. A chunk costs about 1 µs per
 * row with json_extract and 0.65 µs with LIKE at 1M rows (tests/bench/audit-query.bench.ts):
 * 4,000 rows ≈ 3–5 ms, so a call stays near 30 ms, under the viewer's 50 ms.
 */
export const SCAN_MILLIS = 25;
export const SCAN_CHUNK_ROWS = 4000;

export interface ReaderOptions {
  /** Scan time per page call (default SCAN_MILLIS; tests pass 0 to stop after every chunk). */
  readonly scanMillis?: number;
  /** Candidates per chunk (default SCAN_CHUNK_ROWS). */
  readonly chunkRows?: number;
}

const SEGMENT_NAME = /^ledger-\d{4}-\d{2}\.sqlite3$/;

/**
 * The audit viewer's read side: pages of events, newest first, filtered, over all monthly
 * segments. Read-only connections only; the writer keeps appending meanwhile (WAL), and new rows
 * show up on the next first page. A new month's segment needs a new reader.
 */
export class LedgerReader {
  private segments: SegmentQuery[] | undefined;

  private constructor(
    segments: SegmentQuery[],
    private readonly scanMillis: number,
    private readonly chunkRows: number,
  ) {
    this.segments = segments;
  }

  /** `segmentFiles` in any order (the audit folder's `ledger-YYYY-MM.sqlite3` files). */
  static open(segmentFiles: readonly string[], options: ReaderOptions = {}): LedgerReader {
    const names = new Set<string>();
    for (const file of segmentFiles) {
      const name = basename(file);
      if (!SEGMENT_NAME.test(name)) throw new LedgerReadError(queryMessages.badSegmentName(file));
      if (names.has(name)) throw new LedgerReadError(queryMessages.duplicateSegment(name));
      names.add(name);
    }
    const newestFirst = [...segmentFiles].sort((a, b) => (basename(a) < basename(b) ? 1 : -1));
    const opened: SegmentQuery[] = [];
    try {
      for (const file of newestFirst) opened.push(SegmentQuery.open(file));
      checkSeqOrder(opened);
      return new LedgerReader(opened, options.scanMillis ?? SCAN_MILLIS, Math.max(1, Math.trunc(options.chunkRows ?? SCAN_CHUNK_ROWS)));
    } catch (error) {
      for (const segment of opened) segment.close();
      throw error;
    }
  }

  /**
   * One page of matching events below `beforeSeq`, newest first (keyset paging on seq: stable
   * while rows are appended, no OFFSET). Fills from the newest segment and continues into older
   * ones until the page is full. Bad input throws EventFilterError (use checkPageRequest to get
   * the same answer as a value).
   */
  page(filter: EventFilter, options: PageOptions = {}): EventPage {
    const segments = this.segments;
    if (!segments) throw new LedgerReadError(queryMessages.closed);
    const check = checkPageRequest(filter, options);
    if (!check.ok) throw new EventFilterError(check.problem);
    const { filter: normalized, limit } = check.value;
    const pattern = normalized.text === undefined ? undefined : likeSubstring(normalized.text);

    // One row more than asked: if it exists, there is an older page; if not, nextBeforeSeq stays undefined.
    const want = limit + 1;
    const rows: { seq: number; body: string; file: string }[] = [];
    const deadline = performance.now() + this.scanMillis;
    const requestedBefore = check.value.beforeSeq ?? Number.MAX_SAFE_INTEGER;
    let before = requestedBefore;
    for (const [index, segment] of segments.entries()) {
      for (const plan of segment.plans(normalized, pattern, before)) {
        // Parts are newest first and disjoint; each plan's own bounds keep it to its part.
        let at = before;
        for (;;) {
          const scan = segment.scan(plan, at, want - rows.length, this.chunkRows);
          for (const row of scan.rows) rows.push({ ...row, file: segment.file });
          if (rows.length >= want) return this.finish(rows, limit, undefined);
          if (scan.stoppedAtSeq === undefined) break;
          at = scan.stoppedAtSeq;
          if (performance.now() >= deadline) return this.finish(rows, limit, at);
        }
      }
      // Everything of this segment below `before` has been examined; older segments hold lower seqs.
      const range = segment.seqRange();
      if (range) before = Math.min(before, range.min);
      // Stop between segments only after some progress, so that every call moves nextBeforeSeq down.
      if (index < segments.length - 1 && before < requestedBefore && performance.now() >= deadline) return this.finish(rows, limit, before);
    }
    return this.finish(rows, limit, undefined);
  }

  close(): void {
    for (const segment of this.segments ?? []) segment.close();
    this.segments = undefined;
  }

  /** `stoppedAt`: the scan time ran out; everything at or above it (and below the request's beforeSeq) was examined. */
  private finish(rows: readonly { seq: number; body: string; file: string }[], limit: number, stoppedAt: number | undefined): EventPage {
    const events = rows.slice(0, limit).map((row) => parseBody(row.file, row.seq, row.body));
    if (rows.length > limit) return { events, nextBeforeSeq: (rows[limit - 1] as { seq: number }).seq };
    if (stoppedAt !== undefined) return { events, nextBeforeSeq: stoppedAt, scanLimitReached: true };
    return { events };
  }
}

/** Newest first, each segment's seq range must lie wholly above the next one's. */
function checkSeqOrder(newestFirst: readonly SegmentQuery[]): void {
  let newer: { file: string; min: number } | undefined;
  for (const segment of newestFirst) {
    const range = segment.seqRange();
    if (!range) continue;
    if (newer && range.max >= newer.min) throw new LedgerReadError(queryMessages.segmentsOverlap(basename(newer.file), basename(segment.file)));
    newer = { file: segment.file, min: range.min };
  }
}

/**
 * The LIKE pattern for "contains `text`" in a stored body. The body is canonical JSON, so the
 * needle is first written the way JSON writes it (a backslash in `C:\Users` is stored as `\\`, a
 * quote as `\"`), then LIKE's own wildcards and escape character are escaped.
 */
export function likeSubstring(text: string): string {
  const asStored = JSON.stringify(text).slice(1, -1);
  return `%${asStored.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function parseBody(file: string, seq: number, body: string): StoredEventBody {
  try {
    return JSON.parse(body) as StoredEventBody;
  } catch {
    throw new LedgerReadError(queryMessages.badRow(basename(file), seq));
  }
}
