import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEventInput } from '../../../electron/common/audit-events';
import type { Decision, Outcome, Risk } from '../../../electron/common/domain';
import { OUTCOMES } from '../../../electron/common/domain';
import type { LedgerIdentity, StoredEventBody } from '../../../electron/main/audit/ledger/canonical-event';
import { computeEntryHash, GENESIS_PREV_HASH } from '../../../electron/main/audit/ledger/chain';
import { ensureSchema, SCHEMA_VERSION as LATEST_SCHEMA_VERSION } from '../../../electron/main/audit/ledger/schema';
import {
  checkPageRequest,
  EventFilterError,
  LedgerReader,
  likeSubstring,
  type EventFilter,
  type ReaderOptions,
} from '../../../electron/main/audit/query/event-query';
import { checkSegmentIndexes } from '../../../electron/main/audit/query/index-check';
import { LedgerReadError } from '../../../electron/main/audit/query/query-messages';
import { type SegmentEvent, writeSegment } from '../../helpers/audit-segments';
import { prng } from '../../helpers/prng';

// ── a small, realistic ledger: three monthly segments, three users, four tools ─────────────────

const USERS: readonly LedgerIdentity[] = [
  { sessionId: 'sess-kim', osUser: 'kim', appUser: '김민수', hostId: 'PC-101' },
  { sessionId: 'sess-lee', osUser: 'lee', appUser: '이서연', hostId: 'PC-102' },
  // Same name as OS user and app user: a `user` filter must return each of its rows once.
  { sessionId: 'sess-park', osUser: 'park', appUser: 'park', hostId: 'PC-103' },
];
const TOOLS: readonly { name: string; risk: Risk; actionClass: '조회' | '삭제' | '실행' }[] = [
  { name: 'filesystem.read', risk: 'read', actionClass: '조회' },
  { name: 'search.text', risk: 'read', actionClass: '조회' },
  { name: 'filesystem.delete', risk: 'destructive', actionClass: '삭제' },
  { name: 'shell.execute', risk: 'execute', actionClass: '실행' },
];
const FILE_NAMES = ['3분기_매출_보고서.xlsx', 'Report_Q3.xlsx', 'reportXq3.txt', '회의록.hwp', '예산.xlsx'];
const PROMPTS = ['지난달 보고서를 요약해 줘', '할인 50% 적용된 견적서를 찾아 줘', '500 건의 목록을 정리해 줘', 'Q3 REPORT 찾아 줘'];

interface Built {
  readonly dir: string;
  readonly files: string[];
  readonly bodies: StoredEventBody[];
}

/** One tool call's events, as the gate writes them (tool.proposed → … → execution.finished). */
function toolCall(rand: () => number, user: LedgerIdentity, callNo: number): AuditEventInput[] {
  const tool = TOOLS[Math.floor(rand() * TOOLS.length)] as (typeof TOOLS)[number];
  const path = `C:\\Users\\${user.osUser}\\문서\\${FILE_NAMES[Math.floor(rand() * FILE_NAMES.length)] as string}`;
  const base = { callId: `call-${callNo}`, tool: tool.name, risk: tool.risk, actionClass: tool.actionClass };
  const r = rand();
  const decision: Decision = r < 0.15 ? 'deny' : r < 0.4 ? 'ask' : 'allow';
  const events: AuditEventInput[] = [
    { ...base, type: 'tool.proposed', data: { args: { path }, argsSha256: createHash('sha256').update(path).digest('hex') } },
    { ...base, type: 'permission.decided', decision, rule: decision === 'deny' ? 'deny.paths[0]' : `defaults.${tool.risk}`, ruleSource: 'admin', target: [path] },
  ];
  if (decision === 'deny') return [...events, { ...base, type: 'execution.finished', outcome: 'denied', data: { blocked: true, message: 'Denied by rule deny.paths[0]' } }];
  if (decision === 'ask') {
    events.push({ ...base, type: 'approval.requested', data: { digest: 'd'.repeat(64), summary: `${path} ${tool.actionClass}`, targetCount: 1 } });
    events.push({ ...base, type: 'approval.decided', data: { digest: 'd'.repeat(64), choice: 'allow-once', approver: user.appUser, waitedMs: 1200 } });
  }
  const outcomes: readonly Outcome[] = ['ok', 'ok', 'ok', 'ok', 'error', 'timeout', 'cancelled'];
  const outcome = outcomes[Math.floor(rand() * outcomes.length)] as Outcome;
  events.push({ ...base, type: 'execution.started', target: [path], data: { digest: 'd'.repeat(64) } });
  events.push({ ...base, type: 'execution.finished', outcome, target: [path], data: { durationMs: 12.5, outputChars: 300, outputSha256: 'e'.repeat(64) } });
  return events;
}

