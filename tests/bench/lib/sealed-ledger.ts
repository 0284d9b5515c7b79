import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { AuditEventInput } from '../../../electron/common/audit-events';
import { buildEventBody, encodeEventBody, type LedgerIdentity } from '../../../electron/main/audit/ledger/canonical-event';
import { computeEntryHash, GENESIS_PREV_HASH } from '../../../electron/main/audit/ledger/chain';
import { EPOCH_MS, epochOf, monthOf } from '../../../electron/main/audit/ledger/epochs';
import { SCHEMA_VERSION as LATEST_SCHEMA_VERSION } from '../../../electron/main/audit/ledger/schema';
import { SEAL_EVENT } from '../../../electron/main/audit/ledger/rows';
import { deriveKey, formatVerificationKey, newInitialKey, parseVerificationKey, rowMac, type SealKey } from '../../../electron/main/audit/ledger/seal-key';
import { openSegmentWriter, segmentFile } from '../../../electron/main/audit/ledger/segments';
import { prng } from '../../helpers/prng';

/**
 * A large, valid, sealed ledger folder for the verify benchmark, written the way AuditLedger writes
 * (canonical body, chained entry_hash, a MAC per row under the day's key, an `audit.seal` row with
 * the old key at every day change, one segment file per UTC month, the schema from
 * openSegmentWriter) but in big transactions with synchronous=OFF: a million appends with an fsync
 * each would take the better part of an hour. Cached between runs; the verification key is kept
 * next to the folder, as security staff would keep it off the machine.
 */
export interface SealedLedger {
  readonly dir: string;
  readonly key: SealKey;
  readonly rows: number;
  /** Set when this call generated the folder rather than reusing it. */
  readonly generatedMs?: number;
}

interface Manifest {
  readonly format: 1;
  readonly rows: number;
  readonly days: number;
  readonly schemaVersion: number;
  readonly headHash: string;
}

/** 2026-10-01 00:00 UTC: three whole months (October–December), so three segments and 92 day-epochs. */
const START_MS = Date.UTC(2026, 9, 1);
const DAYS = 92;
const ROWS_PER_TRANSACTION = 25_000;

/**
 * The ledger folder `<cache>/audit` with `rows` rows, generated unless a complete one for the same
 * row count and schema version is already there (the manifest is written last, so a run killed
 * mid-generation leaves no manifest and is regenerated).
 */
export function sealedLedger(cache: string, rows: number): SealedLedger {
  const dir = join(cache, 'audit');
  const keyFile = join(cache, 'verification.key');
  const manifestFile = join(cache, 'manifest.json');
  const wanted = { format: 1, rows, days: DAYS, schemaVersion: LATEST_SCHEMA_VERSION };
  if (existsSync(manifestFile) && existsSync(keyFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    if (manifest.format === wanted.format && manifest.rows === rows && manifest.days === DAYS && manifest.schemaVersion === LATEST_SCHEMA_VERSION) {
      return { dir, key: parseVerificationKey(readFileSync(keyFile, 'utf8')), rows };
    }
  }
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const initial = newInitialKey(epochOf(new Date(START_MS)));
  writeFileSync(keyFile, `${formatVerificationKey(initial)}\n`, { mode: 0o600 });
  const headHash = writeRows(dir, initial, rows);
  const manifest: Manifest = { ...wanted, format: 1, headHash };
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, key: initial, rows, generatedMs: performance.now() - started };
}

interface OpenSegment {
  readonly month: string;
  readonly db: Database.Database;
  readonly insert: Database.Statement<[number, string, string, string, number, string]>;
}

function openForBulk(dir: string, month: string): OpenSegment {
  const db = openSegmentWriter(segmentFile(dir, month));
  // Generation only: the bench data can be regenerated, a real ledger never runs like this.
  db.pragma('synchronous = OFF');
  db.exec('BEGIN');
  const insert = db.prepare<[number, string, string, string, number, string]>('INSERT INTO entries (seq, body, prev_hash, entry_hash, epoch, mac) VALUES (?, ?, ?, ?, ?, ?)');
  return { month, db, insert };
}

function closeBulk(segment: OpenSegment): void {
  segment.db.exec('COMMIT');
  segment.db.pragma('wal_checkpoint(TRUNCATE)');
  segment.db.close();
}

