import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCheckpoint } from '../../../electron/main/audit/checkpoint/checkpoint';
import { checkpointsDir } from '../../../electron/main/audit/checkpoint/checkpoint-files';
import { nearMiss } from '../../../electron/main/audit/checkpoint/mistyped';
import { verifyLedger } from '../../../electron/main/audit/ledger/verify';
import { FIVE_DAYS, rechain, seqOf, writeLedger } from '../../helpers/tampered-ledgers';
import { useTempLedgerDirs } from './ledger-helpers';

/**
 * A checkpoint the auditor typed with a slip is set aside as mistyped (issue 15 item 14) — and
 * that leniency never lets tampering through: a rewritten chain still fails against the same
 * slipped text, and the folder's own checkpoint files are never set aside.
 */
const newDir = useTempLedgerDirs();

/** The checkpoint text with the case of one letter of its hash line flipped. */
function slipInHash(text: string): string {
  const lines = text.split('\n');
  const hash = lines[2] ?? '';
  const at = [...hash].findIndex((c) => /[a-zA-Z]/.test(c));
  const c = hash[at] ?? '';
  lines[2] = hash.slice(0, at) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + hash.slice(at + 1);
  return lines.join('\n');
}

describe('a mistyped checkpoint', () => {
  it('is set aside and named, not counted, and the ledger verifies', async () => {
    const dir = newDir();
    const { key, checkpoint } = await writeLedger(dir, FIVE_DAYS);
    const { text, parsed } = await checkpoint();
    for (const options of [{}, { key }]) {
      const verdict = verifyLedger(dir, { ...options, checkpoints: [parseCheckpoint(slipInHash(text))] });
      expect(verdict).toMatchObject({ ok: true, checkpointsChecked: 1, mistypedCheckpoints: [{ size: parsed.size, line: 'hash' }] });
    }
  });

  it('does not hide a rewritten chain: the genuine text and the slipped one both fail', async () => {
    const dir = newDir();
    const { key, checkpoint } = await writeLedger(dir, FIVE_DAYS);
    const { text } = await checkpoint();
    rechain(dir, seqOf(dir, '질문 2'), (b) => b.replace('질문 2', '질문 X'));
    for (const given of [text, slipInHash(text)]) {
      for (const options of [{}, { key }]) {
        const verdict = verifyLedger(dir, { ...options, checkpoints: [parseCheckpoint(given)] });
        expect(verdict.ok).toBe(false);
        expect(verdict.mistypedCheckpoints).toBeUndefined();
      }
    }
  });

  it("never sets aside the folder's own checkpoint file", async () => {
    const dir = newDir();
    await writeLedger(dir, FIVE_DAYS).then((l) => l.checkpoint());
    const [name = ''] = readdirSync(checkpointsDir(dir));
    const file = join(checkpointsDir(dir), name);
    writeFileSync(file, slipInHash(readFileSync(file, 'utf8')));
    expect(verifyLedger(dir)).toMatchObject({ ok: false, reason: 'rewritten' });
  });

  it('is a near miss only within three slips, case and O/0, I/l/1 folded', () => {
    expect(nearMiss('abcdefgh', 'ABCDEFGH')).toBe(true);
    expect(nearMiss('O0Il1xyz', '0o1L1xyz')).toBe(true);
    expect(nearMiss('abcdefgh', 'abXdYfZh')).toBe(true);
    expect(nearMiss('abcdefgh', 'WbXdYfZh')).toBe(false);
    expect(nearMiss('abcdefgh', 'abcdefg')).toBe(false);
    expect(nearMiss('abcdefgh', 'abcdefgh')).toBe(false);
  });
});
