import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, schemaVersion } from '../../../electron/main/audit/ledger/schema';
import { openSegmentWriter, segmentFile } from '../../../electron/main/audit/ledger/segments';
import { AuditLedger } from '../../../electron/main/audit/writer';
import { IDENTITY, useTempLedgerDirs } from './ledger-helpers';

const newDir = useTempLedgerDirs();

function newFile(): string {
  const dir = newDir();
  mkdirSync(dir, { recursive: true });
  return segmentFile(dir, '2026-01');
}

describe('the ledger schema (one version, no migrations before the first release)', () => {
  it('a new segment gets the whole schema at version 1: the append-only table with its triggers, viewer_rows and its indexes', () => {
    const file = newFile();
    openSegmentWriter(file).close();
    const db = new Database(file, { readonly: true });
    try {
      expect(SCHEMA_VERSION).toBe(1);
      expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
      const names = (type: string) => db.prepare('SELECT name FROM sqlite_schema WHERE type = ? ORDER BY name').pluck().all(type);
      expect(names('table')).toEqual(['entries', 'viewer_rows']);
      expect(names('trigger')).toEqual(['entries_no_delete', 'entries_no_update']);
      expect(names('index')).toEqual(['viewer_by_app_user', 'viewer_by_decision', 'viewer_by_event_type', 'viewer_by_os_user', 'viewer_by_outcome', 'viewer_by_time', 'viewer_by_tool']);
      const columns = db.prepare("SELECT name FROM pragma_table_xinfo('entries')").pluck().all();
      expect(columns).toEqual(['seq', 'body', 'prev_hash', 'entry_hash', 'epoch', 'mac', 'event_type', 'time', 'os_user', 'app_user', 'tool', 'outcome', 'decision']);
    } finally {
      db.close();
    }
  });

  it('an existing segment at version 1 is opened as it is, rows kept', async () => {
    const dir = newDir();
    const ledger = AuditLedger.open(dir, IDENTITY);
    await ledger.append({ type: 'request', data: { prompt: '보고서 요약' } });
    await ledger.close();
    const again = AuditLedger.open(dir, IDENTITY);
    expect(again.head().seq).toBe(1);
    await again.close();
  });

  it.each([
    ['the next', SCHEMA_VERSION + 1],
    ['a far newer', 99],
  ])('a segment of %s schema version is refused with a message that says what to do', (_kind, version) => {
    const file = newFile();
    const db = new Database(file);
    db.pragma(`user_version = ${version}`);
    db.close();
    expect(() => openSegmentWriter(file)).toThrow(new RegExp(`schema version ${version}, which this Baram build does not know \\(it knows ${SCHEMA_VERSION}\\); update Baram`));
  });
});
