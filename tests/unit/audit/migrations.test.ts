import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { encodeEventBody, buildEventBody } from '../../../electron/main/audit/ledger/canonical-event';
import { computeEntryHash, GENESIS_PREV_HASH } from '../../../electron/main/audit/ledger/chain';
import { LATEST_SCHEMA_VERSION, migrate, MIGRATIONS, schemaVersion } from '../../../electron/main/audit/ledger/migrations';
import { openSegmentWriter, segmentFile } from '../../../electron/main/audit/ledger/segments';
import { verifyLedger } from '../../../electron/main/audit/ledger/verify';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { IDENTITY, useTempLedgerDirs } from './ledger-helpers';

const newDir = useTempLedgerDirs();

/** A segment file path inside a fresh ledger folder. */
function newFile(): string {
  const dir = newDir();
  mkdirSync(dir, { recursive: true });
  return segmentFile(dir, '2026-01');
}

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

  it('v1 → latest: a v1 segment holding rows keeps them byte for byte, still verifies, and gains the later columns', () => {
    const file = newFile();
    const dir = join(file, '..');
    const bodies = createV1LedgerWithRows(file, ['request', 'tool.proposed', 'request']);
    expect(verifyLedger(dir)).toMatchObject({ ok: true, rows: 3 });

    // The writer's connection runs the remaining migrations.
    openSegmentWriter(file).close();

    const db = new Database(file, { readonly: true });
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    const stored = db.prepare<[], { body: string }>('SELECT body FROM entries ORDER BY seq').all();
    expect(stored.map((r) => r.body)).toEqual(bodies);
    const proposed = db.prepare("SELECT seq FROM entries WHERE event_type = 'tool.proposed' ORDER BY seq").pluck().all();
    expect(proposed).toEqual([2]);
    // Rows from before sealing existed carry epoch 0 and no MAC: verifiable by chain, not by key.
    expect(db.prepare('SELECT DISTINCT epoch, mac FROM entries').all()).toEqual([{ epoch: 0, mac: '' }]);
    db.close();
    expect(verifyLedger(dir)).toMatchObject({ ok: true, rows: 3 });
  });

  it('refuses a database from a newer build', () => {
    const file = newFile();
    const db = new Database(file);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openSegmentWriter(file)).toThrow(/newer than this Baram build/);
  });
});