/**
 * `count` events from `start`, `stepMinutes` apart — except that after `clockBackAt` events the
 * clock steps back twelve hours (a manual clock fix), so times overlap earlier rows of the segment.
 */
function monthEvents(seed: number, count: number, start: Date, stepMinutes: number, clockBackAt?: number): SegmentEvent[] {
  const rand = prng(seed);
  const out: SegmentEvent[] = [];
  let clock = start.getTime();
  let callNo = seed * 1000;
  while (out.length < count) {
    const user = USERS[Math.floor(rand() * USERS.length)] as LedgerIdentity;
    const events: AuditEventInput[] =
      rand() < 0.2 ? [{ type: 'request', data: { prompt: PROMPTS[Math.floor(rand() * PROMPTS.length)] } }] : toolCall(rand, user, callNo++);
    for (const event of events) {
      if (out.length >= count) break;
      if (out.length === clockBackAt) clock -= 12 * 3600_000;
      clock += stepMinutes * 60_000;
      out.push({ identity: user, time: new Date(clock), event });
    }
  }
  return out;
}

/**
 * viewer_rows is filled every 24 seqs here (the ledger: every 4,096), so the segments end with
 * unfilled tails of 0 (2026-10), 20 (2026-11) and 16 rows (2026-12), and every filter below reads
 * both parts of a v5 segment.
 */
const TEST_VIEWER_BATCH = 24;

function buildLedger(): Built {
  const dir = mkdtempSync(join(tmpdir(), 'baram-event-query-'));
  const months = [
    // Six-hourly through October, five-hourly through November (clock set back at Nov 15 14:00) and December.
    { name: '2026-10', events: monthEvents(1, 120, new Date(Date.UTC(2026, 9, 1)), 360) },
    { name: '2026-11', events: monthEvents(2, 140, new Date(Date.UTC(2026, 10, 1)), 300, 70) },
    { name: '2026-12', events: monthEvents(3, 140, new Date(Date.UTC(2026, 11, 1)), 300) },
  ];
  const files: string[] = [];
  const bodies: StoredEventBody[] = [];
  let firstSeq = 1;
  let prevHash: string | undefined;
  for (const month of months) {
    const file = join(dir, `ledger-${month.name}.sqlite3`);
    const written = writeSegment(file, month.events, {
      firstSeq,
      viewerBatchRows: TEST_VIEWER_BATCH,
      ...(prevHash ? { prevHash } : {}),
    });
    firstSeq = written.lastSeq + 1;
    prevHash = written.lastHash;
    files.push(file);
    bodies.push(...written.bodies);
  }
  return { dir, files, bodies };
}

// ── the oracle: the same filter, written the obvious way over the bodies ───────────────────────

function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function oracle(bodies: readonly StoredEventBody[], f: EventFilter, beforeSeq = Number.POSITIVE_INFINITY): number[] {
  const ms = (t: string) => Date.parse(t);
  return bodies
    .filter((b) => b.seq < beforeSeq)
    .filter((b) => f.fromTime === undefined || ms(b.time) >= ms(f.fromTime))
    .filter((b) => f.toTime === undefined || ms(b.time) < ms(f.toTime))
    .filter((b) => f.user === undefined || b.osUser === f.user || b.appUser === f.user)
    .filter((b) => f.tool === undefined || b.tool === f.tool)
    .filter((b) => f.outcome === undefined || b.outcome === f.outcome)
    .filter((b) => f.decision === undefined || b.decision === f.decision)
    .filter((b) => f.eventType === undefined || b.type === f.eventType)
    .filter((b) => f.text === undefined || asciiLower(JSON.stringify(sortedKeys(b))).includes(asciiLower(JSON.stringify(f.text).slice(1, -1))))
    .map((b) => b.seq)
    .sort((a, b) => b - a);
}

