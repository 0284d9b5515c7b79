import type Database from 'better-sqlite3';

/**
 * Turns a time range into a seq range for one segment with a time index: `viewer_by_time` on
 * viewer_rows (which covers only its own rows).
 *
 * Pages are ordered by seq, but a time filter is a range on another column: SQLite can either
 * walk seq and test each row's time (300 ms+ when the range is months back: every newer row is
 * parsed and rejected) or read the time index and sort the whole range by seq (1.2 s for half a
 * million rows). Neither is a page in 50 ms. But time follows seq almost everywhere, so:
 *   lo = min(seq), hi = max(seq), n = count(*) over the time range — one covering scan of the
 *   time index (about 0.1 µs per row, no body parsed), cached per range.
 * Every matching row lies in [lo, hi]. If n = hi − lo + 1 then every row in [lo, hi] matches (a
 * segment holds at most one row per seq) and the time test is dropped altogether; otherwise (the
 * clock went back inside the range) the time test stays as a per-row check within [lo, hi], so
 * the answer is exact either way — no assumption that clocks only move forward.
 * Whole-segment shortcuts first, each two B-tree descents: a segment wholly outside the range is
 * skipped, one wholly inside needs no time test at all.
 * The newest segment grows while the viewer is open: a cached range is extended with the rows
 * added since (seq above the cached high-water mark), which are few.
 */

export type TimeWindow =
  | { readonly kind: 'none' }
  | { readonly kind: 'all' }
  | { readonly kind: 'seq'; readonly lo: number; readonly hi: number; readonly exact: boolean };

interface CachedRange {
  lo: number | null;
  hi: number | null;
  count: number;
  throughSeq: number;
}

interface RangeRow {
  readonly lo: number | null;
  readonly hi: number | null;
  readonly count: number;
  /** The segment's last seq in the same snapshot: rows appended later are the next tail. */
  readonly through: number;
}

/** Distinct ranges kept per segment: a viewer session switches between a handful. */
const CACHE_LIMIT = 32;
/** Sorts after every ISO time (BINARY collation compares UTF-8 bytes): an open upper bound. */
const AFTER_ALL_TIMES = '\u{10FFFF}';

export class TimeBounds {
  private readonly cache = new Map<string, CachedRange>();
  private readonly edges: Database.Statement;
  private readonly fullRange: Database.Statement;
  private readonly tailRange: Database.Statement;

  /** `table` and `timeIndex` are fixed names from segment-query.ts, never input. */
  constructor(db: Database.Database, table: 'entries' | 'viewer_rows', timeIndex: string) {
    const indexed = `${table} INDEXED BY ${timeIndex}`;
    const through = `(SELECT seq FROM ${table} ORDER BY seq DESC LIMIT 1) AS through`;
    this.edges = db.prepare(
      `SELECT (SELECT time FROM ${indexed} WHERE time IS NOT NULL ORDER BY time LIMIT 1) AS first,
              (SELECT time FROM ${indexed} WHERE time IS NOT NULL ORDER BY time DESC LIMIT 1) AS last,
              EXISTS (SELECT 1 FROM ${indexed} WHERE time IS NULL) AS untimed`,
    );
    this.fullRange = db.prepare(`SELECT min(seq) AS lo, max(seq) AS hi, count(*) AS count, ${through} FROM ${indexed} WHERE time >= :from AND time < :to`);
    this.tailRange = db.prepare(
      `SELECT min(seq) AS lo, max(seq) AS hi, count(*) AS count, ${through} FROM ${table} NOT INDEXED WHERE seq > :after AND time >= :from AND time < :to`,
    );
  }

  /** `maxSeq` is the table's current last seq (so a grown table refreshes its cached ranges). */
  window(fromTime: string | undefined, toTime: string | undefined, maxSeq: number): TimeWindow {
    const from = fromTime ?? '';
    const to = toTime ?? AFTER_ALL_TIMES;
    const edges = this.edges.get() as { first: string | null; last: string | null; untimed: number };
    if (edges.first === null || edges.last === null || edges.last < from || edges.first >= to) return { kind: 'none' };
    if (edges.first >= from && edges.last < to && edges.untimed === 0) return { kind: 'all' };

    const key = `${from}|${to}`;
    let cached = this.cache.get(key);
    if (!cached) {
      const row = this.fullRange.get({ from, to }) as RangeRow;
      cached = { lo: row.lo, hi: row.hi, count: row.count, throughSeq: row.through };
      if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, cached);
    } else if (maxSeq > cached.throughSeq) {
      const tail = this.tailRange.get({ after: cached.throughSeq, from, to }) as RangeRow;
      if (tail.count > 0) {
        cached.lo = cached.lo === null ? tail.lo : Math.min(cached.lo, tail.lo as number);
        cached.hi = cached.hi === null ? tail.hi : Math.max(cached.hi, tail.hi as number);
        cached.count += tail.count;
      }
      cached.throughSeq = tail.through;
    }
    if (cached.count === 0 || cached.lo === null || cached.hi === null) return { kind: 'none' };
    return { kind: 'seq', lo: cached.lo, hi: cached.hi, exact: cached.count === cached.hi - cached.lo + 1 };
  }
}
