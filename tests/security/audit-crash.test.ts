import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { parseVerificationKey, verifyLedger } from '../../electron/main/audit';
import { AuditLedger } from '../../electron/main/audit/writer';
import { segmentFile } from '../../electron/main/audit/ledger/segments';
import { runCrashLoop } from '../helpers/crash-loop';
import { IDENTITY, manualClock, tempLedgerDir } from '../unit/audit/ledger-helpers';

/**
 * Issue #3: "a child process appends events in a loop and is killed with SIGKILL at random moments,
 * at least 200 rounds in CI (1,000 in `npm run bench`): every event the child reported as committed
 * is present, `verify` passes, `PRAGMA integrity_check` is ok." The loop itself (kill timing, the
 * child's clock across days and months, the checks) is tests/helpers/crash-loop.ts.
 */
function roundsFromEnv(): number {
  const raw = process.env.BARAM_CRASH_ROUNDS;
  if (raw === undefined || raw === '') return 200;
  const rounds = Number(raw);
  if (!Number.isSafeInteger(rounds) || rounds < 1) throw new Error(`BARAM_CRASH_ROUNDS must be a positive whole number of rounds, got '${raw}'.`);
  return rounds;
}

const ROUNDS = roundsFromEnv();
/**
 * Measured on the 2-core machine: 200 rounds in 24 s (0.12 s a round: a child's start-up overlaps
 * earlier rounds, the kill lands within 0.15 s, then the checks), 1,000 rounds in 140 s; up to
 * 0.35 s a round while other test files load both cores. A whole second a round leaves room for a
 * loaded machine without letting a hung child go unnoticed for long.
 */
const TIMEOUT_MS = 30_000 + ROUNDS * 1_000;

describe('audit ledger killed with SIGKILL at random moments', () => {
  it(
    `${ROUNDS} rounds: every reported commit is present, verify with the key passes, integrity_check and the viewer_rows check are ok`,
    async () => {
      const report = await runCrashLoop({ rounds: ROUNDS });
      expect(report.problems).toEqual([]);
      expect(report.rounds).toBe(ROUNDS);
      if (ROUNDS >= 100) {
        // The kills reached the places that matter (at 1,000 rounds: ~160 in open, ~210 in the first
        // append, ~80 in an append that wrote a seal row, 11 segment files); otherwise the rounds prove little.
        expect(report.committed).toBeGreaterThan(ROUNDS);
        expect(report.kills.append).toBeGreaterThan(ROUNDS / 4);
        expect(report.kills.open).toBeGreaterThan(0);
        expect(report.killsInFirstAppend).toBeGreaterThan(0);
        expect(report.killsInSealingAppend).toBeGreaterThan(0);
        expect(report.segments).toBeGreaterThan(1);
        // viewer_rows was filled (inside appends the kills could land in) and checked against the bodies.
        expect(report.viewerRows).toBeGreaterThan(ROUNDS);
      }
    },
    TIMEOUT_MS,
  );
});

/**
 * A state the crash loop reached (in about one run in three at 200 rounds): a kill inside
 * openSegmentWriter, after SQLite created the new month's file and switched it to WAL but before
 * migration 1 committed, leaves a segment file with user_version 0 and no `entries` table. No row
 * was ever in it. Readers used to throw "no such table: entries" on it, and an open in a later
 * month failed the same way for good; these two pin the state down deterministically. Since
 * 2026-12-03 a new segment is made aside and linked into place (segments.ts, createSegment), so a
 * kill no longer leaves this state; a ledger written by an earlier build may still hold it.
 */
describe('a segment file a kill left before its first migration', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  async function ledgerWithUnmigratedDecember(): Promise<{ dir: string; key: ReturnType<typeof parseVerificationKey> }> {
    const temp = tempLedgerDir();
    cleanups.push(temp.cleanup);
    const clock = manualClock('2026-11-30T09:00:00.000Z');
    const ledger = AuditLedger.open(temp.dir, IDENTITY, { clock: clock.now });
    const key = parseVerificationKey(ledger.takeInitialKey() ?? '');
    await ledger.append({ type: 'request', data: { prompt: '11월 마지막 질문' } });
    await ledger.close();
    // Exactly what the killed writer left: the file exists, journal_mode is WAL, nothing else.
    const db = new Database(segmentFile(temp.dir, '2026-12'));
    db.pragma('journal_mode = WAL');
    db.close();
    return { dir: temp.dir, key };
  }

  it('verify reads it as an empty segment instead of throwing', async () => {
    const { dir, key } = await ledgerWithUnmigratedDecember();
    let verdict: ReturnType<typeof verifyLedger> | string;
    try {
      verdict = verifyLedger(dir, { key });
    } catch (error) {
      verdict = `threw: ${String(error)}`;
    }
    expect(verdict).toMatchObject({ ok: true, rows: 1, lastSeq: 1 });
  });

  it('the ledger still opens when the next start is in a later month', async () => {
    const { dir, key } = await ledgerWithUnmigratedDecember();
    let outcome: string;
    try {
      const ledger = AuditLedger.open(dir, IDENTITY, { clock: () => new Date('2027-01-04T09:00:00.000Z') });
      outcome = `appended seq ${await ledger.append({ type: 'request', data: { prompt: '1월 첫 질문' } })}`;
      await ledger.close();
    } catch (error) {
      outcome = `threw: ${String(error)}`;
    }
    // seq 2 is the seal row for the days in between, seq 3 the request.
    expect(outcome).toBe('appended seq 3');
    expect(verifyLedger(dir, { key })).toMatchObject({ ok: true, lastSeq: 3 });
  });
});
