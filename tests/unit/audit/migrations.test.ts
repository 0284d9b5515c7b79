import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { encodeEventBody, buildEventBody } from '../../../electron/main/audit/ledger/canonical-event';
import { computeEntryHash, GENESIS_PREV_HASH } from '../../../electron/main/audit/ledger/chain';
import { LATEST_SCHEMA_VERSION, migrate, MIGRATIONS, schemaVersion } from '../../../electron/main/audit/ledger/migrations';
import { SqliteLedger } from '../../../electron/main/audit/ledger/sqlite-ledger';
import { verifyLedger } from '../../../electron/main/audit/ledger/verify';
import { IDENTITY, useTempLedgerFiles } from './ledger-helpers';

const newFile = useTempLedgerFiles();

/** Writes rows the way a v1 build did: only the v1 columns exist. */
function createV1LedgerWithRows(file: string, types: readonly ('request' | 'tool.proposed')[]): string[] {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  expect(migrate(db, 1)).toBe(1);
  const insert = db.prepare('INSERT INTO entries (seq, body, prev_hash, entry_hash) VALUES (?, ?, ?, ?)');
  let prev = GENESIS_PREV_HASH;
  const bodies: string[] = [];
  types.forEach((type, index) => {
    const seq = index + 1;
    const body = encodeEventBody(buildEventBody(seq, new Date(Date.UTC(2026, 0, 1, 0, 0, seq)), IDENTITY, { type }));
    const hash = computeEntryHash(seq, prev, body);
    insert.run(seq, body, prev, hash);
    bodies.push(body);
    prev = hash;
  });
  db.close();
  return bodies;
}

describe('ledger migrations', () => {
  it('are numbered 1..n without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('v0 → v1: creates the append-only table in an empty database', () => {
    const db = new Database(newFile());
    expect(schemaVersion(db)).toBe(0);
    expect(migrate(db, 1)).toBe(1);
    const triggers = db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").pluck().all();
    expect(triggers).toEqual(['entries_no_delete', 'entries_no_update']);
    db.close();
  });

  it('v1 → v2: a v1 database holding rows keeps them byte for byte, still verifies, and gains event_type', async () => {
    const file = newFile();
    const bodies = createV1LedgerWithRows(file, ['request', 'tool.proposed', 'request']);
    expect(verifyLedger(file)).toEqual({ ok: true, rows: 3 });

    // Opening with the current build runs the remaining migrations.
    const ledger = SqliteLedger.open(file, IDENTITY);
    expect(await ledger.append({ type: 'tool.proposed' })).toBe(4);
    await ledger.close();

    const db = new Database(file, { readonly: true });
    expect(schemaVersion(db)).toBe(2);
    const stored = db.prepare<[], { body: string }>('SELECT body FROM entries WHERE seq <= 3 ORDER BY seq').all();
    expect(stored.map((r) => r.body)).toEqual(bodies);
    const proposed = db.prepare("SELECT seq FROM entries WHERE event_type = 'tool.proposed' ORDER BY seq").pluck().all();
    expect(proposed).toEqual([2, 4]);
    db.close();
    expect(verifyLedger(file)).toEqual({ ok: true, rows: 4 });
  });

  it('refuses a database from a newer build', () => {
    const file = newFile();
    const db = new Database(file);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => SqliteLedger.open(file, IDENTITY)).toThrow(/newer than this Baram build/);
  });
});
