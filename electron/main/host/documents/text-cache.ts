import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';

/**
 * The text search.text extracted from office documents (issue 18 item 5), kept in Baram's data
 * folder so that a second search reads no document again. A host capability: the tool hands the
 * host an extractor (ReadTreeOptions.documents) and gets texts back; it never learns where they
 * are kept, and the folder is outside every root and protected (no file tool reaches it).
 *
 * Keyed by the identity of the descriptor the document was read from: device and inode (a file
 * swapped in under the same name is another file), size, mtime and ctime (an edit; ctime also
 * catches an mtime put back with touch, which no user can set). One row per (extractor, device,
 * inode): a changed file's new text replaces the old one instead of piling up.
 *
 * A cache, not a record: every failure (an unwritable disk, a locked or damaged file) is counted
 * and otherwise ignored, and the search goes on by extracting. docs/2026-12-03-document-text-cache.md.
 */

export interface DocumentKey {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

export function sameKey(a: DocumentKey, b: DocumentKey): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** What the host's tree reader needs of a cache; counters for the tests and the benchmark. */
export interface DocumentTextStore {
  get(extractor: string, key: DocumentKey): string | null;
  put(extractor: string, key: DocumentKey, path: string, text: string): void;
  /** The host calls this each time it hands a document to an extractor. */
  noteExtraction(): void;
  readonly stats: DocumentCacheStats;
}

export interface DocumentCacheStats {
  hits: number;
  misses: number;
  /** Documents handed to an extractor (cache misses that were read). */
  extractions: number;
  stored: number;
  /** Failed opens, reads or writes of the cache: the search went on without it. */
  failures: number;
}

/** No cache (file access made without a data folder, `baram policy check`): every document is extracted. */
export function uncachedStore(): DocumentTextStore {
  const stats = freshStats();
  return {
    stats,
    get: () => {
      stats.misses++;
      return null;
    },
    put: () => undefined,
    noteExtraction: () => void stats.extractions++,
  };
}

function freshStats(): DocumentCacheStats {
  return { hits: 0, misses: 0, extractions: 0, stored: 0, failures: 0 };
}

/** Bump when the rows' meaning changes: an older cache is dropped, not misread. */
const SCHEMA = 1;
/**
 * Compressed bytes kept for all documents; above it the least recently used go. 1,000 office
 * documents of a few pages each take ~10 MB; this leaves room for a shared drive's worth.
 */
const MAX_TOTAL_BYTES = 512 * 1024 * 1024;
/** One document's compressed text; the extractor caps text far below (search.text: 8 M characters). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** Text one entry may inflate to: a damaged (or planted) row cannot make the host inflate without end. */
const MAX_TEXT_BYTES = 256 * 1024 * 1024;
/** A use is written back at most this often per entry, so a search that hits 1,000 entries writes little. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;
/** Another Baram process (CLI beside the desktop app) writing at the same moment: wait this long, then give up on caching. */
const BUSY_TIMEOUT_MS = 250;

export const DOCUMENT_CACHE_FILE = 'document-text.sqlite';

export interface DocumentTextCacheOptions {
  /** The folder of the cache file, in the data folder. Created (0700) on first use. */
  readonly dir: string;
  readonly maxTotalBytes?: number;
}

/**
 * The SQLite cache (better-sqlite3, as the audit ledger): opened on first use, so a session that
 * never searches a document pays nothing. Synchronous on purpose: a lookup is ~10 µs, cheaper than
 * the hop to a thread pool, and the tree reader calls it between its own synchronous reads.
 */
export class DocumentTextCache implements DocumentTextStore {
  readonly stats: DocumentCacheStats = freshStats();
  private db: Database.Database | null = null;
  private broken = false;
  private readonly maxTotalBytes: number;
  private statements: {
    get: Database.Statement;
    touch: Database.Statement;
    put: Database.Statement;
    total: Database.Statement;
    oldest: Database.Statement;
    drop: Database.Statement;
  } | null = null;

  constructor(private readonly options: DocumentTextCacheOptions) {
    this.maxTotalBytes = options.maxTotalBytes ?? MAX_TOTAL_BYTES;
  }

  get file(): string {
    return join(this.options.dir, DOCUMENT_CACHE_FILE);
  }

