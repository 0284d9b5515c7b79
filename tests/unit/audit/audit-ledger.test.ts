import { existsSync, readFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { parseVerificationKey, readLedgerRows, sealKeyPath, verifyLedger } from '../../../electron/main/audit';
import { AuditLedger } from '../../../electron/main/audit/writer';
import { epochOf } from '../../../electron/main/audit/ledger/epochs';
import { deriveKey } from '../../../electron/main/audit/ledger/seal-key';
import { listSegments, openSegmentWriter } from '../../../electron/main/audit/ledger/segments';
import { LedgerReader } from '../../../electron/main/audit/query/event-query';
import { checkSegmentIndexes } from '../../../electron/main/audit/query/index-check';
import { IDENTITY, keyFileCopy, manualClock, openNewLedger, reopenAndAppend, useTempLedgerDirs } from './ledger-helpers';

const newDir = useTempLedgerDirs();

function bodies(dir: string): Record<string, unknown>[] {
  return [...readLedgerRows(dir)].map((r) => JSON.parse(r.body) as Record<string, unknown>);
}

function firstSegment(dir: string): string {
  const segment = listSegments(dir)[0];
  if (!segment) throw new Error('test setup: no segment');
  return segment.file;
}

describe('AuditLedger: storage', () => {
  it('writes through a connection in WAL with synchronous=FULL, and WAL is persisted in the file', async () => {
    const dir = newDir();
    const ledger = AuditLedger.open(dir, IDENTITY);
    await ledger.append({ type: 'request' });
    await ledger.close();
    const writer = openSegmentWriter(firstSegment(dir));
    expect([writer.pragma('journal_mode', { simple: true }), writer.pragma('synchronous', { simple: true })]).toEqual(['wal', 2]);
    writer.close();
    const other = new Database(firstSegment(dir), { readonly: true });
    expect(other.pragma('journal_mode', { simple: true })).toBe('wal');
    other.close();
  });

  it('stores canonical bodies with ledger fields that the event cannot override', async () => {
    const dir = newDir();
    const fixedNow = new Date('2026-03-01T00:00:00.123Z');
    const ledger = AuditLedger.open(dir, IDENTITY, { clock: () => fixedNow });
    await ledger.append({ type: 'tool.proposed', tool: 'read_file', target: ['/home/kim/a.txt'], data: { b: 1, a: 2 } });
    await ledger.close();
    const [row] = [...readLedgerRows(dir)];
    expect(JSON.parse(row?.body ?? 'null')).toMatchObject({
      seq: 1,
      time: '2026-03-01T00:00:00.123Z',
      tzOffsetMinutes: 0 - fixedNow.getTimezoneOffset(),
      sessionId: 'sess-1',
      osUser: 'kim',
      appUser: '김민수',
      hostId: 'host-abc',
      type: 'tool.proposed',
      tool: 'read_file',
    });
    // Canonical: keys sorted at every level, no whitespace.
    expect(row?.body.startsWith('{"appUser":"김민수","data":{"a":2,"b":1},"hostId"')).toBe(true);
  });

  it('keeps seq gap-free across reopen and across a refused append, and records the refused write', async () => {
    const dir = newDir();
    const first = AuditLedger.open(dir, IDENTITY);
    expect(await first.append({ type: 'session.start' })).toBe(1);
    expect(await first.append({ type: 'request' })).toBe(2);
    // canonical JSON refuses non-finite numbers: the append rejects and consumes no seq.
    await expect(first.append({ type: 'request', data: { n: Number.NaN } })).rejects.toThrow(/could not write the request event/);
    // The next append that succeeds first records the failure, so the gap in the story is on record.
    expect(await first.append({ type: 'session.stop' })).toBe(4);
    await first.close();

    const second = AuditLedger.open(dir, IDENTITY);
    expect(await second.append({ type: 'session.start' })).toBe(5);
    await second.close();
    expect(bodies(dir).map((b) => [b.seq, b.type])).toEqual([
      [1, 'session.start'],
      [2, 'request'],
      [3, 'audit.write-failed'],
      [4, 'session.stop'],
      [5, 'session.start'],
    ]);
    expect(bodies(dir)[2]).toMatchObject({ outcome: 'error', data: { failedAppends: 1, lastError: expect.stringMatching(/finite|NaN/i) } });
    expect(verifyLedger(dir)).toMatchObject({ ok: true, rows: 5 });
  });

  it('two open ledgers on one folder (the app and the CLI) interleave appends on one gap-free chain', async () => {
    const dir = newDir();
    const app = AuditLedger.open(dir, IDENTITY);
    const cli = AuditLedger.open(dir, { ...IDENTITY, sessionId: 'cli' });
    try {
      // Each append must see the rows the other connection committed since its own last one.
      const order = [app, app, cli, app, cli, cli, app, cli, app, app, cli, app];
      const seqs: number[] = [];
      for (const ledger of order) seqs.push(await ledger.append({ type: 'request' }));
      expect(seqs).toEqual(order.map((_, i) => i + 1));
    } finally {
      await app.close();
      await cli.close();
    }
    expect(verifyLedger(dir)).toMatchObject({ ok: true, rows: 12 });
    expect(bodies(dir).map((b) => b.sessionId)).toEqual(['sess-1', 'sess-1', 'cli', 'sess-1', 'cli', 'cli', 'sess-1', 'cli', 'sess-1', 'sess-1', 'cli', 'sess-1']);
  });

  it('rejects appends after close', async () => {
    const ledger = AuditLedger.open(newDir(), IDENTITY);
    await ledger.close();
    await expect(ledger.append({ type: 'request' })).rejects.toThrow(/closed/);
  });

  it('has triggers that refuse UPDATE and DELETE from any connection', async () => {
    const dir = newDir();
    const ledger = AuditLedger.open(dir, IDENTITY);
    await ledger.append({ type: 'request' });
    await ledger.close();
    const db = new Database(firstSegment(dir));
    try {
      expect(() => db.prepare("UPDATE entries SET body = '{}' WHERE seq = 1").run()).toThrow(/UPDATE refused/);
      expect(() => db.prepare('DELETE FROM entries WHERE seq = 1').run()).toThrow(/DELETE refused/);
    } finally {
      db.close();
    }
    expect(verifyLedger(dir)).toMatchObject({ ok: true, rows: 1 });
  });

  it('verifies an empty ledger as ok with zero rows', async () => {
    const dir = newDir();
    await AuditLedger.open(dir, IDENTITY).close();
    expect(verifyLedger(dir)).toMatchObject({ ok: true, rows: 0 });
  });
});

describe('AuditLedger: monthly segments', () => {
  it('starts a new segment file each UTC month; seq and the chain run on across files', async () => {
    const dir = newDir();
    const clock = manualClock('2026-01-31T23:59:59.000Z');
    const ledger = AuditLedger.open(dir, IDENTITY, { clock: clock.now });
    await ledger.append({ type: 'request' });
    clock.set('2026-02-01T00:00:01.000Z');
    await ledger.append({ type: 'request' });
    clock.set('2026-03-15T09:00:00.000Z');
    await ledger.append({ type: 'request' });
    await ledger.close();
    expect(listSegments(dir).map((s) => s.month)).toEqual(['2026-01', '2026-02', '2026-03']);
    const rows = [...readLedgerRows(dir)];
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]); // two seal rows: day changes
    expect(rows.filter((r) => r.startsSegment).map((r) => r.seq)).toEqual([2, 4]);
    expect(verifyLedger(dir)).toMatchObject({ ok: true, rows: 5 });
  });

  it('never writes into an older month when the clock is set back', async () => {
    const dir = newDir();
    const clock = manualClock('2026-05-02T00:00:00.000Z');
    const ledger = AuditLedger.open(dir, IDENTITY, { clock: clock.now });
    await ledger.append({ type: 'request' });
    clock.set('2026-04-30T12:00:00.000Z');
    await ledger.append({ type: 'request' });
    await ledger.close();
    expect(listSegments(dir).map((s) => s.month)).toEqual(['2026-05']);
    expect(verifyLedger(dir)).toMatchObject({ ok: true, rows: 2 });
  });
});