/** Key order as stored (canonical JSON sorts keys), so a needle spanning two fields is judged alike. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, sortedKeys(v)]),
    );
  }
  return value;
}

/** Follows nextBeforeSeq to the end, checking the paging contract on the way. */
function collect(reader: LedgerReader, filter: EventFilter, limit: number, beforeSeq?: number): { seqs: number[]; pages: number } {
  const seqs: number[] = [];
  let next = beforeSeq;
  let pages = 0;
  for (;;) {
    const page = reader.page(filter, { limit, ...(next === undefined ? {} : { beforeSeq: next }) });
    pages += 1;
    expect(page.events.length).toBeLessThanOrEqual(limit);
    if (page.events.length < limit && page.nextBeforeSeq !== undefined) expect(page.scanLimitReached).toBe(true);
    for (const event of page.events) {
      if (next !== undefined) expect(event.seq).toBeLessThan(next);
      seqs.push(event.seq);
    }
    if (page.nextBeforeSeq === undefined) return { seqs, pages };
    // Progress on every call, even an empty one.
    if (next !== undefined) expect(page.nextBeforeSeq).toBeLessThan(next);
    next = page.nextBeforeSeq;
    if (pages > 10_000) throw new Error('paging does not end');
  }
}

/** Tests that check exact page shapes must not depend on the machine's speed. */
const UNHURRIED: ReaderOptions = { scanMillis: 60_000 };
/** Stops every call after one chunk of three candidates: exercises every continuation path. */
const CHOPPY: ReaderOptions = { scanMillis: 0, chunkRows: 3 };

let ledger: Built;
beforeAll(() => {
  ledger = buildLedger();
});
afterAll(() => rmSync(ledger.dir, { recursive: true, force: true }));

const FILTERS: readonly (readonly [string, EventFilter])[] = [
  ['no filter', {}],
  ['tool', { tool: 'filesystem.delete' }],
  ['os user', { user: 'kim' }],
  ['app user', { user: '이서연' }],
  ['user who is both', { user: 'park' }],
  ['outcome (rare)', { outcome: 'timeout' }],
  ['outcome denied', { outcome: 'denied' }],
  ['decision', { decision: 'deny' }],
  ['event type', { eventType: 'approval.decided' }],
  ['event type without a dot', { eventType: 'request' }],
  ['from only', { fromTime: '2026-11-15T00:00:00Z' }],
  ['to only', { toTime: '2026-11-03T09:00:00+09:00' }],
  ['range across a segment boundary', { fromTime: '2026-10-30T00:00:00Z', toTime: '2026-11-02T12:00:00Z' }],
  ['range through the clock step-back', { fromTime: '2026-11-15T06:00:00Z', toTime: '2026-11-15T13:00:00Z' }],
  ['Korean text', { text: '보고서' }],
  ['2-syllable Korean text', { text: '삭제' }],
  ['ASCII text, other case', { text: 'REPORT_Q3' }],
  ['text with a LIKE wildcard', { text: '50%' }],
  ['text with a backslash', { text: 'Users\\lee\\문서' }],
  ['tool + user', { tool: 'shell.execute', user: '김민수' }],
  ['outcome + tool', { outcome: 'denied', tool: 'filesystem.delete' }],
  ['decision + user', { decision: 'ask', user: 'park' }],
  ['time + user', { fromTime: '2026-11-01T00:00:00Z', toTime: '2026-12-05T00:00:00Z', user: 'lee' }],
  ['time + tool + outcome', { fromTime: '2026-10-10T00:00:00Z', toTime: '2026-12-10T00:00:00Z', tool: 'filesystem.read', outcome: 'ok' }],
  ['text + tool', { text: '보고서', tool: 'filesystem.delete' }],
  ['text + user + event type', { text: 'report', user: 'park', eventType: 'tool.proposed' }],
  ['everything', { fromTime: '2026-10-01T00:00:00Z', toTime: '2027-01-01T00:00:00Z', user: 'kim', tool: 'filesystem.delete', outcome: 'ok', eventType: 'execution.finished', text: '삭제' }],
  ['nothing matches', { tool: 'shell.execute', decision: 'deny', outcome: 'ok' }],
];

