import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION as LATEST_SCHEMA_VERSION, schemaVersion } from '../../../electron/main/audit/ledger/schema';
import { listSegments, openSegmentReader, openSegmentWriter, segmentFile } from '../../../electron/main/audit/ledger/segments';
import { useTempLedgerDirs } from './ledger-helpers';

/**
 * A new month's segment appears complete or not at all: made under a temporary name (WAL mode,
 * schema) and linked into place. Made in place, a kill inside the switch to WAL left a hot rollback
 * journal that read-only connections cannot open (SQLITE_READONLY_ROLLBACK, met by the 1,000-round
 * crash benchmark), and a kill before the first migration a segment without tables.
 */
const newDir = useTempLedgerDirs();

function newFile(): string {
  const dir = newDir();
  mkdirSync(dir, { recursive: true });
  return segmentFile(dir, '2026-12');
}

describe('a new segment', () => {
  it('appears in WAL mode with its schema, and nothing else is left in the folder', () => {
    const file = newFile();
    openSegmentWriter(file).close();
    expect(readdirSync(dirname(file))).toEqual(['ledger-2026-12.sqlite3']);
    const db = openSegmentReader(file);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
      expect(db.prepare('SELECT count(*) AS n FROM entries').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('does not appear at all when making it fails part way (here: the disk is full before the schema)', () => {
    const file = newFile();
    // One page: the switch to WAL fits, the first migration does not.
    expect(() => openSegmentWriter(file, { maxPages: 1 })).toThrow();
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dirname(file))).toEqual([]);
    expect(listSegments(dirname(file))).toEqual([]);
  });

  it('is made once: an existing segment is opened as it is', () => {
    const file = newFile();
    openSegmentWriter(file).close();
    const made = statSync(file).ino;
    openSegmentWriter(file).close();
    expect(statSync(file).ino).toBe(made);
    expect(readdirSync(dirname(file))).toEqual(['ledger-2026-12.sqlite3']);
  });

  it('sweeps what a killed making of a segment left, once it is old, and nothing else', () => {
    const file = newFile();
    const dir = dirname(file);
    const stale = [`${segmentFile(dir, '2026-11')}.4242.0123456789ab.new`, `${segmentFile(dir, '2026-11')}.4242.0123456789ab.new-journal`];
    const fresh = `${segmentFile(dir, '2026-12')}.4343.ba9876543210.new`;
    const other = `${dir}/notes.new`;
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const path of [...stale, fresh, other]) writeFileSync(path, 'x');
    for (const path of [...stale, other]) utimesSync(path, hourAgo, hourAgo);
    openSegmentWriter(file).close();
    expect(readdirSync(dir).sort()).toEqual(['ledger-2026-12.sqlite3', basename(fresh), 'notes.new'].sort());
  });

  it('made in place the old way, a kill inside the switch to WAL leaves what no reader can open (why it is made aside)', () => {
    // The state such a kill leaves: the database file and a hot rollback journal beside it, made
    // here by copying both while a write transaction of a rollback-journal connection is open.
    const dir = dirname(newFile());
    const writing = new Database(`${dir}/live.sqlite3`);
    writing.pragma('journal_mode = DELETE');
    writing.pragma('cache_size = 1'); // changed pages go to the file at once, the originals to the journal
    writing.exec('CREATE TABLE t (x)');
    writing.exec('BEGIN IMMEDIATE');
    writing.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(200_000)); // spills to the file: the journal is hot
    const crashed = segmentFile(dir, '2027-01');
    copyFileSync(`${dir}/live.sqlite3`, crashed);
    copyFileSync(`${dir}/live.sqlite3-journal`, `${crashed}-journal`);
    writing.exec('ROLLBACK');
    writing.close();
    expect(() => {
      const db = openSegmentReader(crashed);
      try {
        db.prepare('SELECT count(*) FROM t').get();
      } finally {
        db.close();
      }
    }).toThrow(/readonly|read-only/i);
  });
});