describe('AuditLedger: viewer_rows', () => {
  /** viewer_rows' highest seq per segment, and whether every row up to it matches the bodies. */
  function viewerState(dir: string): { month: string; high: number; max: number; ok: boolean }[] {
    return listSegments(dir).map((segment) => {
      const db = new Database(segment.file, { readonly: true });
      try {
        const high = db.prepare('SELECT coalesce(max(seq), 0) FROM viewer_rows').pluck().get() as number;
        const max = db.prepare('SELECT max(seq) FROM entries').pluck().get() as number;
        return { month: segment.month, high, max, ok: checkSegmentIndexes(segment.file).ok };
      } finally {
        db.close();
      }
    });
  }

  it('fills viewer_rows in the append that crosses each batch boundary, in every month, and the viewer sees every row', async () => {
    const dir = newDir();
    const clock = manualClock('2026-01-31T23:00:00.000Z');
    const ledger = AuditLedger.open(dir, IDENTITY, { clock: clock.now, viewerBatchRows: 4 });
    for (let i = 0; i < 6; i++) await ledger.append({ type: 'tool.proposed', tool: `tool-${i}` });
    // seq 1–6 in January: filled at seq 4, two rows above.
    expect(viewerState(dir)).toEqual([{ month: '2026-01', high: 4, max: 6, ok: true }]);
    clock.set('2026-02-01T00:00:01.000Z');
    // seq 7 is the day's seal row, 8–10 the events: the boundary at 8 is crossed by the first append.
    for (let i = 6; i < 9; i++) await ledger.append({ type: 'tool.proposed', tool: `tool-${i}` });
    await ledger.close();
    expect(viewerState(dir)).toEqual([
      { month: '2026-01', high: 4, max: 6, ok: true },
      { month: '2026-02', high: 8, max: 10, ok: true },
    ]);
    // No scan deadline: a page cut short on a loaded machine is the query's contract, not this test's subject.
    const reader = LedgerReader.open(listSegments(dir).map((s) => s.file), { scanMillis: 3_600_000 });
    try {
      expect(reader.page({ eventType: 'tool.proposed' }).events.map((e) => e.tool)).toEqual(Array.from({ length: 9 }, (_, i) => `tool-${8 - i}`));
      expect(reader.page({ tool: 'tool-5' }).events.map((e) => e.seq)).toEqual([6]);
      expect(reader.page({ tool: 'tool-2' }).events.map((e) => e.seq)).toEqual([3]);
    } finally {
      reader.close();
    }
    expect(verifyLedger(dir)).toMatchObject({ ok: true, rows: 10 });
  });
});

