import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { OUTCOMES } from '../../electron/common/domain';
import { canonicalJson } from '../../electron/common/canonical-json';
import { computeEntryHash, GENESIS_PREV_HASH } from '../../electron/main/audit/ledger/chain';
import { buildEventBody, type StoredEventBody } from '../../electron/main/audit/ledger/canonical-event';
import { LATEST_SCHEMA_VERSION, migrate } from '../../electron/main/audit/ledger/migrations';
import { checkSegmentIndexes } from '../../electron/main/audit/query/index-check';
import { LedgerReader, SCAN_CHUNK_ROWS, SCAN_MILLIS, type EventFilter, type EventPage } from '../../electron/main/audit/query/event-query';
import { prng } from '../helpers/prng';
import { auditEventStream, BENCH_TOOLS, BENCH_USERS, COMMON_TERM, RARE_TERM } from './audit-query-corpus';
import { ensureLedgerCorpus, type LedgerCorpus } from './audit-query-ledger';
import { formatBytes, percentile, printRows } from './lib/stats';

/**
 * Audit viewer queries (issue #3 item 6): one page of events (50, newest first) under every kind
 * of filter the viewer offers, on 1M rows, in two layouts (twelve monthly segments; one 1M-row
 * segment). Each case draws random filter values (a rare tool as likely as a common one, every
 * outcome equally — so the rare outcomes get their share), takes the first page, follows
 * nextBeforeSeq for up to three more pages, and starts once more at a random depth (beforeSeq).
 * Baselines in the same run: the unfiltered page and a full-table `SELECT count(*)`.
 * Target: p95 of one page call under 50 ms at 1M rows.
 * Also printed: the migration time, the insert cost of each schema's indexes against a bare
 * FULL-sync insert, and the index check (integrity_check, and viewer_rows against the bodies).
 *
 *   npx tsx tests/bench/audit-query.bench.ts [--fts]
 * --fts adds the FTS5-trigram comparison behind the text-search decision (about 4 more minutes).
 */
const TARGET_P95_MS = 50;
const TARGET_APPEND_RATIO = 1.5;
const INSTANCES_PER_CASE = 24;
const FOLLOW_PAGES = 3;

type FilterMaker = (rand: () => number) => EventFilter;

const EVENT_TYPES = ['tool.proposed', 'permission.decided', 'approval.requested', 'approval.decided', 'execution.started', 'execution.finished', 'schema.violation', 'precheck.refused', 'request', 'session.start'];
const DECISIONS = ['allow', 'ask', 'deny'] as const;

function choose<T>(items: readonly T[], rand: () => number): T {
  return items[Math.floor(rand() * items.length)] as T;
}

function anyUser(rand: () => number): string {
  const user = choose(BENCH_USERS, rand);
  return rand() < 0.5 ? user.osUser : user.appUser;
}

/** A random range inside 2026 of one day, week, month or quarter, as KST midnights. */
function timeRange(rand: () => number, days?: number): { fromTime: string; toTime: string } {
  const length = days ?? choose([1, 7, 30, 91], rand);
  const startDay = Math.floor(rand() * (365 - length));
  const from = new Date(Date.UTC(2026, 0, 1 + startDay) - 9 * 3600_000);
  const to = new Date(from.getTime() + length * 86_400_000);
  return { fromTime: from.toISOString().replace('.000Z', '+00:00'), toTime: to.toISOString() };
}