describe('LedgerReader filters', () => {
  it('the test ledger has what the filters need (otherwise the cases below prove nothing)', () => {
    for (const [name, filter] of FILTERS) {
      if (name === 'nothing matches') expect(oracle(ledger.bodies, filter)).toEqual([]);
      else expect(oracle(ledger.bodies, filter).length, name).toBeGreaterThan(0);
    }
    // The wildcard and case cases discriminate: unescaped or case-sensitive matching would differ.
    expect(oracle(ledger.bodies, { text: '50' }).length).toBeGreaterThan(oracle(ledger.bodies, { text: '50%' }).length);
    expect(ledger.bodies.some((b) => JSON.stringify(b).includes('reportXq3'))).toBe(true);
    expect(oracle(ledger.bodies, { text: 'Report_Q3' }).length).toBeLessThan(oracle(ledger.bodies, { text: 'REPORT' }).length);
    // The clock step-back makes time disagree with seq inside the November segment, right inside
    // the step-back range: its seq span holds a row outside the range.
    const backwards = ledger.bodies.filter((b, i) => i > 0 && b.time < (ledger.bodies[i - 1] as StoredEventBody).time);
    expect(backwards.map((b) => b.time)).toEqual(['2026-11-15T07:00:00.000Z']);
    const stepBack = oracle(ledger.bodies, { fromTime: '2026-11-15T06:00:00Z', toTime: '2026-11-15T13:00:00Z' });
    expect(stepBack.length).toBeLessThan(Math.max(...stepBack) - Math.min(...stepBack) + 1);
    // Rows above viewer_rows' highest seq, per segment: both parts of a segment are exercised.
    expect(ledger.files.map(unfilledViewerRows)).toEqual([0, 20, 16]);
  });

  for (const [name, filter] of FILTERS) {
    it(`${name}: every match exactly once, newest first, across segments`, () => {
      const reader = LedgerReader.open(ledger.files, UNHURRIED);
      try {
        const expected = oracle(ledger.bodies, filter);
        expect(collect(reader, filter, 17).seqs).toEqual(expected);
        const first = reader.page(filter);
        expect(first.events.map((e) => e.seq)).toEqual(expected.slice(0, 50));
        expect(first.nextBeforeSeq).toBe(expected.length > 50 ? expected[49] : undefined);
      } finally {
        reader.close();
      }
    });

    it(`${name}: the same rows when every call stops after three candidates`, () => {
      const reader = LedgerReader.open(ledger.files, CHOPPY);
      try {
        expect(collect(reader, filter, 5).seqs).toEqual(oracle(ledger.bodies, filter));
      } finally {
        reader.close();
      }
    });
  }
});