describe('AuditLedger: forward-secure seals', () => {
  it('hands out the verification key exactly once, when the ledger is created', async () => {
    const dir = newDir();
    const ledger = AuditLedger.open(dir, IDENTITY);
    const key = ledger.takeInitialKey();
    expect(key).toMatch(/^baram-k0-v1:\d+:[0-9a-f]{64}$/);
    expect(ledger.takeInitialKey()).toBeUndefined();
    await ledger.close();
    const again = AuditLedger.open(dir, IDENTITY);
    expect(again.takeInitialKey()).toBeUndefined();
    await again.close();
  });

  it('seals each day with the old key, evolves the key and overwrites the old one on disk', async () => {
    const dir = newDir();
    const { ledger, clock, k0 } = openNewLedger(dir, '2026-12-01T08:00:00.000Z');
    await ledger.append({ type: 'request' });
    clock.set('2026-12-02T08:00:00.000Z');
    await ledger.append({ type: 'request' });
    clock.set('2026-12-05T08:00:00.000Z');
    await ledger.append({ type: 'request' });
    await ledger.close();

    const day1 = epochOf(new Date('2026-12-01T00:00:00Z'));
    expect(k0.epoch).toBe(day1);
    const rows = [...readLedgerRows(dir)];
    expect(rows.map((r) => [JSON.parse(r.body).type, r.epoch])).toEqual([
      ['request', day1],
      ['audit.seal', day1],
      ['request', day1 + 1],
      ['audit.seal', day1 + 1],
      ['request', day1 + 4],
    ]);
    expect(JSON.parse(rows[3]?.body ?? '{}').data).toEqual({ sealedEpoch: day1 + 1, nextEpoch: day1 + 4, sealedThroughSeq: 3 });

    // The key file now holds only day 4's key: neither K0 nor any earlier day's key is on disk.
    const keyFile = readFileSync(sealKeyPath(dir));
    for (const epoch of [day1, day1 + 1, day1 + 2, day1 + 3]) expect(keyFile.includes(deriveKey(k0, epoch).key)).toBe(false);
    expect(keyFile.includes(deriveKey(k0, day1 + 4).key)).toBe(true);

    expect(verifyLedger(dir, { key: k0 })).toMatchObject({ ok: true, rows: 5, macChecked: true, unsealedRows: 1 });
    expect(verifyLedger(dir, { key: parseVerificationKey(`baram-k0-v1:${day1}:${'ab'.repeat(32)}`) })).toMatchObject({ ok: false, firstBadSeq: 1, reason: 'bad-mac' });
  });

  it('seals an idle day on demand (the daily checkpoint does this even when nothing else happens)', async () => {
    const dir = newDir();
    const { ledger, clock, k0 } = openNewLedger(dir, '2026-12-01T08:00:00.000Z');
    await ledger.append({ type: 'request' });
    clock.set('2026-12-03T00:00:00.000Z');
    expect(ledger.sealIfDue()).toBe(k0.epoch + 2);
    expect(ledger.sealIfDue()).toBe(k0.epoch + 2); // nothing more to seal today
    await ledger.close();
    expect(bodies(dir).map((b) => b.type)).toEqual(['request', 'audit.seal']);
    expect(verifyLedger(dir, { key: k0 })).toMatchObject({ ok: true, rows: 2 });
  });

  it('repairs a key file left one step behind by a crash between the seal row and the key update', async () => {
    const dir = newDir();
    const { ledger, clock, k0 } = openNewLedger(dir, '2026-12-01T08:00:00.000Z');
    await ledger.append({ type: 'request' });
    const dayOneKeyFile = keyFileCopy(dir);
    clock.set('2026-12-02T08:00:00.000Z');
    await ledger.append({ type: 'request' });
    await ledger.close();
    // As if the process died after committing the seal row but before overwriting the key.
    dayOneKeyFile.restore();

    await reopenAndAppend(dir, clock);
    expect(readFileSync(sealKeyPath(dir)).includes(deriveKey(k0, k0.epoch).key)).toBe(false);
    expect(verifyLedger(dir, { key: k0 })).toMatchObject({ ok: true, rows: 4 });
  });

  it('refuses to start a new key over existing records when the key file is gone', async () => {
    const dir = newDir();
    const ledger = AuditLedger.open(dir, IDENTITY);
    await ledger.append({ type: 'request' });
    await ledger.close();
    rmSync(sealKeyPath(dir));
    expect(() => AuditLedger.open(dir, IDENTITY)).toThrow(/sealing key .* is missing while records exist/);
    expect(existsSync(sealKeyPath(dir))).toBe(false);
  });
});
