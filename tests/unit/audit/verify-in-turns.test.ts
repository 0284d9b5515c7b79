import { describe, expect, it } from 'vitest';
import { verifyLedger, verifyLedgerInTurns } from '../../../electron/main/audit';
import { tamper } from '../../helpers/tampered-ledgers';
import { openNewLedger, useTempLedgerDirs } from './ledger-helpers';

const newDir = useTempLedgerDirs();

/** More rows than one turn holds (2,000), so the walk must hand the event loop back at least twice. */
async function ledgerOf(rows: number): Promise<string> {
  const dir = newDir();
  const { ledger } = openNewLedger(dir, '2026-12-01T08:00:00.000Z');
  await Promise.all(Array.from({ length: rows }, (_, i) => ledger.append({ type: 'request', data: { prompt: `질문 ${i}` } })));
  await ledger.close();
  return dir;
}

/**
 * The window verifies on its main process (issue 17, audit viewer): a big ledger must not freeze
 * it. verifyLedgerInTurns walks the same chain as verifyLedger, handing the event loop back
 * between slices, and reaches the same verdict.
 */
describe('verifyLedgerInTurns', () => {
  it('lets the event loop run while it verifies, and says OK as verifyLedger does', async () => {
    const dir = await ledgerOf(4_500);
    const order: string[] = [];
    setImmediate(() => order.push('the event loop ran'));
    const verdict = await verifyLedgerInTurns(dir).finally(() => order.push('verified'));
    expect(order).toEqual(['the event loop ran', 'verified']);
    expect(verdict).toEqual(verifyLedger(dir));
    expect(verdict).toMatchObject({ ok: true, rows: 4_500 });
  });

  it('finds the same first bad row as verifyLedger in an edited ledger', async () => {
    const dir = await ledgerOf(4_500);
    tamper(dir, (db) => db.prepare("UPDATE entries SET body = replace(body, '질문', '잘문') WHERE seq = 3002").run());
    const verdict = await verifyLedgerInTurns(dir);
    expect(verdict).toEqual(verifyLedger(dir));
    expect(verdict).toMatchObject({ ok: false, firstBadSeq: 3002 });
  });
});
