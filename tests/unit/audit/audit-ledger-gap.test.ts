import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gapMarkerPath, listSegments, readLedgerRows, takeCheckpoint, verifyLedger } from '../../../electron/main/audit';
import { AuditLedger } from '../../../electron/main/audit/writer';
import { tamper } from '../../helpers/tampered-ledgers';
import { IDENTITY, openNewLedger, useTempLedgerDirs } from './ledger-helpers';

const newDir = useTempLedgerDirs();

const lastSeq = (dir: string): number => [...readLedgerRows(dir)].at(-1)?.seq ?? 0;

/**
 * Issue 13 bug (a): rows cut from the end of the ledger while the folder keeps a newer checkpoint.
 * The ledger used to append on top, reusing the cut seqs (the cut then looked like a rewrite at
 * best); now it refuses every append while it ends below a checkpoint of its own folder, records
 * the gap in a marker file, and verify reports `truncated` without being given the checkpoint.
 */
describe('AuditLedger: rows cut from the end below a checkpoint of its folder', () => {
  it('refuses to append over the gap (so no tool runs), records it, and appends again once the rows are restored', async () => {
    const dir = newDir();
    const { ledger, clock } = openNewLedger(dir, '2026-12-01T08:00:00.000Z');
    for (let i = 1; i <= 6; i++) await ledger.append({ type: 'request', data: { prompt: `질문 ${i}` } });
    const taken = await takeCheckpoint(ledger, IDENTITY.hostId, clock.now());
    await ledger.close();
    expect(taken.checkpoint.size).toBe(6);
    const segment = listSegments(dir)[0]?.file as string;
    copyFileSync(segment, `${segment}.backup`);

    tamper(dir, (db) => db.prepare('DELETE FROM entries WHERE seq >= 4').run());
    expect(lastSeq(dir)).toBe(3);

    // verify sees it from the folder's own checkpoint, no --checkpoint needed.
    expect(verifyLedger(dir)).toMatchObject({ ok: false, firstBadSeq: 4, reason: 'truncated' });

    const reopened = AuditLedger.open(dir, IDENTITY, { clock: clock.now });
    await expect(reopened.append({ type: 'execution.started', tool: 'filesystem.read' })).rejects.toThrow(/rows 4–6 were cut from the end/);
    await expect(reopened.append({ type: 'request' })).rejects.toThrow(/will not write over the gap/);
    await reopened.close();
    // Nothing was written over the cut seqs, and the gap is on record beside the ledger.
    expect(lastSeq(dir)).toBe(3);
    expect(readFileSync(gapMarkerPath(dir), 'utf8')).toMatch(/ends at seq 3, but the checkpoint .* records 6 rows/);

    // Put back from a backup, the ledger reaches its checkpoint again and goes on.
    copyFileSync(`${segment}.backup`, segment);
    const restored = AuditLedger.open(dir, IDENTITY, { clock: clock.now });
    expect(await restored.append({ type: 'request' })).toBeGreaterThan(6);
    await restored.close();
    expect(verifyLedger(dir)).toMatchObject({ ok: true });
  });

  it('a ledger that never fell below its checkpoints writes no marker', async () => {
    const dir = newDir();
    const { ledger, clock } = openNewLedger(dir, '2026-12-01T08:00:00.000Z');
    await ledger.append({ type: 'request' });
    await takeCheckpoint(ledger, IDENTITY.hostId, clock.now());
    await ledger.append({ type: 'request' });
    await ledger.close();
    expect(existsSync(gapMarkerPath(dir))).toBe(false);
  });
});
