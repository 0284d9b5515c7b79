import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backupLedger, enforceRetention, ensureDailyCheckpoint, exportLedger, listSegments, parseVerificationKey, readLedgerRows, verifyExportFile, verifyLedger, type ExportFormat } from '../../../electron/main/audit';
import { AuditLedger } from '../../../electron/main/audit/writer';
import { IDENTITY, manualClock, useTempLedgerDirs } from '../../unit/audit/ledger-helpers';

const newDir = useTempLedgerDirs();

async function officeLedger(times: readonly string[]) {
  const dir = newDir();
  const clock = manualClock(times[0] ?? '2026-11-02T00:00:00Z');
  const ledger = AuditLedger.open(dir, IDENTITY, { clock: clock.now });
  const k0 = parseVerificationKey(ledger.takeInitialKey() ?? '');
  for (const [i, time] of times.entries()) {
    clock.set(time);
    await ledger.append({ type: 'request', target: [i === 1 ? '=HYPERLINK("http://evil","클릭")' : `C:\\Users\\김민수\\문서\\보고서${i}.xlsx`], data: { prompt: `질문 ${i + 1}` } });
  }
  return { dir, ledger, clock, k0, out: (name: string) => join(dir, '..', name) };
}

describe('exports', () => {
  it('JSONL verifies on its own, embeds the checkpoint taken at export time, and a changed line is caught', async () => {
    const { ledger, clock, k0, out } = await officeLedger(['2026-11-02T09:00:00Z', '2026-11-02T10:00:00Z', '2026-11-03T09:00:00Z']);
    const file = out('audit.jsonl');
    const summary = await exportLedger(ledger, { format: 'jsonl', out: file, hostId: IDENTITY.hostId, productVersion: '0.1.0', now: clock.now() });
    await ledger.close();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0] ?? '{}') as { checkpoint: string; fromSeq: number; toSeq: number };
    expect(header.checkpoint).toBe(summary.checkpoint);
    expect(header).toMatchObject({ fromSeq: 1, toSeq: summary.toSeq });
    // The last row is the checkpoint's own record.
    expect(JSON.parse(JSON.parse(lines.at(-1) ?? '{}').body).type).toBe('audit.checkpoint');

    expect(verifyExportFile(file, { key: k0 }).verdict).toMatchObject({ ok: true, rows: lines.length - 1, macChecked: true, checkpointsChecked: 1 });

    const edited = lines.map((l, i) => (i === 2 ? l.replace('질문 2', '질문 X') : l)).join('\n');
    writeFileSync(file, `${edited}\n`);
    expect(verifyExportFile(file).verdict).toMatchObject({ ok: false, firstBadSeq: 2, reason: 'edited' });

    writeFileSync(file, `${lines.slice(0, -2).join('\n')}\n`);
    expect(verifyExportFile(file).verdict).toMatchObject({ ok: false, reason: 'truncated' });
  });

  it('a time-range JSONL export is one unbroken, verifiable run of rows', async () => {
    const { ledger, clock, k0, out } = await officeLedger(['2026-11-02T09:00:00Z', '2026-11-03T09:00:00Z', '2026-11-04T09:00:00Z', '2026-11-05T09:00:00Z']);
    const file = out('range.jsonl');
    const summary = await exportLedger(ledger, { format: 'jsonl', out: file, from: new Date('2026-11-03T00:00:00Z'), to: new Date('2026-11-05T00:00:00Z'), hostId: IDENTITY.hostId, productVersion: '0.1.0', now: clock.now() });
    await ledger.close();
    expect(summary.fromSeq).toBeGreaterThan(1);
    const result = verifyExportFile(file, { key: k0 });
    expect(result.verdict).toMatchObject({ ok: true, firstSeq: summary.fromSeq, lastSeq: summary.toSeq });
    // Its embedded checkpoint lies after the range: reported, not a failure.
    expect(result.checkpointsOutOfRange).toBe(1);
  });

  it('CSV opens as Korean text: BOM, CRLF, Korean headers, formula cells neutralised, checkpoint last', async () => {
    const { ledger, clock, out } = await officeLedger(['2026-11-02T09:00:00Z', '2026-11-02T10:00:00Z']);
    const file = out('audit.csv');
    await exportLedger(ledger, { format: 'csv', out: file, hostId: IDENTITY.hostId, productVersion: '0.1.0', now: clock.now() });
    await ledger.close();
    const bytes = readFileSync(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.split('\r\n')[0]).toMatch(/^순번,현지 시각,시간대,UTC 시각\(정밀\),/);
    expect(text).toContain('보고서0.xlsx');
    expect(text).toContain(`"'=HYPERLINK(""http://evil"",""클릭"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    const rows = text.trimEnd().split('\r\n');
    expect(rows.at(-1)).toContain('audit.checkpoint');
  });

  it.each<ExportFormat>(['syslog', 'cef'])('%s has one line per event and ends with the checkpoint', async (format) => {
    const { ledger, clock, out } = await officeLedger(['2026-11-02T09:00:00Z', '2026-11-02T10:00:00Z', '2026-11-02T11:00:00Z']);
    const file = out(`audit.${format}`);
    const summary = await exportLedger(ledger, { format, out: file, hostId: IDENTITY.hostId, productVersion: '0.1.0', now: clock.now() });
    await ledger.close();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(summary.rows);
    expect(lines[0]).toMatch(format === 'syslog' ? /^<\d{1,3}>1 2026-11-02T09:00:00.000Z / : /^CEF:0\|Baram\|Baram\|0\.1\.0\|request\|/);
    expect(lines.at(-1)).toContain('audit.checkpoint');
  });

  it('never overwrites an existing file, and records every export in the ledger', async () => {
    const { dir, ledger, clock, out } = await officeLedger(['2026-11-02T09:00:00Z']);
    const file = out('once.jsonl');
    await exportLedger(ledger, { format: 'jsonl', out: file, hostId: IDENTITY.hostId, productVersion: '0.1.0', now: clock.now() });
    await expect(exportLedger(ledger, { format: 'csv', out: file, hostId: IDENTITY.hostId, productVersion: '0.1.0', now: clock.now() })).rejects.toThrow(/already exists/);
    await ledger.close();
    const exports = [...readLedgerRows(dir)].map((r) => JSON.parse(r.body)).filter((b) => b.type === 'audit.export');
    expect(exports).toEqual([expect.objectContaining({ target: [file], data: expect.objectContaining({ format: 'jsonl', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }) })]);
    expect(readdirSync(join(dir, '..')).filter((n) => n.endsWith('.partial'))).toEqual([]);
  });
});

describe('retention', () => {
  it('deletes whole months past retention on record; the rest still verifies, with and without the key', async () => {
    const { dir, ledger, clock, k0 } = await officeLedger(['2024-01-10T09:00:00Z', '2024-02-10T09:00:00Z', '2024-03-10T09:00:00Z', '2026-02-10T09:00:00Z']);
    // 730 days after the end of February 2024 (2024-03-01) is 2026-03-01: January and February 2024 are due, March not.
    clock.set('2026-03-01T12:00:00Z');
    const deleted = await enforceRetention(ledger, 730, clock.now());
    await ledger.close();
    expect(deleted.map((d) => d.segment)).toEqual(['ledger-2024-01.sqlite3', 'ledger-2024-02.sqlite3']);
    // The deletion records themselves went into March 2026's new segment.
    expect(listSegments(dir).map((s) => s.month)).toEqual(['2024-03', '2026-02', '2026-03']);
    const verdict = verifyLedger(dir, { key: k0 });
    expect(verdict).toMatchObject({ ok: true, deletedThroughSeq: deleted.at(-1)?.lastSeq });
    expect(verifyLedger(dir)).toMatchObject({ ok: true });
    const record = [...readLedgerRows(dir)].map((r) => JSON.parse(r.body)).find((b) => b.type === 'retention.deleted');
    expect(record).toMatchObject({ actionClass: '삭제', data: { segment: 'ledger-2024-01.sqlite3', firstSeq: 1, finalHash: expect.stringMatching(/^[0-9a-f]{64}$/) } });
  });

  it('keeps everything younger than the retention period and never deletes the newest segment', async () => {
    const { dir, ledger, clock } = await officeLedger(['2024-01-10T09:00:00Z']);
    clock.set('2030-01-01T00:00:00Z');
    expect(await enforceRetention(ledger, 730, clock.now())).toEqual([]);
    await ledger.close();
    expect(listSegments(dir).map((s) => s.month)).toEqual(['2024-01']);
  });
});

describe('backup and daily checkpoints', () => {
  it('backs up through SQLite\'s backup API into a folder that verifies on its own, without the sealing key', async () => {
    const { dir, ledger, k0, out } = await officeLedger(['2026-10-30T09:00:00Z', '2026-11-02T09:00:00Z']);
    const target = out('backup');
    const summary = await backupLedger(ledger, target);
    await ledger.close();
    expect(summary.segments).toEqual(['ledger-2026-10.sqlite3', 'ledger-2026-11.sqlite3']);
    expect(existsSync(join(target, 'seal.key'))).toBe(false);
    expect(verifyLedger(target, { key: k0 })).toMatchObject({ ok: true });
    await expect(backupLedger(AuditLedger.open(dir, IDENTITY), target)).rejects.toThrow(/not empty/);
  });

  it('takes one checkpoint per UTC day, even on a day with no other record', async () => {
    const { dir, ledger, clock, k0 } = await officeLedger(['2026-11-02T09:00:00Z']);
    expect(await ensureDailyCheckpoint(ledger, IDENTITY.hostId, clock.now())).toBeDefined();
    expect(await ensureDailyCheckpoint(ledger, IDENTITY.hostId, clock.now())).toBeUndefined();
    clock.set('2026-11-03T00:30:00Z');
    const next = await ensureDailyCheckpoint(ledger, IDENTITY.hostId, clock.now());
    await ledger.close();
    expect(next?.checkpoint.signature?.epoch).toBe(k0.epoch + 1);
    expect([...readLedgerRows(dir)].map((r) => JSON.parse(r.body).type)).toEqual(['request', 'audit.checkpoint', 'audit.seal', 'audit.checkpoint']);
    // The one given is also in the folder and counts once; the folder's other one counts too.
    expect(verifyLedger(dir, { key: k0, checkpoints: next ? [next.checkpoint] : [] })).toMatchObject({ ok: true, checkpointsChecked: 2 });
  });
});