const CASES: readonly (readonly [string, FilterMaker])[] = [
  ['no filter (baseline)', () => ({})],
  ['tool', (r) => ({ tool: choose(BENCH_TOOLS, r).name })],
  ['user', (r) => ({ user: anyUser(r) })],
  ['outcome', (r) => ({ outcome: choose(OUTCOMES, r) })],
  ['decision', (r) => ({ decision: choose(DECISIONS, r) })],
  ['eventType', (r) => ({ eventType: choose(EVENT_TYPES, r) })],
  ['time range', (r) => timeRange(r)],
  ['tool + user', (r) => ({ tool: choose(BENCH_TOOLS, r).name, user: anyUser(r) })],
  ['outcome + tool', (r) => ({ outcome: choose(OUTCOMES, r), tool: choose(BENCH_TOOLS, r).name })],
  ['denied + tool', (r) => ({ outcome: 'denied', tool: choose(BENCH_TOOLS, r).name })],
  ['decision + user', (r) => ({ decision: choose(DECISIONS, r), user: anyUser(r) })],
  ['time range + user', (r) => ({ ...timeRange(r), user: anyUser(r) })],
  ['time day + tool + outcome', (r) => ({ ...timeRange(r, 1), tool: choose(BENCH_TOOLS, r).name, outcome: choose(OUTCOMES, r) })],
  ['text common (보고서)', () => ({ text: COMMON_TERM })],
  ['text 2-char (삭제)', () => ({ text: '삭제' })],
  [`text rare (${RARE_TERM})`, () => ({ text: RARE_TERM })],
  ['text ASCII any case (IPCONFIG)', () => ({ text: 'IPCONFIG /ALL' })],
  ['text + tool', (r) => ({ text: COMMON_TERM, tool: choose(BENCH_TOOLS, r).name })],
  ['text rare + user', (r) => ({ text: RARE_TERM, user: anyUser(r) })],
];

interface Sample {
  readonly ms: number;
  readonly events: number;
  readonly limited: boolean;
}

function timedPage(reader: LedgerReader, filter: EventFilter, beforeSeq?: number): { sample: Sample; page: EventPage } {
  const start = performance.now();
  const page = reader.page(filter, beforeSeq === undefined ? {} : { beforeSeq });
  const ms = performance.now() - start;
  return { sample: { ms, events: page.events.length, limited: page.scanLimitReached === true }, page };
}

function runCases(layout: string, files: readonly string[], maxSeq: number): { all: Sample[]; baseline: Sample[] } {
  const openStart = performance.now();
  const reader = LedgerReader.open(files);
  const openMs = performance.now() - openStart;
  const rand = prng(4242);
  const all: Sample[] = [];
  let baseline: Sample[] = [];
  const rows: Record<string, string | number>[] = [];
  for (const [name, make] of CASES) {
    const samples: Sample[] = [];
    for (let i = 0; i < INSTANCES_PER_CASE; i++) {
      const filter = make(rand);
      let { sample, page } = timedPage(reader, filter);
      samples.push(sample);
      for (let p = 0; p < FOLLOW_PAGES && page.nextBeforeSeq !== undefined; p++) {
        ({ sample, page } = timedPage(reader, filter, page.nextBeforeSeq));
        samples.push(sample);
      }
      samples.push(timedPage(reader, filter, 1 + Math.floor(rand() * maxSeq)).sample);
    }
    const ms = samples.map((s) => s.ms);
    rows.push({
      case: name,
      calls: samples.length,
      'p50 ms': percentile(ms, 50),
      'p95 ms': percentile(ms, 95),
      'max ms': Math.max(...ms),
      'events/call': samples.reduce((a, s) => a + s.events, 0) / samples.length,
      'limit stops': samples.filter((s) => s.limited).length,
    });
    all.push(...samples);
    if (baseline.length === 0) baseline = samples;
  }
  printRows(`\n${layout}: ${files.length} segment(s), reader opened in ${openMs.toFixed(1)} ms; one page = 50 events, newest first`, rows);
  sweep(reader, { text: RARE_TERM });
  sweep(reader, { text: RARE_TERM, user: BENCH_USERS[3]?.appUser as string });
  reader.close();
  return { all, baseline };
}

/** A rare text term, paged to the very end: what the bounded scan costs where FTS would answer at once. */
function sweep(reader: LedgerReader, filter: EventFilter): void {
  let calls = 0;
  let events = 0;
  let slowest = 0;
  let next: number | undefined;
  const start = performance.now();
  do {
    const t = performance.now();
    const page = reader.page(filter, { limit: 50, ...(next === undefined ? {} : { beforeSeq: next }) });
    slowest = Math.max(slowest, performance.now() - t);
    calls += 1;
    events += page.events.length;
    next = page.nextBeforeSeq;
  } while (next !== undefined);
  const total = performance.now() - start;
  console.log(`  sweep ${JSON.stringify(filter)} to the oldest row: ${events} matches in ${calls} calls, ${total.toFixed(0)} ms in all, slowest call ${slowest.toFixed(1)} ms`);
}

