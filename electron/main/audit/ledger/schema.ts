import type Database from 'better-sqlite3';

/**
 * The schema of a segment file, created whole; `PRAGMA user_version` holds SCHEMA_VERSION.
 *
 * Before the first release the schema grew through five numbered migrations (the append-only
 * table, the event_type column, the seal columns, the viewer's indexes on entries, then the
 * viewer_rows table that replaced those indexes). No database had been released, so they are
 * folded into this one statement (docs/2026-12-03-audit-on-node-crypto.md). From the first release
 * on a change comes as a numbered migration with a test that upgrades a database holding rows.
 *
 * - The triggers catch bugs in our own code, not attackers (anyone who can write the file can drop
 *   them); tampering is caught by the hash chain (verify-rows.ts).
 * - epoch and mac sit outside the hashed body on purpose: the MAC authenticates the chain, it is
 *   not part of it.
 * - The virtual columns are computed from the body on read (no stored byte depends on them); the
 *   viewer's filter indexes live in viewer_rows, filled in batches after the rows (viewer-rows.ts),
 *   because indexes on entries made every append write and fsync seven B-tree pages instead of
 *   one (docs/2026-12-02-audit-viewer-rows.md). Not hashed: `baram audit verify` compares
 *   viewer_rows with the bodies (query/index-check.ts).
 */
export const SCHEMA_VERSION = 1;

const SCHEMA_SQL = `
  CREATE TABLE entries (
    seq        INTEGER PRIMARY KEY CHECK (seq >= 1),
    body       TEXT    NOT NULL,
    prev_hash  TEXT    NOT NULL CHECK (length(prev_hash) = 64),
    entry_hash TEXT    NOT NULL CHECK (length(entry_hash) = 64),
    epoch      INTEGER NOT NULL DEFAULT 0 CHECK (epoch >= 0),
    mac        TEXT    NOT NULL DEFAULT '' CHECK (mac = '' OR length(mac) = 64),
    event_type TEXT GENERATED ALWAYS AS (json_extract(body, '$.type')) VIRTUAL,
    time       TEXT GENERATED ALWAYS AS (json_extract(body, '$.time')) VIRTUAL,
    os_user    TEXT GENERATED ALWAYS AS (json_extract(body, '$.osUser')) VIRTUAL,
    app_user   TEXT GENERATED ALWAYS AS (json_extract(body, '$.appUser')) VIRTUAL,
    tool       TEXT GENERATED ALWAYS AS (json_extract(body, '$.tool')) VIRTUAL,
    outcome    TEXT GENERATED ALWAYS AS (json_extract(body, '$.outcome')) VIRTUAL,
    decision   TEXT GENERATED ALWAYS AS (json_extract(body, '$.decision')) VIRTUAL
  ) STRICT;
  CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
    BEGIN SELECT RAISE(ABORT, 'audit ledger is append-only: UPDATE refused'); END;
  CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
    BEGIN SELECT RAISE(ABORT, 'audit ledger is append-only: DELETE refused'); END;
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
  CREATE INDEX viewer_by_time ON viewer_rows (time);
  CREATE INDEX viewer_by_os_user ON viewer_rows (os_user, seq);
  CREATE INDEX viewer_by_app_user ON viewer_rows (app_user, seq);
  CREATE INDEX viewer_by_tool ON viewer_rows (tool, seq) WHERE tool IS NOT NULL;
  CREATE INDEX viewer_by_outcome ON viewer_rows (outcome, seq) WHERE outcome IS NOT NULL;
  CREATE INDEX viewer_by_decision ON viewer_rows (decision, seq) WHERE decision IS NOT NULL;
  CREATE INDEX viewer_by_event_type ON viewer_rows (event_type, seq);
`;

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** What a reader or the writer says of a file whose schema this build does not know. */
export function unknownSchemaMessage(file: string, version: number): string {
  return `감사 기록 파일 ${file}의 형식(스키마 ${version})을 이 바람 버전은 모릅니다(${SCHEMA_VERSION}). 바람을 최신 버전으로 업데이트하세요. / Audit database ${file} has schema version ${version}, which this Baram build does not know (it knows ${SCHEMA_VERSION}); update Baram instead of opening it with this version.`;
}

/**
 * Creates the schema in a new (empty) database, in one transaction with its user_version, so a
 * crash leaves either nothing or the whole schema. A database at SCHEMA_VERSION is left as it is;
 * any other version is refused: an older or newer app must not write rows the file does not expect.
 */
export function ensureSchema(db: Database.Database, file: string): void {
  const current = schemaVersion(db);
  if (current === SCHEMA_VERSION) return;
  if (current !== 0) throw new Error(unknownSchemaMessage(file, current));
  db.transaction(() => {
    db.exec(SCHEMA_SQL);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
