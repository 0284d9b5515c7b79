import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { AuditEventInput, AuditSink } from '../../../common/audit-events';
import { buildEventBody, encodeEventBody, type LedgerIdentity } from './canonical-event';
import { computeEntryHash, GENESIS_PREV_HASH } from './chain';
import { migrate } from './migrations';

interface LastRow {
  readonly seq: number;
  readonly entry_hash: string;
}

/**
 * The hash-chained SQLite audit ledger (SPEC §3). One instance is the only writer of its file.
 * `append` resolves once the row is committed with synchronous=FULL (fsync'd WAL), and rejects on
 * any SQLite error, so the gate refuses to run a tool whose intent row is not on disk.
 */
export interface LedgerOptions {
  /** Time source (tests pin it). */
  readonly clock?: () => Date;
  /** Largest database size in pages; beyond it appends fail as on a full disk. */
  readonly maxPages?: number;
}

export class SqliteLedger implements AuditSink {
  private db: Database.Database | undefined;
  private readonly insertNext: (event: AuditEventInput) => number;

  private constructor(
    readonly file: string,
    db: Database.Database,
    identity: LedgerIdentity,
    clock: () => Date,
  ) {
    this.db = db;
    const lastRow = db.prepare<[], LastRow>('SELECT seq, entry_hash FROM entries ORDER BY seq DESC LIMIT 1');
    const insert = db.prepare<[number, string, string, string]>(
      'INSERT INTO entries (seq, body, prev_hash, entry_hash) VALUES (?, ?, ?, ?)',
    );
    // seq and prev_hash come from the last committed row inside the same transaction, so seq is
    // gap-free across restarts and a failed insert leaves nothing behind to skip over.
    const appendInTransaction = db.transaction((event: AuditEventInput): number => {
      const last = lastRow.get();
      const seq = (last?.seq ?? 0) + 1;
      const prevHash = last?.entry_hash ?? GENESIS_PREV_HASH;
      const body = encodeEventBody(buildEventBody(seq, clock(), identity, event));
      insert.run(seq, body, prevHash, computeEntryHash(seq, prevHash, body));
      return seq;
    });
    // IMMEDIATE takes the write lock before reading the last row: no other connection can slip a row in between.
    this.insertNext = (event) => appendInTransaction.immediate(event);
  }

  /**
   * Opens (creating if needed) the ledger at `file`, applies migrations, and insists on WAL with
   * synchronous=FULL: better-sqlite3's build defaults WAL to NORMAL, which can lose the last
   * committed rows on power loss — exactly the intent rows the gate relies on.
   */
  static open(file: string, identity: LedgerIdentity, options: LedgerOptions = {}): SqliteLedger {
    const clock = options.clock ?? (() => new Date());
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const db = new Database(file);
    try {
      // A hard size cap makes SQLite answer SQLITE_FULL exactly as a full disk does: appends
      // reject and the gate refuses to run tools. Tests use it to simulate a full disk as root.
      if (options.maxPages !== undefined) db.pragma(`max_page_count = ${Math.max(1, Math.trunc(options.maxPages))}`);
      const journalMode = db.pragma('journal_mode = WAL', { simple: true }) as string;
      db.pragma('synchronous = FULL');
      const readBackJournal = db.pragma('journal_mode', { simple: true }) as string;
      const readBackSync = db.pragma('synchronous', { simple: true }) as number;
      // synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
      if (journalMode !== 'wal' || readBackJournal !== 'wal' || readBackSync !== 2) {
        throw new Error(
          `Audit ledger ${file} did not accept journal_mode=WAL and synchronous=FULL (got ${readBackJournal}, ${readBackSync}); refusing to log with weaker durability.`,
        );
      }
      migrate(db);
      return new SqliteLedger(file, db, identity, clock);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** The durability settings of the writing connection as SQLite reports them (synchronous is per connection). */
  durability(): { readonly journalMode: string; readonly synchronous: number } {
    if (!this.db) throw new Error(`Audit ledger ${this.file} is closed.`);
    return {
      journalMode: this.db.pragma('journal_mode', { simple: true }) as string,
      synchronous: this.db.pragma('synchronous', { simple: true }) as number,
    };
  }

  async append(event: AuditEventInput): Promise<number> {
    if (!this.db) throw new Error(`Audit ledger ${this.file} is closed; nothing can be logged or run.`);
    try {
      return this.insertNext(event);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Audit ledger ${this.file} could not write the ${event.type} event: ${reason}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    this.db?.close();
    this.db = undefined;
  }
}
