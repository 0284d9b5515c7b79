import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLedgerRows, sealKeyPath, verifyLedger } from '../../../electron/main/audit';
import { deriveKey } from '../../../electron/main/audit/ledger/seal-key';
import { keyFileCopy, openNewLedger, reopenAndAppend, useTempLedgerDirs } from './ledger-helpers';

const newDir = useTempLedgerDirs();

function rowTypes(dir: string): unknown[] {
  return [...readLedgerRows(dir)].map((r) => (JSON.parse(r.body) as { type?: unknown }).type);
}

/*
 * Each append reads the newest row, and its body only when the row may be a seal (audit-ledger.ts,
 * TAIL_SQL): a seal row's epoch column names the old day, and only its body says which day comes
 * next. These tests put a seal row at the tail with the key file one step behind and check that
 * the next append moves the key forward instead of sealing the same day twice with the old key.
 */
describe('AuditLedger: a seal row at the tail', () => {
  it('an idle day sealed on demand, then a crash before the key file moved: the next append only catches the key up', async () => {
    const dir = newDir();
    const { ledger, clock, k0 } = openNewLedger(dir, '2026-12-01T08:00:00.000Z');
    await ledger.append({ type: 'request' });
    const dayOneKeyFile = keyFileCopy(dir);
    clock.set('2026-12-02T08:00:00.000Z');
    expect(ledger.sealIfDue()).toBe(k0.epoch + 1);
    await ledger.close();
    // As if the process died after committing the seal row but before overwriting the key.
    dayOneKeyFile.restore();

    await reopenAndAppend(dir, clock);

    expect(rowTypes(dir)).toEqual(['request', 'audit.seal', 'request']);
    expect(readFileSync(sealKeyPath(dir)).includes(deriveKey(k0, k0.epoch).key)).toBe(false);
    expect(verifyLedger(dir, { key: k0 })).toMatchObject({ ok: true, rows: 3, macChecked: true });
  });

  it('a row whose data merely mentions the seal type is not taken for a seal', async () => {
    const dir = newDir();
    const { ledger, k0 } = openNewLedger(dir, '2026-12-01T08:00:00.000Z');
    // Nested `type: 'audit.seal'` puts the marker text in the body; JSON.parse then finds the row's own type.
    await ledger.append({ type: 'request', data: { type: 'audit.seal', nextEpoch: k0.epoch + 5, note: '"type":"audit.seal"' } });
    await ledger.append({ type: 'request' });
    await ledger.close();
    expect(rowTypes(dir)).toEqual(['request', 'request']);
    expect(verifyLedger(dir, { key: k0 })).toMatchObject({ ok: true, rows: 2, macChecked: true });
  });
});