describe('LedgerReader paging', () => {
  it('a page that crosses from the newest segment into the one before', () => {
    const reader = LedgerReader.open(ledger.files, UNHURRIED);
    try {
      // Segments: 2026-10 = seq 1–120, 2026-11 = 121–260, 2026-12 = 261–400.
      const page = reader.page({}, { beforeSeq: 271, limit: 20 });
      expect(page.events.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 270 - i));
      expect(page.nextBeforeSeq).toBe(251);
      expect(page.events.every((e) => typeof e.time === 'string' && typeof e.osUser === 'string')).toBe(true);
    } finally {
      reader.close();
    }
  });

  it('beforeSeq continues below the given seq; the last page says there is nothing older', () => {
    const reader = LedgerReader.open(ledger.files, UNHURRIED);
    try {
      expect(reader.page({}, { beforeSeq: 100, limit: 5 }).events.map((e) => e.seq)).toEqual([99, 98, 97, 96, 95]);
      const last = reader.page({}, { beforeSeq: 4, limit: 5 });
      expect(last.events.map((e) => e.seq)).toEqual([3, 2, 1]);
      expect(last.nextBeforeSeq).toBeUndefined();
      // Exactly `limit` left: still no next page (the reader looks one row further).
      expect(reader.page({}, { beforeSeq: 6, limit: 5 }).nextBeforeSeq).toBeUndefined();
      expect(reader.page({}, { beforeSeq: 1 }).events).toEqual([]);
      // A continuation from another filter's page is still exact for this one.
      const expected = oracle(ledger.bodies, { user: 'park' }, 200);
      expect(collect(reader, { user: 'park' }, 7, 200).seqs).toEqual(expected);
    } finally {
      reader.close();
    }
  });

  it('returns the stored body of each event, parsed', () => {
    const reader = LedgerReader.open(ledger.files, UNHURRIED);
    try {
      const [event] = reader.page({ eventType: 'permission.decided' }, { limit: 1 }).events;
      const stored = ledger.bodies.find((b) => b.seq === event?.seq);
      expect(event).toEqual(JSON.parse(JSON.stringify(stored)));
    } finally {
      reader.close();
    }
  });

  it('a call that runs out of scan time returns a short page and where to continue', () => {
    const reader = LedgerReader.open(ledger.files, CHOPPY);
    try {
      const page = reader.page({ text: '보고서' }, { limit: 50 });
      expect(page.scanLimitReached).toBe(true);
      expect(page.events.length).toBeLessThan(50);
      expect(page.nextBeforeSeq).toBeGreaterThan(1);
    } finally {
      reader.close();
    }
  });

  it('sees rows the writer appends while the reader is open, time-range cache included', () => {
    const built = buildLedger();
    const reader = LedgerReader.open(built.files, UNHURRIED);
    try {
      const filter: EventFilter = { fromTime: '2026-12-01T06:00:00Z', toTime: '2027-01-01T00:00:00Z' };
      const before = collect(reader, filter, 50).seqs;
      expect(before).toEqual(oracle(built.bodies, filter));
      const newest = built.files[2] as string;
      const last = built.bodies[built.bodies.length - 1] as StoredEventBody;
      const peek = new Database(newest, { readonly: true });
      const lastHash = peek.prepare('SELECT entry_hash FROM entries ORDER BY seq DESC LIMIT 1').pluck().get() as string;
      peek.close();
      // 401–430: viewer_rows is filled through 408 on the way (its time-range cache must follow).
      const added = writeSegment(newest, monthEvents(9, 30, new Date(Date.parse(last.time)), 7), { firstSeq: last.seq + 1, prevHash: lastHash, viewerBatchRows: TEST_VIEWER_BATCH });
      const all = [...built.bodies, ...added.bodies];
      const after = collect(reader, filter, 50).seqs;
      expect(after.length).toBe(before.length + 30);
      expect(after).toEqual(oracle(all, filter));
    } finally {
      reader.close();
      rmSync(built.dir, { recursive: true, force: true });
    }
  });
});