function fullCount(files: readonly string[]): { ms: number; rows: number } {
  const dbs = files.map((f) => new Database(f, { readonly: true, fileMustExist: true }));
  const count = () => dbs.reduce((n, db) => n + (db.prepare('SELECT count(*) FROM entries').pluck().get() as number), 0);
  count();
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    rows = count();
    times.push(performance.now() - start);
  }
  for (const db of dbs) db.close();
  return { ms: percentile(times, 50), rows };
}

function verdict(layout: string, samples: readonly Sample[], baselineP95: number): void {
  const p95 = percentile(samples.map((s) => s.ms), 95);
  const p50 = percentile(samples.map((s) => s.ms), 50);
  console.log(
    `${layout}: all ${samples.length} page calls p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (unfiltered page p95 ${baselineP95.toFixed(2)} ms); ` +
      `target p95 < ${TARGET_P95_MS} ms at 1M rows: ${p95 < TARGET_P95_MS ? 'MET' : 'NOT MET'}`,
  );
}

/**
 * Append cost of the schema's indexes: the ledger's write path (IMMEDIATE transaction: read the
 * last row, insert the next, commit with WAL + synchronous=FULL) on an empty file at v1 (no
 * virtual column, no index: a bare FULL-sync insert), v3, v4 (viewer indexes on entries) and v5
 * (none on entries; viewer_rows is filled by the ledger every 4,096 rows, which this loop does not
 * do: the whole append, fills included, is tests/bench/audit-append.bench.ts), interleaved in
 * rounds so disk noise hits all alike. Then the same with synchronous=OFF, which leaves only the
 * CPU cost of the index maintenance visible.
 */
function appendCost(): void {
  const dir = join(tmpdir(), `baram-audit-append-bench-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  const bodies = [...auditEventStream(4000, new Date(Date.UTC(2026, 5, 1)), 30, 99)].map((e, i) => buildEventBody(i + 1, e.time, e.identity, e.event));
  const results: Record<string, string | number>[] = [];
  const ratios: { sync: string; ratio: number }[] = [];
  for (const sync of ['FULL', 'OFF'] as const) {
    const writers = [1, 3, 4, LATEST_SCHEMA_VERSION].map((version) => {
      const file = join(dir, `v${version}-${sync}`, 'ledger-2026-06.sqlite3');
      const db = openWriter(file, version, sync);
      return { version, db, append: chainedAppend(db, bodies), times: [] as number[] };
    });
    const rounds = sync === 'FULL' ? 40 : 80;
    for (let round = 0; round < rounds; round++) {
      for (const w of writers) {
        for (let k = 0; k < 50; k++) {
          const start = performance.now();
          w.append(round * 50 + k);
          w.times.push(performance.now() - start);
        }
      }
    }
    const bare = writers[0] as (typeof writers)[number];
    for (const w of writers) {
      results.push({
        synchronous: sync,
        schema: `v${w.version}${SCHEMA_NOTES[w.version] ?? ''}`,
        appends: w.times.length,
        'p50 ms': percentile(w.times, 50),
        'p95 ms': percentile(w.times, 95),
        'mean ms': w.times.reduce((a, b) => a + b, 0) / w.times.length,
        'x bare (mean)': w.times.reduce((a, b) => a + b, 0) / bare.times.reduce((a, b) => a + b, 0),
      });
      w.db.close();
    }
    const latest = writers.at(-1) as (typeof writers)[number];
    ratios.push({ sync, ratio: latest.times.reduce((a, b) => a + b, 0) / bare.times.reduce((a, b) => a + b, 0) });
  }
  printRows('\nappend cost per row (the ledger write path; one transaction per row)', results);
  const full = ratios.find((r) => r.sync === 'FULL') as { ratio: number };
  console.log(
    `v${LATEST_SCHEMA_VERSION} insert path / bare FULL-sync insert = ${full.ratio.toFixed(2)}x (target < ${TARGET_APPEND_RATIO}x): ${full.ratio < TARGET_APPEND_RATIO ? 'MET' : 'NOT MET'}`,
  );
  rmSync(dir, { recursive: true, force: true });
}

const SCHEMA_NOTES: Readonly<Record<number, string>> = { 1: ' (bare)', 4: ' (viewer indexes)', 5: ' (viewer_rows)' };

function openWriter(file: string, version: number, sync: 'FULL' | 'OFF'): Database.Database {
  const parent = join(file, '..');
  rmSync(parent, { recursive: true, force: true });
  mkdirSync(parent, { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${sync}`);
  migrate(db, version);
  return db;
}

