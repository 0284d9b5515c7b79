import Database from 'better-sqlite3';
import type { AuditEventInput } from '../../electron/common/audit-events';
import { buildEventBody, encodeEventBody, type LedgerIdentity, type StoredEventBody } from '../../electron/main/audit/ledger/canonical-event';
import { computeEntryHash, GENESIS_PREV_HASH } from '../../electron/main/audit/ledger/chain';
import { ensureSchema } from '../../electron/main/audit/ledger/schema';
import { FILL_VIEWER_ROWS_SQL, VIEWER_BATCH_ROWS, viewerFillDue } from '../../electron/main/audit/ledger/viewer-rows';

/** One row to write: who, when, what. seq is assigned by the writer. */
export interface SegmentEvent {
  readonly identity: LedgerIdentity;
  readonly time: Date;
  readonly event: AuditEventInput;
}

export interface SegmentWriteOptions {
  /** seq of the first row (segments continue the global sequence). */
  readonly firstSeq: number;
  /** entry_hash of the row before firstSeq (the previous segment's last row). */
  readonly prevHash?: string;
  /** Bulk generation: no fsync, no journal (benchmark corpora only, never a real ledger). */
  readonly fast?: boolean;
  /** viewer_rows is filled as the ledger fills it, every this many seqs (default VIEWER_BATCH_ROWS). */
  readonly viewerBatchRows?: number;
}

export interface SegmentWritten {
  readonly lastSeq: number;
  readonly lastHash: string;
  readonly bodies: readonly StoredEventBody[];
}

/**
 * Writes a ledger segment the way the ledger does (canonical body, chained entry_hash, viewer_rows
 * filled at the same seqs) but with plain INSERTs in one transaction, so tests and benchmarks can build large files
 * quickly. The rows verify with verifyLedger when firstSeq is 1.
 */
export function writeSegment(file: string, events: Iterable<SegmentEvent>, options: SegmentWriteOptions): SegmentWritten {
  const db = new Database(file);
  try {
    if (options.fast) {
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
    } else {
      db.pragma('journal_mode = WAL');
    }
    ensureSchema(db, file);
    const fillViewer = db.prepare(FILL_VIEWER_ROWS_SQL);
    const batchRows = options.viewerBatchRows ?? VIEWER_BATCH_ROWS;
    const insert = db.prepare<[number, string, string, string]>('INSERT INTO entries (seq, body, prev_hash, entry_hash) VALUES (?, ?, ?, ?)');
    let seq = options.firstSeq - 1;
    let prevHash = options.prevHash ?? GENESIS_PREV_HASH;
    const bodies: StoredEventBody[] = [];
    const keepBodies = !options.fast;
    db.transaction(() => {
      for (const { identity, time, event } of events) {
        seq += 1;
        const stored = buildEventBody(seq, time, identity, event);
        const body = encodeEventBody(stored);
        const hash = computeEntryHash(seq, prevHash, body);
        insert.run(seq, body, prevHash, hash);
        if (viewerFillDue(seq - 1, seq, batchRows)) fillViewer.run();
        if (keepBodies) bodies.push(stored);
        prevHash = hash;
      }
    })();
    return { lastSeq: seq, lastHash: prevHash, bodies };
  } finally {
    db.close();
  }
}
