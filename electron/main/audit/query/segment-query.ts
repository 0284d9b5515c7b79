import type Database from 'better-sqlite3';
import { schemaVersion, SCHEMA_VERSION } from '../ledger/schema';
import { openSegmentReader } from '../ledger/segments';
import { VIEWER_HIGH_SQL } from '../ledger/viewer-rows';
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
 * - The indexes live in viewer_rows, which the writer fills in batches
 *   (ledger/viewer-rows.ts): the few rows above its highest seq are a part of their own, read
 *   from their bodies, newest first; the rest is read through viewer_rows joined to entries.
 * SQL is assembled only from the fixed fragments below (columns and index names from a
 * whitelist); every value is a bound parameter.
 */

export type EqField = 'tool' | 'outcome' | 'decision' | 'eventType';
export type Driver = EqField | 'user' | 'pk';
type Column = 'time' | 'osUser' | 'appUser' | EqField;

/**
 * Where one stretch of a segment's seqs is read from. Every statement names its driving table `v`
 * (so the columns below are the same text whichever table it is) and, when the body lives in
 * another table, joins `entries` as `e` by seq.
 */
interface Layout {
  readonly name: string;
  /** The table that carries the columns and indexes. */
  readonly table: 'entries' | 'viewer_rows';
  /** The stored body, for text search and the rows returned. */
  readonly body: string;
  readonly columns: Readonly<Record<Column, string>>;
  /** Index per equality field (and the two user columns) this layout can drive through. */
  readonly indexes: Readonly<Partial<Record<EqField | 'osUser' | 'appUser' | 'time', string>>>;
}

/** Values computed from the body (json_extract): any segment, no index. */
const BODY_LAYOUT: Layout = {
  name: 'body',
  table: 'entries',
  body: 'v.body',
  columns: {
    time: "json_extract(v.body, '$.time')",
    osUser: "json_extract(v.body, '$.osUser')",
    appUser: "json_extract(v.body, '$.appUser')",
    tool: "json_extract(v.body, '$.tool')",
    outcome: "json_extract(v.body, '$.outcome')",
    decision: "json_extract(v.body, '$.decision')",
    eventType: "json_extract(v.body, '$.type')",
  },
  indexes: {},
};

const INDEXED_COLUMNS: Readonly<Record<Column, string>> = {
  time: 'v.time',
  osUser: 'v.os_user',
  appUser: 'v.app_user',
  tool: 'v.tool',
  outcome: 'v.outcome',
  decision: 'v.decision',
  eventType: 'v.event_type',
};

