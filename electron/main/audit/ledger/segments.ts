import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { ensureSchema, schemaVersion, SCHEMA_VERSION, unknownSchemaMessage } from './schema';

/**
 * Monthly segment files of one ledger folder: `ledger-YYYY-MM.sqlite3`. seq runs on across
 * segments, and the first row of a segment links (prev_hash) to the last row of the one before,
 * so the files form one chain; retention can then drop whole old months (retention.ts).
 */
const SEGMENT_NAME = /^ledger-(\d{4}-\d{2})\.sqlite3$/;

export interface SegmentRef {
  readonly month: string;
  readonly file: string;
}

export function segmentFile(dir: string, month: string): string {
  return join(dir, `ledger-${month}.sqlite3`);
}

/** The segments present in `dir`, oldest first. */
export function listSegments(dir: string): SegmentRef[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => SEGMENT_NAME.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ month: m[1] ?? '', file: join(dir, m[0]) }))
    .sort((a, b) => a.month.localeCompare(b.month));
}

export interface WriterOptions {
  /** Largest database size in pages; beyond it appends fail as on a full disk (tests). */
  readonly maxPages?: number;
}

/**
 * A writing connection to one segment, with the durability the ledger promises: WAL with
 * synchronous=FULL, read back and refused otherwise — better-sqlite3's build makes WAL default to
 * NORMAL, which can lose the last committed rows (the intent rows the gate relies on) on power loss.
 * A segment that does not exist yet is first made complete under another name (createSegment).
 */
export function openSegmentWriter(file: string, options: WriterOptions = {}): Database.Database {
  if (!existsSync(file)) createSegment(file, options);
  return configureWriter(new Database(file), file, options);
}

function configureWriter(db: Database.Database, file: string, options: WriterOptions): Database.Database {
  try {
    // A busy writer elsewhere (the desktop app while `baram audit export` runs) is waited for, not failed.
    db.pragma('busy_timeout = 5000');
    if (options.maxPages !== undefined) db.pragma(`max_page_count = ${Math.max(1, Math.trunc(options.maxPages))}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    const journal = db.pragma('journal_mode', { simple: true }) as string;
    const sync = db.pragma('synchronous', { simple: true }) as number;
    // synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
    if (journal !== 'wal' || sync !== 2) {
      throw new Error(`Audit ledger ${file} did not accept journal_mode=WAL and synchronous=FULL (got ${journal}, ${sync}); refusing to log with weaker durability.`);
    }
    ensureSchema(db, file);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Makes a new segment complete (WAL mode, schema) under a temporary name, then links it into
 * place. Switching a new database to WAL goes through a rollback journal: a kill inside it left a
 * segment with a hot journal that no read-only connection (verify, export, the viewer) can open
 * (SQLITE_READONLY_ROLLBACK; the 1,000-round crash benchmark met it), and a kill before the first
 * migration left one without tables. Now a kill leaves at most a temporary file, which no reader
 * lists (listSegments). link() fails if another process made the segment first: theirs is kept.
 */
function createSegment(file: string, options: WriterOptions): void {
  sweepStaleTemporaries(dirname(file));
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  try {
    configureWriter(new Database(temp), file, options).close(); // closing checkpoints and removes the WAL
    const fd = openSync(temp, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    syncFolder(dirname(file)); // the new name survives a power loss with the rows written under it
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(temp + suffix, { force: true });
  }
}

/** A temporary segment (with its journal, WAL or shared-memory file) that createSegment makes. */
const TEMPORARY = /^ledger-\d{4}-\d{2}\.sqlite3\.\d+\.[0-9a-f]{12}\.new(-journal|-wal|-shm)?$/;
/** Making a segment takes milliseconds: a temporary this old was left by a kill. */
const STALE_MS = 10 * 60 * 1000;

/** Removes what killed createSegment calls left; a temporary another process is making now is younger. */
function sweepStaleTemporaries(dir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!TEMPORARY.test(name)) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    } catch {
      // Gone meanwhile, or not ours to remove: the sweep is housekeeping, never a reason to fail.
    }
  }
}

function syncFolder(dir: string): void {
  // Windows cannot open a folder this way (and NTFS journals the new name itself).
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Read-only connection for verify, export and the viewer: they never write and never trust the writer. */
export function openSegmentReader(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * A reader of a segment's rows, or undefined for a file without the schema (one a crash left
 * before createSegment existed, or an empty file: no rows). A schema this build does not know is
 * refused, as the writer refuses it.
 */
export function openSegmentRows(file: string): Database.Database | undefined {
  const db = openSegmentReader(file);
  const version = schemaVersion(db);
  if (version === SCHEMA_VERSION) return db;
  db.close();
  if (version === 0) return undefined;
  throw new Error(unknownSchemaMessage(file, version));
}