  get(extractor: string, key: DocumentKey): string | null {
    const s = this.open();
    if (s === null) {
      this.stats.misses++;
      return null;
    }
    try {
      const row = s.get.get(extractor, key.dev, key.ino) as { size: number; mtime: number; ctime: number; body: Buffer; used: number } | undefined;
      if (row === undefined || row.size !== key.size || row.mtime !== key.mtimeMs || row.ctime !== key.ctimeMs) {
        this.stats.misses++;
        return null;
      }
      const text = inflateRawSync(row.body, { maxOutputLength: MAX_TEXT_BYTES }).toString('utf8');
      const now = Date.now();
      if (now - row.used > TOUCH_EVERY_MS) s.touch.run(now, extractor, key.dev, key.ino);
      this.stats.hits++;
      return text;
    } catch {
      this.stats.failures++;
      this.stats.misses++;
      return null;
    }
  }

  put(extractor: string, key: DocumentKey, path: string, text: string): void {
    const s = this.open();
    if (s === null) return;
    try {
      const body = deflateRawSync(Buffer.from(text, 'utf8'));
      if (body.length > MAX_ENTRY_BYTES) return;
      s.put.run(extractor, key.dev, key.ino, key.size, key.mtimeMs, key.ctimeMs, path, body, body.length, Date.now());
      this.stats.stored++;
      this.evict(s);
    } catch {
      this.stats.failures++;
    }
  }

  noteExtraction(): void {
    this.stats.extractions++;
  }

  close(): void {
    try {
      this.db?.close();
    } catch {
      // closing a cache cannot fail anything that matters
    }
    this.db = null;
    this.statements = null;
  }

  /** Least recently used entries go until the cache is under its size again (with room to spare). */
  private evict(s: NonNullable<DocumentTextCache['statements']>): void {
    let total = (s.total.get() as { total: number | null }).total ?? 0;
    if (total <= this.maxTotalBytes) return;
    const goal = this.maxTotalBytes * 0.8;
    while (total > goal) {
      const rows = s.oldest.all() as { extractor: string; dev: number; ino: number; bytes: number }[];
      if (rows.length === 0) return;
      for (const row of rows) {
        if (total <= goal) break;
        s.drop.run(row.extractor, row.dev, row.ino);
        total -= row.bytes;
      }
    }
  }

  private open(): DocumentTextCache['statements'] {
    if (this.statements !== null || this.broken) return this.statements;
    try {
      this.statements = this.connect();
    } catch {
      // A damaged file (not a database, a half-written header): it holds nothing worth keeping.
      this.close();
      try {
        rmSync(this.file, { force: true });
        rmSync(`${this.file}-wal`, { force: true });
        rmSync(`${this.file}-shm`, { force: true });
        this.statements = this.connect();
      } catch {
        this.close();
        this.broken = true;
        this.stats.failures++;
      }
    }
    return this.statements;
  }

  private connect(): NonNullable<DocumentTextCache['statements']> {
    mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
    const db = new Database(this.file, { timeout: BUSY_TIMEOUT_MS });
    this.db = db;
    // Texts of the user's documents: readable by the user only.
    chmodSync(this.file, 0o600);
    db.pragma('journal_mode = WAL');
    // Losing the last few entries in a power cut costs one more parse each: not worth an fsync per document.
    db.pragma('synchronous = NORMAL');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== SCHEMA) {
      db.exec('DROP TABLE IF EXISTS texts');
      db.exec(`CREATE TABLE texts (
        extractor TEXT NOT NULL,
        dev INTEGER NOT NULL,
        ino INTEGER NOT NULL,
        size INTEGER NOT NULL,
        mtime REAL NOT NULL,
        ctime REAL NOT NULL,
        path TEXT NOT NULL,
        body BLOB NOT NULL,
        bytes INTEGER NOT NULL,
        used INTEGER NOT NULL,
        PRIMARY KEY (extractor, dev, ino)
      ) WITHOUT ROWID`);
      db.exec('CREATE INDEX texts_used ON texts (used)');
      db.pragma(`user_version = ${SCHEMA}`);
    }
    return {
      get: db.prepare('SELECT size, mtime, ctime, body, used FROM texts WHERE extractor = ? AND dev = ? AND ino = ?'),
      touch: db.prepare('UPDATE texts SET used = ? WHERE extractor = ? AND dev = ? AND ino = ?'),
      put: db.prepare('INSERT OR REPLACE INTO texts (extractor, dev, ino, size, mtime, ctime, path, body, bytes, used) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      total: db.prepare('SELECT SUM(bytes) AS total FROM texts'),
      oldest: db.prepare('SELECT extractor, dev, ino, bytes FROM texts ORDER BY used LIMIT 256'),
      drop: db.prepare('DELETE FROM texts WHERE extractor = ? AND dev = ? AND ino = ?'),
    };
  }
}
