import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteLedger, verifyLedger } from '../../../electron/main/audit';
import { IDENTITY, useTempLedgerFiles } from './ledger-helpers';

const newFile = useTempLedgerFiles();

interface Row {
  seq: number;
  body: string;
}

function rowsOf(file: string): Row[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[], Row>('SELECT seq, body FROM entries ORDER BY seq').all();
  } finally {
    db.close();
  }
}

describe('SqliteLedger', () => {
  it('runs the writing connection in WAL with synchronous=FULL, and WAL is persisted in the file', async () => {
    const file = newFile();
    const ledger = SqliteLedger.open(file, IDENTITY);
    expect(ledger.durability()).toEqual({ journalMode: 'wal', synchronous: 2 });
    await ledger.close();
    const other = new Database(file, { readonly: true });
    expect(other.pragma('journal_mode', { simple: true })).toBe('wal');
    other.close();
  });

  it('stores canonical bodies with ledger fields that the event cannot override', async () => {
    const file = newFile();
    const fixedNow = new Date('2026-03-01T00:00:00.123Z');
    const ledger = SqliteLedger.open(file, IDENTITY, { clock: () => fixedNow });
    await ledger.append({ type: 'tool.proposed', tool: 'read_file', target: ['/home/kim/a.txt'], data: { b: 1, a: 2 } });
    await ledger.close();
    const [row] = rowsOf(file);
    const body = JSON.parse(row?.body ?? 'null') as Record<string, unknown>;
    expect(body).toMatchObject({
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

  it('keeps seq gap-free across reopen and across a refused append', async () => {
    const file = newFile();
    const first = SqliteLedger.open(file, IDENTITY);
    expect(await first.append({ type: 'session.start' })).toBe(1);
    expect(await first.append({ type: 'request' })).toBe(2);
    // canonical JSON refuses non-finite numbers: the append rejects and consumes no seq.
    await expect(first.append({ type: 'request', data: { n: Number.NaN } })).rejects.toThrow(/could not write the request event/);
    expect(await first.append({ type: 'session.stop' })).toBe(3);
    await first.close();

    const second = SqliteLedger.open(file, IDENTITY);
    expect(await second.append({ type: 'session.start' })).toBe(4);
    await second.close();
    expect(rowsOf(file).map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(verifyLedger(file)).toEqual({ ok: true, rows: 4 });
  });

  it('rejects appends after close', async () => {
    const ledger = SqliteLedger.open(newFile(), IDENTITY);
    await ledger.close();
    await expect(ledger.append({ type: 'request' })).rejects.toThrow(/closed/);
  });

  it('has triggers that refuse UPDATE and DELETE from any connection', async () => {
    const file = newFile();
    const ledger = SqliteLedger.open(file, IDENTITY);
    await ledger.append({ type: 'request' });
    await ledger.close();
    const db = new Database(file);
    try {
      expect(() => db.prepare("UPDATE entries SET body = '{}' WHERE seq = 1").run()).toThrow(/UPDATE refused/);
      expect(() => db.prepare('DELETE FROM entries WHERE seq = 1').run()).toThrow(/DELETE refused/);
    } finally {
      db.close();
    }
    expect(verifyLedger(file)).toEqual({ ok: true, rows: 1 });
  });

  it('verifies an empty ledger as ok with zero rows', async () => {
    const file = newFile();
    await SqliteLedger.open(file, IDENTITY).close();
    expect(verifyLedger(file)).toEqual({ ok: true, rows: 0 });
  });
});
