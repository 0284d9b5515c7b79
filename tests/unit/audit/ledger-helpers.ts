import { mkdtempSync, rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerIdentity } from '../../../electron/main/audit/ledger/canonical-event';

export const IDENTITY: LedgerIdentity = { sessionId: 'sess-1', osUser: 'kim', appUser: '김민수', hostId: 'host-abc' };

/** A fresh temp dir for one test's ledger file; `cleanup` removes it. */
export function tempLedgerFile(): { file: string; dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'baram-ledger-'));
  return { dir, file: join(dir, 'audit.sqlite'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `const newFile = useTempLedgerFiles()`: each call gives a fresh ledger path, removed after the test. */
export function useTempLedgerFiles(): () => string {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return () => {
    const temp = tempLedgerFile();
    cleanups.push(temp.cleanup);
    return temp.file;
  };
}
