import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ensureSchema, SCHEMA_VERSION as LATEST_SCHEMA_VERSION } from '../../electron/main/audit/ledger/schema';
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
 * Rows are written with the ledger's schema by plain INSERTs (no journal, no fsync), viewer_rows
 * filled as the writer fills it.
 */
export const LEDGER_CORPUS_VERSION = 4;
export const CORPUS_ROWS = 1_000_000;

export interface LedgerCorpus {
  readonly monthly: readonly string[];
  readonly single: readonly string[];
  readonly rows: number;
  readonly maxSeq: number;
  readonly generateSeconds: number;
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

function leaveViewerTailOf(file: string): void {
  const db = openBulk(file);
  leaveViewerTail(db);
  db.close();
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
    const written = writeSegment(file, events, { firstSeq: seq, ...(prevHash ? { prevHash } : {}), fast: true });
    seq = written.lastSeq + 1;
    prevHash = written.lastHash;
    monthly.push(file);
  }
  const phase = (name: string): void => log(`  ${name}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  phase('monthly segments written');
  leaveViewerTailOf(monthly.at(-1) as string);
  // The same rows in one segment, copied into a latest-schema file, then viewer_rows filled.
  const single = join(root, 'single', 'ledger-2026-12.sqlite3');
  const db = openBulk(single);
  ensureSchema(db, single);
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
  return {
    version: LEDGER_CORPUS_VERSION,
    schemaVersion: LATEST_SCHEMA_VERSION,
    monthly,
    single: [single],
    rows: seq - 1,
    maxSeq: seq - 1,
    generateSeconds,
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
