import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LATEST_SCHEMA_VERSION, migrate } from '../../electron/main/audit/ledger/migrations';
import { fillViewerRows, VIEWER_BATCH_ROWS } from '../../electron/main/audit/ledger/viewer-rows';
import { type SegmentEvent, writeSegment } from '../helpers/audit-segments';
import { auditEventStream } from './audit-query-corpus';

/**
 * The audit viewer benchmark's ledgers, built once under the OS temp folder and reused while the
 * stamp matches (about 1.5 minutes on 2 cores to build):
 * - monthly/: 1M rows of 2026 in twelve monthly segments (about 83k rows each) — a busy office's
 *   year, laid out as the ledger lays it out;
 * - single/: the same 1M rows in one segment — the stress case, a month twenty times busier than
 *   expected, where every index holds a million entries.
 * Rows are written at schema v3 with plain INSERTs (no journal, no fsync) and upgraded by the real
 * migration; one month is also upgraded the way the writer does it (WAL + FULL) and timed: that is
 * what the first start after the upgrade costs.
 */
export const LEDGER_CORPUS_VERSION = 3;
export const CORPUS_ROWS = 1_000_000;

export interface LedgerCorpus {
  readonly monthly: readonly string[];
  readonly single: readonly string[];
  readonly rows: number;
  readonly maxSeq: number;
  readonly generateSeconds: number;
  /** v3 → v4 as the writer runs it (WAL + FULL) on one monthly segment, and that segment's rows. */
  readonly writerMigrationSeconds: number;
  readonly writerMigrationRows: number;
}

interface Stamp extends LedgerCorpus {
  readonly version: number;
  readonly schemaVersion: number;
}

/** The stream is in time order: one UTC month's events at a time (a month fits in memory, a year does not comfortably). */
function* byMonth(events: Iterable<SegmentEvent>): Generator<[string, SegmentEvent[]]> {
  let month = '';
  let list: SegmentEvent[] = [];
  for (const e of events) {
    const m = e.time.toISOString().slice(0, 7);
    if (m !== month && list.length > 0) {
      yield [month, list];
      list = [];
    }
    month = m;
    list.push(e);
  }
  if (list.length > 0) yield [month, list];
}

/** Bulk corpus files only: no journal, no fsync. */
function openBulk(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  return db;
}

/**
 * The newest segment as the writer leaves it at worst: the last VIEWER_BATCH_ROWS − 1 rows not yet
 * in viewer_rows, so every page also reads that tail from the bodies.
 */
function leaveViewerTail(db: Database.Database): void {
  db.prepare('DELETE FROM viewer_rows WHERE seq > (SELECT max(seq) FROM entries) - ?').run(VIEWER_BATCH_ROWS - 1);
}

/** The upgrade as the writer runs it (WAL, synchronous=FULL) on a copy of one v3 month. */
function timeWriterMigration(v3File: string): number {
  const db = new Database(v3File);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const start = performance.now();
  migrate(db);
  const seconds = (performance.now() - start) / 1000;
  db.close();
  rmSync(v3File, { force: true });
  return seconds;
}

function build(root: string, log: (line: string) => void): Stamp {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'monthly'), { recursive: true });
  mkdirSync(join(root, 'single'), { recursive: true });
  const started = performance.now();
  const monthly: string[] = [];
  let seq = 1;
  let prevHash: string | undefined;
  for (const [month, events] of byMonth(auditEventStream(CORPUS_ROWS, new Date(Date.UTC(2026, 0, 1, 0, 0, 0)), 360))) {
    const file = join(root, 'monthly', `ledger-${month}.sqlite3`);
    const written = writeSegment(file, events, { firstSeq: seq, ...(prevHash ? { prevHash } : {}), schemaVersion: 3, fast: true });
    seq = written.lastSeq + 1;
    prevHash = written.lastHash;
    monthly.push(file);
  }
  const phase = (name: string): void => log(`  ${name}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  phase('monthly segments written');
  // Keep one month at v3 to time the writer's upgrade on it; bring the corpus itself to v4 in bulk.
  const sample = monthly[Math.floor(monthly.length / 2)] as string;
  const v3Copy = join(root, 'v3-copy.sqlite3');
  copyFileSync(sample, v3Copy);
  for (const file of monthly) {
    const db = openBulk(file);
    migrate(db);
    if (file === monthly.at(-1)) leaveViewerTail(db);
    db.close();
  }
  phase('monthly segments migrated');
  // The same rows in one segment, copied into a latest-schema file, then viewer_rows filled.
  const single = join(root, 'single', 'ledger-2026-12.sqlite3');
  const db = openBulk(single);
  migrate(db);
  for (const file of monthly) {
    db.prepare('ATTACH DATABASE ? AS seg').run(file);
    db.exec('INSERT INTO main.entries (seq, body, prev_hash, entry_hash) SELECT seq, body, prev_hash, entry_hash FROM seg.entries ORDER BY seq');
    db.exec('DETACH DATABASE seg');
  }
  fillViewerRows(db);
  leaveViewerTail(db);
  db.close();
  phase('single segment copied');
  const generateSeconds = (performance.now() - started) / 1000;
  const writerMigrationRows = (() => {
    const v3 = new Database(v3Copy, { readonly: true });
    const n = v3.prepare('SELECT count(*) FROM entries').pluck().get() as number;
    v3.close();
    return n;
  })();
  const writerMigrationSeconds = timeWriterMigration(v3Copy);
  return {
    version: LEDGER_CORPUS_VERSION,
    schemaVersion: LATEST_SCHEMA_VERSION,
    monthly,
    single: [single],
    rows: seq - 1,
    maxSeq: seq - 1,
    generateSeconds,
    writerMigrationSeconds,
    writerMigrationRows,
  };
}

export function ensureLedgerCorpus(log: (line: string) => void): LedgerCorpus {
  const root = join(tmpdir(), `baram-audit-query-bench-v${LEDGER_CORPUS_VERSION}`);
  const stampFile = join(root, 'stamp.json');
  if (existsSync(stampFile)) {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as Stamp;
    const filesThere = [...stamp.monthly, ...stamp.single].every((f) => existsSync(f));
    if (stamp.version === LEDGER_CORPUS_VERSION && stamp.schemaVersion === LATEST_SCHEMA_VERSION && stamp.rows === CORPUS_ROWS && filesThere) return stamp;
  }
  log(`building the 1M-row ledger corpus in ${root} (once; about 1.5 min)…`);
  const stamp = build(root, log);
  writeFileSync(stampFile, JSON.stringify(stamp));
  return stamp;
}
