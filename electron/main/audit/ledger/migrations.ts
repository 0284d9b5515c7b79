import type Database from 'better-sqlite3';

/**
 * Numbered schema migrations; `PRAGMA user_version` holds the number of the last one applied.
 * Append new migrations at the end, never edit an applied one: databases in the field already ran it.
 */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'append-only entries table with hash chain; triggers refuse UPDATE and DELETE',
    // The triggers catch bugs in our own code, not attackers (anyone who can write the file can drop
    // them); tampering is caught by the hash chain in verify.ts.
    sql: `
      CREATE TABLE entries (
        seq        INTEGER PRIMARY KEY CHECK (seq >= 1),
        body       TEXT    NOT NULL,
        prev_hash  TEXT    NOT NULL CHECK (length(prev_hash) = 64),
        entry_hash TEXT    NOT NULL CHECK (length(entry_hash) = 64)
      ) STRICT;
      CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
        BEGIN SELECT RAISE(ABORT, 'audit ledger is append-only: UPDATE refused'); END;
      CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
        BEGIN SELECT RAISE(ABORT, 'audit ledger is append-only: DELETE refused'); END;
    `,
  },
  {
    version: 2,
    description: 'event type as a virtual column with an index, for exports and reviews filtered by type',
    // VIRTUAL: computed from the body on read, so no stored byte changes and old rows still verify.
    sql: `
      ALTER TABLE entries ADD COLUMN event_type TEXT GENERATED ALWAYS AS (json_extract(body, '$.type')) VIRTUAL;
      CREATE INDEX entries_by_event_type ON entries (event_type, seq);
    `,
  },
  {
    version: 3,
    description: 'forward-secure MAC per row: the epoch whose key sealed it and HMAC(key, epoch ‖ entry_hash)',
    // Outside the hashed body on purpose: the MAC authenticates the chain, it is not part of it.
    sql: `
      ALTER TABLE entries ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0 CHECK (epoch >= 0);
      ALTER TABLE entries ADD COLUMN mac TEXT NOT NULL DEFAULT '' CHECK (mac = '' OR length(mac) = 64);
    `,
  },
  {
    version: 4,
    description: 'audit viewer filters: virtual columns for time, users, tool, outcome, decision, with keyset-paging indexes',
    // VIRTUAL like event_type: no stored byte changes, old rows still verify. Each index ends in seq
    // so "value = ? AND seq < ? ORDER BY seq DESC LIMIT n" reads n index entries, newest first
    // (docs/2026-12-02-audit-viewer-queries.md has the plans and timings at 1M rows). outcome and
    // decision are partial: only execution.finished / permission.decided rows carry them, and
    // "= ?" implies NOT NULL, so the smaller index still answers every filter. time is indexed
    // alone: the reader only uses it to turn a time range into seq bounds. None of these is hashed:
    // verify must run PRAGMA integrity_check so an index forged to drop rows cannot hide them.
    sql: `
      ALTER TABLE entries ADD COLUMN time TEXT GENERATED ALWAYS AS (json_extract(body, '$.time')) VIRTUAL;
      ALTER TABLE entries ADD COLUMN os_user TEXT GENERATED ALWAYS AS (json_extract(body, '$.osUser')) VIRTUAL;
      ALTER TABLE entries ADD COLUMN app_user TEXT GENERATED ALWAYS AS (json_extract(body, '$.appUser')) VIRTUAL;
      ALTER TABLE entries ADD COLUMN tool TEXT GENERATED ALWAYS AS (json_extract(body, '$.tool')) VIRTUAL;
      ALTER TABLE entries ADD COLUMN outcome TEXT GENERATED ALWAYS AS (json_extract(body, '$.outcome')) VIRTUAL;
      ALTER TABLE entries ADD COLUMN decision TEXT GENERATED ALWAYS AS (json_extract(body, '$.decision')) VIRTUAL;
      CREATE INDEX entries_by_time ON entries (time);
      CREATE INDEX entries_by_os_user ON entries (os_user, seq);
      CREATE INDEX entries_by_app_user ON entries (app_user, seq);
      CREATE INDEX entries_by_tool ON entries (tool, seq) WHERE tool IS NOT NULL;
      CREATE INDEX entries_by_outcome ON entries (outcome, seq) WHERE outcome IS NOT NULL;
      CREATE INDEX entries_by_decision ON entries (decision, seq) WHERE decision IS NOT NULL;
    `,
  },
  {
    version: 5,
    description: 'viewer filter indexes move off the append path into viewer_rows, filled in batches after the rows (viewer-rows.ts)',
    // Indexes on entries made every append write and fsync seven B-tree pages instead of one
    // (docs/2026-12-02-audit-viewer-rows.md). viewer_rows holds the same values, copied from the
    // virtual columns (which stay) for every row up to its highest seq; the rows above it are few
    // and read from the bodies. Not hashed: `baram audit verify` compares it with the bodies
    // (query/index-check.ts), as integrity_check compared the v4 indexes with the rows. TEXT like
    // the virtual columns, so a value is stored with the same affinity they give it.
    sql: `
      DROP INDEX entries_by_event_type;
      DROP INDEX entries_by_time;
      DROP INDEX entries_by_os_user;
      DROP INDEX entries_by_app_user;
      DROP INDEX entries_by_tool;
      DROP INDEX entries_by_outcome;
      DROP INDEX entries_by_decision;
      CREATE TABLE viewer_rows (
        seq        INTEGER PRIMARY KEY,
        time       TEXT,
        os_user    TEXT,
        app_user   TEXT,
        tool       TEXT,
        outcome    TEXT,
        decision   TEXT,
        event_type TEXT
      ) STRICT;
      INSERT INTO viewer_rows (seq, time, os_user, app_user, tool, outcome, decision, event_type)
        SELECT seq, time, os_user, app_user, tool, outcome, decision, event_type FROM entries ORDER BY seq;
      CREATE INDEX viewer_by_time ON viewer_rows (time);
      CREATE INDEX viewer_by_os_user ON viewer_rows (os_user, seq);
      CREATE INDEX viewer_by_app_user ON viewer_rows (app_user, seq);
      CREATE INDEX viewer_by_tool ON viewer_rows (tool, seq) WHERE tool IS NOT NULL;
      CREATE INDEX viewer_by_outcome ON viewer_rows (outcome, seq) WHERE outcome IS NOT NULL;
      CREATE INDEX viewer_by_decision ON viewer_rows (decision, seq) WHERE decision IS NOT NULL;
      CREATE INDEX viewer_by_event_type ON viewer_rows (event_type, seq);
    `,
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the database up to `target` (default: latest), each migration in its own transaction
 * together with its user_version bump, so a crash leaves the database at a numbered version.
 * A database newer than this build is refused: an older app must not write rows a newer schema
 * does not expect.
 */
export function migrate(db: Database.Database, target: number = LATEST_SCHEMA_VERSION): number {
  const current = schemaVersion(db);
  if (current > LATEST_SCHEMA_VERSION) {
    throw new Error(
      `Audit database schema version ${current} is newer than this Baram build knows (${LATEST_SCHEMA_VERSION}); update Baram instead of opening it with an older version.`,
    );
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current || migration.version > target) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
  return schemaVersion(db);
}