/** The rows up to viewer_rows' highest seq (ledger/viewer-rows.ts). */
const VIEWER_LAYOUT: Layout = {
  name: 'viewer',
  table: 'viewer_rows',
  body: 'e.body',
  columns: INDEXED_COLUMNS,
  indexes: {
    time: 'viewer_by_time',
    osUser: 'viewer_by_os_user',
    appUser: 'viewer_by_app_user',
    tool: 'viewer_by_tool',
    outcome: 'viewer_by_outcome',
    decision: 'viewer_by_decision',
    eventType: 'viewer_by_event_type',
  },
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

/** How one page call reads one part of this segment: worked out once, then run chunk by chunk. */
export interface SegmentPlan {
  /** Lowest seq that can match (the part's first row, or the time range's first). */
  readonly lower: number;
  /** One above the highest seq that can match. */
  readonly upper: number;
  readonly driver: Driver;
  /** The tables and columns its SQL reads. */
  readonly layout: Layout;
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

/** A stretch of seqs [fromSeq, belowSeq) of one segment that is read through one layout. */
interface SegmentPart {
  readonly layout: Layout;
  readonly fromSeq: number;
  readonly belowSeq: number;
  readonly timeBounds?: TimeBounds;
}

export class SegmentQuery {
  private readonly statements = new Map<string, Database.Statement>();
  /** The split between viewer_rows and the rows above it is read per page call (parts()), as the writer fills viewer_rows. */
  private readonly viewerTimeBounds: TimeBounds;

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
  ) {
    this.viewerTimeBounds = new TimeBounds(db, 'viewer_rows', VIEWER_LAYOUT.indexes.time as string);
  }

  /**
   * Opens `file` read-only. A schema this build does not know is refused, as the writer refuses it.
   */
  static open(file: string): SegmentQuery {
    const db = openSegmentReader(file);
    try {
      const version = schemaVersion(db);
      if (version === 0) throw new LedgerReadError(queryMessages.notALedger(file));
      if (version !== SCHEMA_VERSION) throw new LedgerReadError(queryMessages.newerSchema(file, version, SCHEMA_VERSION));
      return new SegmentQuery(file, db);
    } catch (error) {
      db.close();
      throw error;
    }
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

  /**
   * Plans for the matches below `before`, newest part first; none where no match can be. A
   * segment has two parts: the rows above viewer_rows' highest seq (fewer than a fill batch, read
   * from their bodies) and the rows below it (through viewer_rows' indexes).
   */
  *plans(filter: NormalizedFilter, pattern: string | undefined, before: number): Generator<SegmentPlan> {
    const range = this.seqRange();
    if (!range || range.min >= before) return;
    for (const part of this.parts()) {
      const plan = this.planPart(part, range, filter, pattern, before);
      if (plan) yield plan;
    }
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
    const key = `page|${plan.layout.name}|${plan.driver}|${plan.residuals.join('&')}`;
    const rows = this.statement(key, pageSql(plan.layout, plan.driver, plan.residuals)).all({
      ...plan.values,
      upper,
      floor,
      limit,
    }) as SegmentRow[];
    return stoppedAtSeq === undefined ? { rows } : { rows, stoppedAtSeq };
  }

  private parts(): SegmentPart[] {
    const { high } = this.statement('viewer-high', VIEWER_HIGH_SQL).get() as { high: number };
    const viewer: SegmentPart = { layout: VIEWER_LAYOUT, fromSeq: 0, belowSeq: high + 1, timeBounds: this.viewerTimeBounds };
    return [{ layout: BODY_LAYOUT, fromSeq: high + 1, belowSeq: Number.POSITIVE_INFINITY }, viewer];
  }

  private planPart(part: SegmentPart, range: SeqRange, filter: NormalizedFilter, pattern: string | undefined, before: number): SegmentPlan | undefined {
    let upper = Math.min(before, range.max + 1, part.belowSeq);
    let lower = Math.max(range.min, part.fromSeq);
    if (lower >= upper) return undefined;
    let timeResidual = filter.fromTime !== undefined || filter.toTime !== undefined;
    if (timeResidual && part.timeBounds) {
      const window: TimeWindow = part.timeBounds.window(filter.fromTime, filter.toTime, Math.min(range.max, part.belowSeq - 1));
      if (window.kind === 'none') return undefined;
      if (window.kind === 'seq') {
        upper = Math.min(upper, window.hi + 1);
        lower = Math.max(lower, window.lo);
      }
      timeResidual = window.kind === 'seq' && !window.exact;
    }
    if (lower >= upper) return undefined;
    const values = boundValues(filter, pattern);
    const driver = this.chooseDriver(part.layout, filter, values, upper, lower);
    // Without a driving index the rows are read from entries alone, in seq order, with the values
    // taken from the body (the columns are defined as exactly that): no join per row.
    const layout = driver === 'pk' ? BODY_LAYOUT : part.layout;
    return { lower, upper, driver, layout, residuals: residualSql(layout, filter, driver, timeResidual, pattern !== undefined), values };
  }

  /**
   * The driver with the fewest rows in [lower, upper). Each candidate reads at most
   * DRIVER_SAMPLE index entries, newest first; when it has more, its total is extrapolated from
   * how far down in seq the sample reached (a value on every third row reaches 6,000 seqs down, a
   * value on one row in a hundred 200,000), so a common value never drives a rare one's page.
   */
  private chooseDriver(layout: Layout, filter: NormalizedFilter, values: Record<string, string>, upper: number, lower: number): Driver {
    const candidates: Driver[] = EQ_FIELDS.filter((f) => filter[f] !== undefined && layout.indexes[f] !== undefined);
    if (filter.user !== undefined && layout.indexes.osUser !== undefined && layout.indexes.appUser !== undefined) candidates.push('user');
    if (candidates.length <= 1) return candidates[0] ?? 'pk';
    let best: Driver = 'pk';
    let bestEstimate = Number.POSITIVE_INFINITY;
    for (const driver of candidates) {
      const sample = this.statement(`sample|${layout.name}|${driver}`, `SELECT count(*) AS n, min(seq) AS last FROM (${candidatesSql(layout, driver)} LIMIT :cap)`).get({
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

  /** Where the next `chunkRows` candidates end: the page query then looks no further. */
  private chunkWindow(plan: SegmentPlan, upper: number, chunkRows: number): { floor: number | null; n: number } {
    if (plan.driver === 'pk') {
      // A window of chunkRows seqs holds at most chunkRows rows (exactly that many: verify checks seq has no gaps).
      const floor = Math.max(plan.lower, upper - chunkRows);
      return { floor, n: upper - floor };
    }
    const sql = `SELECT min(seq) AS floor, count(*) AS n FROM (${candidatesSql(plan.layout, plan.driver)} LIMIT :chunk)`;
    return this.statement(`window|${plan.layout.name}|${plan.driver}`, sql).get({
      ...plan.values,
      upper,
      floor: plan.lower,
      chunk: chunkRows,
    }) as { floor: number | null; n: number };
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

/** Named parameters (better-sqlite3 ignores the ones a statement does not use). */
function boundValues(filter: NormalizedFilter, pattern: string | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of ['tool', 'outcome', 'decision', 'eventType', 'user', 'fromTime', 'toTime'] as const) {
    const value = filter[field];
    if (value !== undefined) values[field] = value;
  }
  if (pattern !== undefined) values.pattern = pattern;
  return values;
}

/**
 * The driving table as `v`, through `index` (pinned: it keeps SQLite from switching to another
 * one mid-way through the pages) or none; with `withBody`, entries joined as `e` when the body
 * lives there. CROSS JOIN keeps `v` the outer loop, so rows come in the index's seq order.
 */
function source(layout: Layout, index: string | undefined, withBody: boolean): string {
  const table = `${layout.table} AS v ${index === undefined ? 'NOT INDEXED' : `INDEXED BY ${index}`}`;
  return withBody && layout.table !== 'entries' ? `${table} CROSS JOIN entries AS e ON e.seq = v.seq` : table;
}

/**
 * `SELECT … FROM <driver> WHERE <driver's term> AND seq in [floor, upper)` for the driver, one
 * branch per index (two for `user`: osUser, appUser); the caller adds what it selects and the tail.
 */
function driverBranches(layout: Layout, driver: Driver, select: string, withBody: boolean, extra: string): string[] {
  const range = 'v.seq < :upper AND v.seq >= :floor';
  if (driver === 'user') {
    return (['osUser', 'appUser'] as const).map(
      (column) => `SELECT ${select} FROM ${source(layout, layout.indexes[column], withBody)} WHERE ${layout.columns[column]} = :user AND ${range}${extra}`,
    );
  }
  if (driver === 'pk') return [`SELECT ${select} FROM ${source(layout, undefined, withBody)} WHERE ${range}${extra}`];
  return [`SELECT ${select} FROM ${source(layout, layout.indexes[driver], withBody)} WHERE ${layout.columns[driver]} = :${driver} AND ${range}${extra}`];
}

/**
 * seq of the driver's candidates in [floor, upper), newest first (no LIMIT). For `user`, UNION of
 * two seq-ordered index scans: SQLite merges them (MERGE UNION) without sorting.
 */
function candidatesSql(layout: Layout, driver: Driver): string {
  return `${driverBranches(layout, driver, 'v.seq AS seq', false, '').join(' UNION ')} ORDER BY seq DESC`;
}

/** The page: rows of the driver's candidates that pass every residual, newest first. */
function pageSql(layout: Layout, driver: Driver, residuals: readonly string[]): string {
  const extra = residuals.map((r) => ` AND ${r}`).join('');
  // UNION (not UNION ALL) for `user`: a row whose osUser and appUser are both the value comes once.
  return `${driverBranches(layout, driver, `v.seq AS seq, ${layout.body} AS body`, true, extra).join(' UNION ')} ORDER BY seq DESC LIMIT :limit`;
}

/** Per-row tests for every filter the driver and the seq range do not already guarantee. */
function residualSql(layout: Layout, filter: NormalizedFilter, driver: Driver, time: boolean, text: boolean): string[] {
  const c = layout.columns;
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
  if (text) out.push(`${layout.body} LIKE :pattern ESCAPE '\\'`);
  return out;
}
