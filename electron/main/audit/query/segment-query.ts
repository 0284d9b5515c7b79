import type Database from 'better-sqlite3';
import { LATEST_SCHEMA_VERSION, schemaVersion } from '../ledger/migrations';
import { openSegmentReader } from '../ledger/segments';
import type { NormalizedFilter } from './event-filter';
import { LedgerReadError, queryMessages } from './query-messages';
import { TimeBounds, type TimeWindow } from './time-bounds';

/**
 * One ledger segment seen through a read-only connection: the newest matching rows below a seq,
 * examining a bounded number of candidate rows per call.
 *
 * How a segment query runs (docs/2026-12-02-audit-viewer-queries.md has the measurements):
 * - A time range becomes a seq range [lo, hi] (time-bounds.ts); the time test itself is dropped
 *   when every row of that seq range is inside the time range, which is the normal case.
 * - One equality filter drives the scan through its (value, seq) index, newest first; the others
 *   are checked per row ("residuals"). With several, the one with the fewest rows in the seq
 *   range drives (chooseDriver): a reader cannot ANALYZE, and without statistics SQLite takes
 *   whichever index comes first — outcome=ok + tool=browser.open took 34 ms through the outcome
 *   index and 0.7 ms through the tool index at 1M rows.
 * - `user` matches osUser OR appUser: two index scans merged by seq (MERGE UNION), which streams;
 *   a plain OR makes SQLite collect and sort every row of the user first.
 * - Residuals cost about 1 µs per candidate (json_extract parses the body) and text search
 *   0.65 µs (LIKE over the body), so a filter whose rows rarely match could scan a million rows
 *   for one page. scan() therefore examines at most `chunkRows` candidates and says where it
 *   stopped; the reader decides, by the clock, whether to go on or to return.
 * SQL is assembled only from the fixed fragments below (columns and index names from a
 * whitelist); every value is a bound parameter.
 */

export type EqField = 'tool' | 'outcome' | 'decision' | 'eventType';
export type Driver = EqField | 'user' | 'pk';
type Column = 'time' | 'osUser' | 'appUser' | EqField;

/** Segments at schema v4+ have the viewer's virtual columns and indexes. */
export const VIEWER_SCHEMA_VERSION = 4;

const INDEXED_COLUMNS: Readonly<Record<Column, string>> = {
  time: 'time',
  osUser: 'os_user',
  appUser: 'app_user',
  tool: 'tool',
  outcome: 'outcome',
  decision: 'decision',
  eventType: 'event_type',
};

/** Before v4 the same values come from the body; a reader must not migrate, so it computes them. */
const JSON_COLUMNS: Readonly<Record<Column, string>> = {
  time: "json_extract(body, '$.time')",
  osUser: "json_extract(body, '$.osUser')",
  appUser: "json_extract(body, '$.appUser')",
  tool: "json_extract(body, '$.tool')",
  outcome: "json_extract(body, '$.outcome')",
  decision: "json_extract(body, '$.decision')",
  eventType: "json_extract(body, '$.type')",
};

const EQ_INDEX: Readonly<Record<EqField, string>> = {
  tool: 'entries_by_tool',
  outcome: 'entries_by_outcome',
  decision: 'entries_by_decision',
  eventType: 'entries_by_event_type',
};

/** Preference among drivers whose estimates tie: the fields whose values are rarest in practice first. */
const EQ_FIELDS: readonly EqField[] = ['outcome', 'decision', 'eventType', 'tool'];

/**
 * Driver choice reads at most this many index entries per candidate (about 0.1 µs each): enough
 * to tell a rare value from a common one, cheap enough for every segment a page touches.
 */
const DRIVER_SAMPLE = 1000;

export interface SegmentRow {
  readonly seq: number;
  readonly body: string;
}

/** How one page call reads this segment: worked out once, then run chunk by chunk. */
export interface SegmentPlan {
  /** Lowest seq that can match (the segment's first row, or the time range's first). */
  readonly lower: number;
  /** One above the highest seq that can match. */
  readonly upper: number;
  readonly driver: Driver;
  /** Per-row tests (SQL fragments from this file only). */
  readonly residuals: readonly string[];
  readonly values: Readonly<Record<string, string>>;
}

export interface SegmentScan {
  /** Matching rows, seq descending, at most `limit`. */
  readonly rows: readonly SegmentRow[];
  /**
   * Set when the chunk ended before the plan's range did: every row at or above this seq (and
   * below `before`) has been examined; continue below it.
   */
  readonly stoppedAtSeq?: number;
}

interface SeqRange {
  readonly min: number;
  readonly max: number;
}