/** Writes `rows` rows from START_MS over DAYS days; returns the last entry_hash. */
function writeRows(dir: string, initial: SealKey, rows: number): string {
  const events = officeEvents(20261002);
  const stepMs = (DAYS * EPOCH_MS) / rows;
  let key = deriveKey(initial, initial.epoch);
  let seq = 0;
  let prevHash = GENESIS_PREV_HASH;
  let segment: OpenSegment | undefined;
  const write = (time: Date, identity: LedgerIdentity, event: AuditEventInput, sealKey: SealKey): void => {
    seq += 1;
    const body = encodeEventBody(buildEventBody(seq, time, identity, event));
    const entryHash = computeEntryHash(seq, prevHash, body);
    (segment as OpenSegment).insert.run(seq, body, prevHash, entryHash, sealKey.epoch, rowMac(sealKey, entryHash));
    prevHash = entryHash;
    if (seq % ROWS_PER_TRANSACTION === 0) (segment as OpenSegment).db.exec('COMMIT; BEGIN');
  };
  try {
    while (seq < rows) {
      const { identity, event } = events.next().value as OfficeEvent;
      const time = new Date(START_MS + Math.floor(seq * stepMs));
      const month = monthOf(time);
      if (segment?.month !== month) {
        if (segment) closeBulk(segment);
        segment = openForBulk(dir, month);
      }
      // As AuditLedger.appendRows: the first write of a new day seals the old one with the old key.
      const today = epochOf(time);
      if (today > key.epoch) {
        write(time, identity, { type: SEAL_EVENT, data: { sealedEpoch: key.epoch, nextEpoch: today, sealedThroughSeq: seq } }, key);
        const next = deriveKey(key, today);
        key.key.fill(0);
        key = next;
        if (seq >= rows) break;
      }
      write(time, identity, event, key);
    }
  } finally {
    if (segment) closeBulk(segment);
    key.key.fill(0);
  }
  return prevHash;
}

interface OfficeEvent {
  readonly identity: LedgerIdentity;
  readonly event: AuditEventInput;
}

const USERS: readonly (readonly [string, string])[] = [
  ['kim.minsu', '김민수'], ['lee.seoyeon', '이서연'], ['park.jihoon', '박지훈'], ['choi.haeun', '최하은'], ['jung.doyoon', '정도윤'],
  ['kang.subin', '강수빈'], ['cho.yejun', '조예준'], ['yoon.jimin', '윤지민'], ['jang.hyunwoo', '장현우'], ['lim.yujin', '임유진'],
];
const FOLDERS = ['재무팀\\2026년 예산', '인사팀\\인사평가', '총무팀\\구매 요청', '기획팀\\사업계획', '영업팀\\거래처 견적'];
const FILES = ['3분기_부서별_예산_집행_보고서.xlsx', '주간 회의록(최종).hwp', '출장비 정산 내역.xlsx', '계약서 검토 의견.docx', '교육 일정 공지.pdf'];
const TOOLS: readonly (readonly [string, 'read' | 'write', '조회' | '수정'])[] = [
  ['filesystem.read', 'read', '조회'], ['excel.read', 'read', '조회'], ['search.text', 'read', '조회'], ['excel.write', 'write', '수정'], ['filesystem.edit', 'write', '수정'],
];

/** Endless gate event sequences (proposed → permission → [approval] → started → finished), 400–700 bytes a row. */
function* officeEvents(seed: number): Generator<OfficeEvent, never> {
  const rand = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const hex = (chars: number): string => {
    let s = '';
    while (s.length < chars) s += Math.floor(rand() * 0x100000000).toString(16).padStart(8, '0');
    return s.slice(0, chars);
  };
  for (;;) {
    const [osUser, appUser] = pick(USERS);
    const identity: LedgerIdentity = { sessionId: `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`, osUser, appUser, hostId: `PC-${100 + USERS.findIndex((u) => u[0] === osUser)}` };
    yield { identity, event: { type: 'request', data: { prompt: `${pick(FOLDERS).split('\\')[0]} ${pick(FILES)} 내용을 정리해서 표로 만들어 줘` } } };
    for (let call = 0; call < 6; call++) {
      const [tool, risk, actionClass] = pick(TOOLS);
      const path = `C:\\Users\\${osUser}\\Documents\\${pick(FOLDERS)}\\${pick(FILES)}`;
      const base = { callId: `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`, tool, risk, actionClass } as const;
      const args = risk === 'write' ? { path, oldText: '집행률 87.5%', newText: `집행률 ${(80 + rand() * 20).toFixed(1)}%` } : { path, maxChars: 30_000 };
      yield { identity, event: { ...base, type: 'tool.proposed', data: { args, argsSha256: hex(64) } } };
      const ask = risk === 'write';
      yield { identity, event: { ...base, type: 'permission.decided', decision: ask ? 'ask' : 'allow', rule: ask ? 'defaults.write' : 'allow.tools[0]', ruleSource: ask ? 'builtin' : 'admin', target: [path] } };
      const digest = hex(64);
      if (ask) {
        yield { identity, event: { ...base, type: 'approval.requested', data: { digest, summary: `${path} 파일을 수정합니다`, targetCount: 1 } } };
        yield { identity, event: { ...base, type: 'approval.decided', data: { digest, choice: 'once', approver: appUser, waitedMs: Math.floor(800 + rand() * 20_000) } } };
      }
      yield { identity, event: { ...base, type: 'execution.started', target: [path], data: { digest } } };
      yield {
        identity,
        event: { ...base, type: 'execution.finished', outcome: 'ok', target: [path], data: { durationMs: Math.round(rand() * 4_000) / 10, outputChars: Math.floor(rand() * 30_000), outputSha256: hex(64) } },
      };
    }
  }
}
