import { mkdtempSync, rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerIdentity } from '../../../electron/main/audit/ledger/canonical-event';

export const IDENTITY: LedgerIdentity = { sessionId: 'sess-1', osUser: 'kim', appUser: '김민수', hostId: 'host-abc' };

/** A fresh temp folder for one test's ledger; `cleanup` removes it. */
export function tempLedgerDir(): { dir: string; cleanup: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'baram-ledger-'));
  return { dir: join(base, 'audit'), cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** `const newDir = useTempLedgerDirs()`: each call gives a fresh ledger folder, removed after the test. */
export function useTempLedgerDirs(): () => string {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return () => {
    const temp = tempLedgerDir();
    cleanups.push(temp.cleanup);
    return temp.dir;
  };
}

/** A clock tests move by hand: `clock.set('2026-12-02T10:00:00Z')`. */
export function manualClock(start: string): { now: () => Date; set: (iso: string) => void } {
  let current = new Date(start);
  return { now: () => current, set: (iso) => (current = new Date(iso)) };
}