export class SegmentQuery {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly columns: Readonly<Record<Column, string>>;
  private readonly drivers: readonly EqField[];
  private readonly timeBounds: TimeBounds | undefined;

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
    readonly schemaVersion: number,
  ) {
    const indexed = schemaVersion >= VIEWER_SCHEMA_VERSION;
    this.columns = indexed ? INDEXED_COLUMNS : { ...JSON_COLUMNS, ...(schemaVersion >= 2 ? { eventType: 'event_type' } : {}) };
    // v2 and v3 already index event_type; everything else is only indexed from v4.
    this.drivers = indexed ? EQ_FIELDS : schemaVersion >= 2 ? ['eventType'] : [];
    this.timeBounds = indexed ? new TimeBounds(db) : undefined;
  }

  /**
   * Opens `file` read-only. A segment older than v4 is read with json_extract in place of the
   * missing columns (slower: no index, so filtered pages lean on the scan limit); one newer than
   * this build is refused, as the writer refuses it.
   */
  static open(file: string): SegmentQuery {
    const db = openSegmentReader(file);
    try {
      const version = schemaVersion(db);
      if (version === 0) throw new LedgerReadError(queryMessages.notALedger(file));
      if (version > LATEST_SCHEMA_VERSION) throw new LedgerReadError(queryMessages.newerSchema(file, version, LATEST_SCHEMA_VERSION));
      return new SegmentQuery(file, db, version);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  get indexed(): boolean {
    return this.timeBounds !== undefined;
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }

  /** Lowest and highest seq present, or undefined for an empty segment (two B-tree descents). */
  seqRange(): SeqRange | undefined {
    const row = this.statement('range', 'SELECT (SELECT seq FROM entries ORDER BY seq LIMIT 1) AS min, (SELECT seq FROM entries ORDER BY seq DESC LIMIT 1) AS max').get() as
      | { min: number | null; max: number | null }
      | undefined;
    return row && row.min !== null && row.max !== null ? { min: row.min, max: row.max } : undefined;
  }

  /** Where matches below `before` can be and how to find them; undefined when none can be here. */
  plan(filter: NormalizedFilter, pattern: string | undefined, before: number): SegmentPlan | undefined {
    const range = this.seqRange();
    if (!range || range.min >= before) return undefined;
    let upper = Math.min(before, range.max + 1);
    let lower = range.min;
    let timeResidual = filter.fromTime !== undefined || filter.toTime !== undefined;
    if (timeResidual && this.timeBounds) {
      const window: TimeWindow = this.timeBounds.window(filter.fromTime, filter.toTime, range.max);
      if (window.kind === 'none') return undefined;
      if (window.kind === 'seq') {
        upper = Math.min(upper, window.hi + 1);
        lower = Math.max(lower, window.lo);
      }
      timeResidual = window.kind === 'seq' && !window.exact;
    }
    if (lower >= upper) return undefined;
    const values = this.boundValues(filter, pattern);
    const driver = this.chooseDriver(filter, values, upper, lower);
    return { lower, upper, driver, residuals: this.residualSql(filter, driver, timeResidual, pattern !== undefined), values };
  }

  /**
   * The newest `limit` matches of `plan` below `before`. With per-row tests, at most `chunkRows`
   * candidates are examined (stoppedAtSeq says where it stopped); without, the driving index
   * yields only matches and the page query reads just `limit` of them.
   */
  scan(plan: SegmentPlan, before: number, limit: number, chunkRows: number): SegmentScan {
    const upper = Math.min(before, plan.upper);
    if (plan.lower >= upper) return { rows: [] };
    let floor = plan.lower;
    let stoppedAtSeq: number | undefined;
    if (plan.residuals.length > 0) {
      const window = this.chunkWindow(plan, upper, chunkRows);
      if (window.n >= chunkRows && window.floor !== null && window.floor > plan.lower) {
        floor = window.floor;
        stoppedAtSeq = window.floor;
      }
    }
    const rows = this.statement(`page|${plan.driver}|${plan.residuals.join('&')}`, this.pageSql(plan.driver, plan.residuals)).all({
      ...plan.values,
      upper,
      floor,
      limit,
    }) as SegmentRow[];
    return stoppedAtSeq === undefined ? { rows } : { rows, stoppedAtSeq };
  }

  /** Named parameters (better-sqlite3 ignores the ones a statement does not use). */
  private boundValues(filter: NormalizedFilter, pattern: string | undefined): Record<string, string> {
    const values: Record<string, string> = {};
    for (const field of ['tool', 'outcome', 'decision', 'eventType', 'user', 'fromTime', 'toTime'] as const) {
      const value = filter[field];
      if (value !== undefined) values[field] = value;
    }
    if (pattern !== undefined) values.pattern = pattern;
    return values;
  }

  /**
   * The driver with the fewest rows in [lower, upper). Each candidate reads at most
   * DRIVER_SAMPLE index entries, newest first; when it has more, its total is extrapolated from
   * how far down in seq the sample reached (a value on every third row reaches 6,000 seqs down, a
   * value on one row in a hundred 200,000), so a common value never drives a rare one's page.
   */
  private chooseDriver(filter: NormalizedFilter, values: Record<string, string>, upper: number, lower: number): Driver {
    const candidates: Driver[] = this.drivers.filter((f) => filter[f] !== undefined);
    if (filter.user !== undefined && this.indexed) candidates.push('user');
    if (candidates.length <= 1) return candidates[0] ?? 'pk';
    let best: Driver = 'pk';
    let bestEstimate = Number.POSITIVE_INFINITY;
    for (const driver of candidates) {
      const sample = this.statement(`sample|${driver}`, `SELECT count(*) AS n, min(seq) AS last FROM (${this.candidatesSql(driver)} LIMIT :cap)`).get({
        ...values,
        upper,
        floor: lower,
        cap: DRIVER_SAMPLE,
      }) as { n: number; last: number | null };
      const estimate = sample.n < DRIVER_SAMPLE || sample.last === null ? sample.n : (sample.n * (upper - lower)) / (upper - sample.last);
      if (estimate < bestEstimate) {
        best = driver;
        bestEstimate = estimate;
      }
      if (estimate === 0) break;
    }
    return best;
  }

  /** seq of the driver's candidates in [floor, upper), newest first (no LIMIT). */
  private candidatesSql(driver: Driver): string {
    if (driver === 'user') {
      // UNION of two seq-ordered index scans: SQLite merges them (MERGE UNION) without sorting.
      return `SELECT seq FROM entries INDEXED BY entries_by_os_user WHERE os_user = :user AND seq < :upper AND seq >= :floor
              UNION SELECT seq FROM entries INDEXED BY entries_by_app_user WHERE app_user = :user AND seq < :upper AND seq >= :floor
              ORDER BY seq DESC`;
    }
    return `SELECT seq FROM ${this.driverSource(driver)} WHERE ${this.driverTerm(driver)} AND seq < :upper AND seq >= :floor ORDER BY seq DESC`;
  }

  /** Where the next `chunkRows` candidates end: the page query then looks no further. */
  private chunkWindow(plan: SegmentPlan, upper: number, chunkRows: number): { floor: number | null; n: number } {
    if (plan.driver === 'pk') {
      // A window of chunkRows seqs holds at most chunkRows rows (exactly that many: verify checks seq has no gaps).
      const floor = Math.max(plan.lower, upper - chunkRows);
      return { floor, n: upper - floor };
    }
    return this.statement(`window|${plan.driver}`, `SELECT min(seq) AS floor, count(*) AS n FROM (${this.candidatesSql(plan.driver)} LIMIT :chunk)`).get({
      ...plan.values,
      upper,
      floor: plan.lower,
      chunk: chunkRows,
    }) as { floor: number | null; n: number };
  }

  private pageSql(driver: Driver, residuals: readonly string[]): string {
    const extra = residuals.map((r) => ` AND ${r}`).join('');
    if (driver === 'user') {
      // UNION (not UNION ALL): a row whose osUser and appUser are both the value comes once.
      return `SELECT seq, body FROM entries INDEXED BY entries_by_os_user WHERE os_user = :user AND seq < :upper AND seq >= :floor${extra}
              UNION SELECT seq, body FROM entries INDEXED BY entries_by_app_user WHERE app_user = :user AND seq < :upper AND seq >= :floor${extra}
              ORDER BY seq DESC LIMIT :limit`;
    }
    return `SELECT seq, body FROM ${this.driverSource(driver)} WHERE ${this.driverTerm(driver)} AND seq < :upper AND seq >= :floor${extra} ORDER BY seq DESC LIMIT :limit`;
  }

  private driverSource(driver: EqField | 'pk'): string {
    // Pinning the index keeps SQLite from switching to another one mid-way through the pages.
    return driver === 'pk' ? 'entries NOT INDEXED' : `entries INDEXED BY ${EQ_INDEX[driver]}`;
  }

  private driverTerm(driver: EqField | 'pk'): string {
    return driver === 'pk' ? '1' : `${this.columns[driver]} = :${driver}`;
  }

  /** Per-row tests for every filter the driver and the seq range do not already guarantee. */
  private residualSql(filter: NormalizedFilter, driver: Driver, time: boolean, text: boolean): string[] {
    const c = this.columns;
    // Unary + keeps SQLite from using an index for a residual term: the driver is the only index.
    const out: string[] = [];
    for (const field of EQ_FIELDS) {
      if (filter[field] !== undefined && driver !== field) out.push(`+${c[field]} = :${field}`);
    }
    if (filter.user !== undefined && driver !== 'user') out.push(`(+${c.osUser} = :user OR +${c.appUser} = :user)`);
    if (time && filter.fromTime !== undefined) out.push(`+${c.time} >= :fromTime`);
    if (time && filter.toTime !== undefined) out.push(`+${c.time} < :toTime`);
    // Canonical JSON stores Korean as UTF-8, so LIKE sees the same bytes the user typed; LIKE folds
    // ASCII case only, which is what the viewer promises.
    if (text) out.push("body LIKE :pattern ESCAPE '\\'");
    return out;
  }

  private statement(key: string, sql: string): Database.Statement {
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(key, statement);
    }
    return statement;
  }
}