function integrityCost(corpus: LedgerCorpus): void {
  const file = corpus.monthly[Math.floor(corpus.monthly.length / 2)] as string;
  const rows = (() => {
    const db = new Database(file, { readonly: true });
    const n = db.prepare('SELECT count(*) FROM entries').pluck().get() as number;
    db.close();
    return n;
  })();
  const start = performance.now();
  const result = checkSegmentIndexes(file);
  const seconds = (performance.now() - start) / 1000;
  console.log(`\nindex check (integrity_check + viewer_rows against the bodies; guards what the chain does not cover) on one monthly segment of ${rows} rows: ${seconds.toFixed(2)} s, ${result.ok ? 'ok' : 'PROBLEMS'} (≈ ${((seconds * 1_000_000) / rows).toFixed(1)} s per 1M rows)`);
}

/** The road not taken for text search: an FTS5 trigram index over the body, on a copy of the 1M-row segment. */
function ftsComparison(corpus: LedgerCorpus): void {
  const source = corpus.single[0] as string;
  const copy = join(tmpdir(), `baram-audit-fts-bench-${process.pid}.sqlite3`);
  copyFileSync(source, copy);
  const db = new Database(copy);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const before = statSync(copy).size;
  let start = performance.now();
  db.exec(`CREATE VIRTUAL TABLE entries_fts USING fts5(body, content='entries', content_rowid='seq', tokenize='trigram case_sensitive 0', detail='full')`);
  db.exec(`INSERT INTO entries_fts(entries_fts) VALUES('rebuild')`);
  const buildSeconds = (performance.now() - start) / 1000;
  const grown = statSync(copy).size - before;
  const page = db.prepare(`SELECT e.seq, e.body FROM entries_fts f JOIN entries e ON e.seq = f.rowid WHERE f.body LIKE ? ORDER BY f.rowid DESC LIMIT 50`);
  const rows: Record<string, string | number>[] = [];
  for (const term of [COMMON_TERM, '삭제', RARE_TERM, 'IPCONFIG /ALL']) {
    const pattern = `%${term}%`;
    page.all(pattern);
    const times: number[] = [];
    let n = 0;
    for (let i = 0; i < 5; i++) {
      start = performance.now();
      n = page.all(pattern).length;
      times.push(performance.now() - start);
    }
    rows.push({ term, 'first page ms (p50 of 5)': percentile(times, 50), events: n });
  }
  db.close();
  rmSync(copy, { force: true });
  console.log(`\nFTS5 trigram (detail=full) on the 1M-row segment: built in ${buildSeconds.toFixed(0)} s, +${formatBytes(grown)} (the table itself: ${formatBytes(before)})`);
  printRows('FTS5 LIKE page (trigram needs ≥ 3 characters: 삭제 falls back to a scan of every row)', rows);
  ftsAppendCost();
}

