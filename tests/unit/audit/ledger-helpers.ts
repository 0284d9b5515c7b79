import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseVerificationKey, sealKeyPath } from '../../../electron/main/audit';
import { AuditLedger } from '../../../electron/main/audit/writer';
import type { LedgerIdentity } from '../../../electron/main/audit/ledger/canonical-event';
import type { SealKey } from '../../../electron/main/audit/ledger/seal-key';

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

export interface ManualClock {
  readonly now: () => Date;
  readonly set: (iso: string) => void;
}

/** A clock tests move by hand: `clock.set('2026-12-02T10:00:00Z')`. */
export function manualClock(start: string): ManualClock {
  let current = new Date(start);
  return { now: () => current, set: (iso) => (current = new Date(iso)) };
}

/** A new ledger in `dir` on a clock moved by hand from `start`, and the verification key K0 it hands out once, at creation. */
export function openNewLedger(dir: string, start: string): { ledger: AuditLedger; clock: ManualClock; k0: SealKey } {
  const clock = manualClock(start);
  const ledger = AuditLedger.open(dir, IDENTITY, { clock: clock.now });
  return { ledger, clock, k0: parseVerificationKey(ledger.takeInitialKey() ?? '') };
}

/**
 * A copy of the ledger's key file as it is now. `restore()` puts it back: after a seal, that is the
 * key file a crash leaves when the process dies after committing the seal row but before
 * overwriting the key.
 */
export function keyFileCopy(dir: string): { restore: () => void } {
  const keyFile = sealKeyPath(dir);
  const copy = `${keyFile}.copy`;
  copyFileSync(keyFile, copy);
  return {
    restore: () => {
      copyFileSync(copy, keyFile);
      rmSync(copy);
    },
  };
}

/** Reopens the ledger in `dir` on `clock` and appends one request, as the next start of the app would. */
export async function reopenAndAppend(dir: string, clock: ManualClock): Promise<void> {
  const reopened = AuditLedger.open(dir, IDENTITY, { clock: clock.now });
  await reopened.append({ type: 'request' });
  await reopened.close();
}