describe('LedgerReader input checks', () => {
  const reader = () => LedgerReader.open(ledger.files, UNHURRIED);
  const bad: readonly (readonly [string, unknown, unknown, string, RegExp])[] = [
    ['fromTime not ISO', { fromTime: 'yesterday' }, {}, 'fromTime', /2026-12-01T09:00:00\+09:00/],
    ['fromTime without a time of day', { fromTime: '2026-12-01' }, {}, 'fromTime', /offset/],
    ['toTime without an offset', { toTime: '2026-12-01T09:00:00' }, {}, 'toTime', /offset/],
    ['impossible date', { fromTime: '2026-02-30T00:00:00Z' }, {}, 'fromTime', /ISO 8601/],
    ['empty range', { fromTime: '2026-12-02T00:00:00Z', toTime: '2026-12-01T00:00:00Z' }, {}, 'toTime', /inclusive/],
    ['limit 0', {}, { limit: 0 }, 'limit', /1 to 200/],
    ['limit 10000', {}, { limit: 10_000 }, 'limit', /1 to 200/],
    ['fractional limit', {}, { limit: 2.5 }, 'limit', /whole number/],
    ['unknown outcome', { outcome: 'failed' }, {}, 'outcome', new RegExp(OUTCOMES.join(', '))],
    ['unknown decision', { decision: 'maybe' }, {}, 'decision', /allow, ask, deny/],
    ['negative beforeSeq', {}, { beforeSeq: -1 }, 'beforeSeq', /nextBeforeSeq/],
    ['empty text', { text: '' }, {}, 'text', /leave text out/],
    ['event type with spaces', { eventType: 'tool proposed' }, {}, 'eventType', /execution\.finished/],
    ['unknown field', { users: 'kim' }, {}, 'filter', /fromTime, toTime, user/],
    ['not an object', 'kim', {}, 'filter', /Send \{\}/],
  ];
  for (const [name, filter, options, field, hint] of bad) {
    it(`${name}: a clear error in Korean and English that says what to send`, () => {
      const r = reader();
      try {
        let caught: unknown;
        try {
          r.page(filter as EventFilter, options as { limit?: number });
        } catch (error) {
          caught = error;
        }
        expect(caught).toBeInstanceOf(EventFilterError);
        const problem = (caught as EventFilterError).problem;
        expect(problem.field).toBe(field);
        expect(problem.message.en).toMatch(hint);
        expect(problem.message.ko).toMatch(/[가-힣]/);
        expect((caught as Error).message).toContain(problem.message.ko);
        expect((caught as Error).message).toContain(problem.message.en);
        // The same answer as a value, for the IPC handler.
        const check = checkPageRequest(filter, options);
        expect(check.ok).toBe(false);
      } finally {
        r.close();
      }
    });
  }

  it('normalizes a KST time to the stored UTC form, so the bound is the same instant', () => {
    const check = checkPageRequest({ fromTime: '2026-12-01T09:00:00+09:00', toTime: '2026-12-02T00:00:00.5Z' });
    expect(check).toEqual({ ok: true, value: { filter: { fromTime: '2026-12-01T00:00:00.000Z', toTime: '2026-12-02T00:00:00.500Z' }, limit: 50, beforeSeq: undefined } });
  });

  it('escapes the needle as JSON writes it and as LIKE reads it', () => {
    expect(likeSubstring('C:\\Users')).toBe('%C:\\\\\\\\Users%');
    expect(likeSubstring('50%_x')).toBe('%50\\%\\_x%');
    expect(likeSubstring('say "hi"')).toBe('%say \\\\"hi\\\\"%');
    expect(likeSubstring('보고서')).toBe('%보고서%');
  });
});

describe('LedgerReader segments', () => {
  it('refuses a segment from a newer build, a file not named like a segment, and overlapping segments', () => {
    const built = buildLedger();
    try {
      const newer = join(built.dir, 'ledger-2027-01.sqlite3');
      const db = new Database(newer);
      ensureSchema(db, newer);
      db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
      db.close();
      expect(() => LedgerReader.open([...built.files, newer])).toThrow(LedgerReadError);
      expect(() => LedgerReader.open([...built.files, newer])).toThrow(/does not know/);
      expect(() => LedgerReader.open([join(built.dir, 'audit.sqlite')])).toThrow(/ledger-YYYY-MM\.sqlite3/);
      expect(() => LedgerReader.open([built.files[0] as string, built.files[0] as string])).toThrow(/given twice/);
      // December's rows under November's name next to the real November: seq ranges overlap.
      const dup = join(built.dir, 'dup');
      mkdirSync(dup);
      copyFileSync(built.files[2] as string, join(dup, 'ledger-2026-09.sqlite3'));
      expect(() => LedgerReader.open([...built.files, join(dup, 'ledger-2026-09.sqlite3')])).toThrow(/baram audit verify/);
      // Files in any order give the same pages.
      const shuffled = LedgerReader.open([built.files[1], built.files[2], built.files[0]] as string[], UNHURRIED);
      expect(collect(shuffled, {}, 100).seqs).toEqual(oracle(built.bodies, {}));
      shuffled.close();
    } finally {
      rmSync(built.dir, { recursive: true, force: true });
    }
  });
});