/** The write path of appendCost() at v4, with and without an FTS5 trigram table kept by a trigger. */
function ftsAppendCost(): void {
  const dir = join(tmpdir(), `baram-audit-fts-append-${process.pid}`);
  const bodies = [...auditEventStream(4000, new Date(Date.UTC(2026, 5, 1)), 30, 99)].map((e, i) => buildEventBody(i + 1, e.time, e.identity, e.event));
  const variants = [false, true].map((fts) => {
    const db = openWriter(join(dir, fts ? 'fts' : 'plain', 'ledger-2026-06.sqlite3'), 4, 'FULL');
    if (fts) {
      db.exec(`CREATE VIRTUAL TABLE entries_fts USING fts5(body, content='entries', content_rowid='seq', tokenize='trigram case_sensitive 0', detail='full');
               CREATE TRIGGER entries_fts_insert AFTER INSERT ON entries BEGIN INSERT INTO entries_fts(rowid, body) VALUES (new.seq, new.body); END;`);
    }
    return { fts, db, append: chainedAppend(db, bodies), times: [] as number[] };
  });
  for (let round = 0; round < 40; round++) {
    for (const v of variants) {
      for (let k = 0; k < 50; k++) {
        const start = performance.now();
        v.append(round * 50 + k);
        v.times.push(performance.now() - start);
      }
    }
  }
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [plain, fts] = variants as [(typeof variants)[number], (typeof variants)[number]];
  printRows(
    'append with FTS5 trigram (FULL sync, v4)',
    variants.map((v) => ({ variant: v.fts ? 'v4 + FTS5 trigger' : 'v4', 'p50 ms': percentile(v.times, 50), 'mean ms': mean(v.times), 'x v4': mean(v.times) / mean(plain.times) })),
  );
  console.log(`FTS5 adds ${(((mean(fts.times) - mean(plain.times)) / mean(plain.times)) * 100).toFixed(0)} % to an append`);
  for (const v of variants) v.db.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The ledger's write path without its own code: in one IMMEDIATE transaction, read the tail, chain
 * the next body onto it, insert. `i` picks the body (cycling through `bodies`).
 */
function chainedAppend(db: Database.Database, bodies: readonly StoredEventBody[]): (i: number) => void {
  const last = db.prepare<[], { seq: number; entry_hash: string }>('SELECT seq, entry_hash FROM entries ORDER BY seq DESC LIMIT 1');
  const insert = db.prepare('INSERT INTO entries (seq, body, prev_hash, entry_hash) VALUES (?, ?, ?, ?)');
  const append = db.transaction((i: number) => {
    const row = last.get();
    const seq = (row?.seq ?? 0) + 1;
    const prev = row?.entry_hash ?? GENESIS_PREV_HASH;
    const body = canonicalJson({ ...bodies[i % bodies.length], seq });
    insert.run(seq, body, prev, computeEntryHash(seq, prev, body));
  });
  return (i) => append.immediate(i);
}

/**
 * Reads the segment files (and their WAL) through the OS cache, so that a run right after the corpus
 * was evicted (another benchmark, hours later) measures the queries and not this VM's disk.
 */
function warmOsCache(files: readonly string[]): { mb: number; seconds: number } {
  const started = performance.now();
  const chunk = Buffer.allocUnsafe(1 << 20);
  let bytes = 0;
  for (const file of files.flatMap((f) => [f, `${f}-wal`]).filter((f) => existsSync(f))) {
    const fd = openSync(file, 'r');
    try {
      for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) bytes += n;
    } finally {
      closeSync(fd);
    }
  }
  return { mb: bytes / (1 << 20), seconds: (performance.now() - started) / 1000 };
}

function main(): void {
  const corpus = ensureLedgerCorpus((line) => console.log(line));
  console.log(
    `corpus: ${corpus.rows} rows (seq 1–${corpus.maxSeq}); generated in ${corpus.generateSeconds.toFixed(0)} s; ` +
      `v3 → v${LATEST_SCHEMA_VERSION} migration as the writer runs it (WAL + FULL): ${corpus.writerMigrationSeconds.toFixed(1)} s for one month of ${corpus.writerMigrationRows} rows`,
  );
  console.log(
    `scan limit per call: ${SCAN_MILLIS} ms in chunks of ${SCAN_CHUNK_ROWS} candidate rows (a call that reaches it returns what it found and where to continue: "limit stops")`,
  );
  const warmed = warmOsCache([...corpus.monthly, ...corpus.single]);
  console.log(
    `segment files read once into the OS cache first (${warmed.mb.toFixed(0)} MB in ${warmed.seconds.toFixed(1)} s): the pages below are timed as a viewer sees them ` +
      `once its files are cached (right after a reboot the first pages also wait for the disk: p95 67 ms here, 2026-12-02)`,
  );
  const counted = fullCount(corpus.monthly);
  console.log(`baseline: SELECT count(*) over all ${corpus.monthly.length} monthly segments (${counted.rows} rows): ${counted.ms.toFixed(1)} ms`);

  for (const [layout, files] of [
    ['monthly segments', corpus.monthly],
    ['one 1M-row segment (stress)', corpus.single],
  ] as const) {
    const { all, baseline } = runCases(layout, files, corpus.maxSeq);
    verdict(layout, all, percentile(baseline.map((s) => s.ms), 95));
  }
  appendCost();
  integrityCost(corpus);
  if (process.argv.includes('--fts')) ftsComparison(corpus);
}

main();