/** Rows of a v5 segment not yet copied into viewer_rows. */
function unfilledViewerRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT (SELECT max(seq) FROM entries) - (SELECT coalesce(max(seq), 0) FROM viewer_rows)').pluck().get() as number;
  } finally {
    db.close();
  }
}

function expectChainIntact(db: Database.Database): void {
  let prev = GENESIS_PREV_HASH;
  for (const row of db.prepare<[], { seq: number; body: string; prev_hash: string; entry_hash: string }>('SELECT seq, body, prev_hash, entry_hash FROM entries ORDER BY seq').all()) {
    expect(row.prev_hash).toBe(prev);
    expect(computeEntryHash(row.seq, row.prev_hash, row.body)).toBe(row.entry_hash);
    prev = row.entry_hash;
  }
}

/** The filter columns as the bodies say, in viewer_rows' column names. */
function filterColumnsOf(bodies: readonly StoredEventBody[]) {
  return bodies.map((b) => ({
    seq: b.seq,
    time: b.time,
    os_user: b.osUser,
    app_user: b.appUser,
    tool: b.tool ?? null,
    outcome: b.outcome ?? null,
    decision: b.decision ?? null,
    event_type: b.type,
  }));
}

/** EXPLAIN QUERY PLAN of `sql`, one line. */
function queryPlan(db: Database.Database, sql: string): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ v: 'x', s: 10 }) as { detail: string }[]).map((r) => r.detail).join(' | ');
}

describe('the schema', () => {
  it('viewer_rows holds the bodies\' filter values, each filter pages through its own index without a sort, and entries has no index to maintain', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baram-event-query-schema-'));
    try {
      const file = join(dir, 'ledger-2026-11.sqlite3');
      const written = writeSegment(file, monthEvents(5, 60, new Date(Date.UTC(2026, 10, 1)), 300), { firstSeq: 1, viewerBatchRows: 1 });
      const db = new Database(file, { readonly: true });
      expectChainIntact(db);
      expect(db.prepare('SELECT * FROM viewer_rows ORDER BY seq').all().map((c) => ({ ...(c as object) }))).toEqual(filterColumnsOf(written.bodies));
      // Nothing but the primary key is left to maintain on entries: an append writes one B-tree.
      expect(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'entries'").pluck().all()).toEqual([]);
      for (const [column, index] of [['tool', 'viewer_by_tool'], ['outcome', 'viewer_by_outcome'], ['decision', 'viewer_by_decision'], ['os_user', 'viewer_by_os_user'], ['app_user', 'viewer_by_app_user'], ['event_type', 'viewer_by_event_type']]) {
        const detail = queryPlan(
          db,
          `SELECT v.seq AS seq, e.body AS body FROM viewer_rows AS v INDEXED BY ${index} CROSS JOIN entries AS e ON e.seq = v.seq WHERE v.${column} = :v AND v.seq < :s ORDER BY v.seq DESC LIMIT 50`,
        );
        expect(detail).toMatch(new RegExp(`USING (COVERING )?INDEX ${index} \\(${column}=\\? AND seq<\\?\\)`));
        expect(detail).toContain('USING INTEGER PRIMARY KEY (rowid=?)');
        expect(detail).not.toContain('TEMP B-TREE');
      }
      db.close();
      expect(checkSegmentIndexes(file)).toEqual({ ok: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /**
   * Forgeries of what the viewer reads but the chain does not cover. `prepare` changes the
   * newest segment, the victim is a filesystem.delete row of it (below viewer_rows' highest seq).
   * better-sqlite3 runs SQLite in defensive mode, which refuses writable_schema; the sqlite3 shell,
   * or anyone who edits the file's bytes, has no such guard.
   */
  const FORGERIES: readonly (readonly [string, (db: Database.Database, victim: number) => void, RegExp])[] = [
    [
      'an index rebuilt without one row, its schema text put back',
      (db, victim) => {
        db.unsafeMode(true);
        db.exec('DROP INDEX viewer_by_tool');
        db.exec(`CREATE INDEX viewer_by_tool ON viewer_rows (tool, seq) WHERE tool IS NOT NULL AND seq <> ${victim}`);
        db.pragma('writable_schema = ON');
        db.prepare("UPDATE sqlite_schema SET sql = 'CREATE INDEX viewer_by_tool ON viewer_rows (tool, seq) WHERE tool IS NOT NULL' WHERE name = 'viewer_by_tool'").run();
        db.pragma('writable_schema = OFF');
      },
      /viewer_by_tool/,
    ],
    ['a viewer row relabelled', (db, victim) => db.prepare("UPDATE viewer_rows SET tool = 'filesystem.read' WHERE seq = ?").run(victim), /seq (\d+)/],
    ['a viewer row deleted', (db, victim) => db.prepare('DELETE FROM viewer_rows WHERE seq = ?').run(victim), /seq (\d+)/],
  ];

  for (const [name, forge, named] of FORGERIES) {
    it(`${name} hides a row from a filter, and the index check names it`, () => {
      const built = buildLedger();
      try {
        const file = built.files[2] as string;
        const high = (built.bodies.at(-1) as StoredEventBody).seq - unfilledViewerRows(file);
        const victim = built.bodies.find((b) => b.seq > 260 && b.seq <= high && b.tool === 'filesystem.delete') as StoredEventBody;
        const db = new Database(file);
        forge(db, victim.seq);
        db.close();

        const reader = LedgerReader.open(built.files, UNHURRIED);
        const seen = collect(reader, { tool: 'filesystem.delete' }, 50).seqs;
        reader.close();
        expect(seen).not.toContain(victim.seq);
        expect(oracle(built.bodies, { tool: 'filesystem.delete' })).toContain(victim.seq);

        const check = checkSegmentIndexes(file);
        expect(check.ok).toBe(false);
        const problems = check.ok ? '' : check.problems.join('\n');
        expect(problems).toMatch(named);
        if (named.source.startsWith('seq')) expect(problems).toContain(`seq ${victim.seq} `);
        for (const honest of built.files.slice(0, 2)) expect(checkSegmentIndexes(honest)).toEqual({ ok: true });
      } finally {
        rmSync(built.dir, { recursive: true, force: true });
      }
    });
  }

  it('odd but honest bodies (a number where a name is expected, a missing field) pass the check', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baram-event-query-odd-'));
    try {
      const file = join(dir, 'ledger-2026-11.sqlite3');
      const identity = USERS[0] as LedgerIdentity;
      const events = [
        { type: 'tool.proposed', tool: 7 },
        { type: 'execution.finished', tool: 'x', outcome: 1.5 },
        { type: 'request', decision: true },
      ].map((event, i) => ({ identity, time: new Date(Date.UTC(2026, 10, 1, i)), event: event as unknown as AuditEventInput }));
      writeSegment(file, events, { firstSeq: 1, viewerBatchRows: 1 });
      expect(unfilledViewerRows(file)).toBe(0);
      expect(checkSegmentIndexes(file)).toEqual({ ok: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a viewer row for a seq that has no entry is named too', () => {
    const built = buildLedger();
    try {
      const file = built.files[1] as string;
      const db = new Database(file);
      db.prepare("INSERT INTO viewer_rows (seq, time, os_user, app_user, tool, event_type) VALUES (5000, '2026-11-30T00:00:00.000Z', 'kim', '김민수', 'shell.execute', 'tool.proposed')").run();
      db.close();
      const check = checkSegmentIndexes(file);
      // Named first; the filled range now reaching seq 5000, the unfilled tail rows below it are missing too.
      const problems = check.ok ? [] : check.problems;
      expect(problems[0]).toMatch(/^viewer_rows has a row for seq 5000, which the ledger does not have/);
      expect(problems.slice(1)).toEqual(Array.from({ length: 19 }, (_, i) => expect.stringContaining(`at seq ${241 + i} `)));
    } finally {
      rmSync(built.dir, { recursive: true, force: true });
    }
  });
});
