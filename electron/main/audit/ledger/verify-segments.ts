import type Database from 'better-sqlite3';
import { schemaVersion } from './migrations';
import type { LedgerRow } from './rows';
import { listSegments, openSegmentReader } from './segments';
import { batchSql, StoredRowCursor } from './stored-row-cursor';
import { ChainVerifier, type ChainTally, type LedgerVerdict, type VerifyOptions } from './verify-rows';
import type { StoredRow } from './read-rows';

/**
 * Reading a ledger folder for verification, in parts that can be checked on their own
 * (verify-parallel.ts) or one after another (verify.ts). Rows are read as readLedgerRows reads them
 * — segments oldest first, seq order, a segment's first row marked as where segment links are
 * checked — but in batches where the file allows it (stored-row-cursor.ts).
 */

/** seqs per batch: ~450 KB of records on the benchmark; 512 and 2048 measured alike, 4096 slower. */
export const BATCH_SEQS = 512;
/** A tampered seq far beyond the others must not split a segment into millions of empty chunks. */
const MAX_CHUNKS_PER_SEGMENT = 64;
/** `to` of a segment's last part: whatever the segment holds from `from` on. */
export const NO_END = Number.POSITIVE_INFINITY;
/** Batches read seqs up to 15 digits (stored-row-cursor.ts); beyond, a (tampered) row is read singly. */
const BATCHED_SEQ_LIMIT = 999_999_999_999_999;

export interface SegmentPlan {
  readonly file: string;
  /** Segments before it that hold a table: > 0 means its first row links to the segment before. */
  readonly ordinal: number;
  /** Schema ≥ 3: the epoch and mac columns exist (older segments read as epoch 0, no MAC). */
  readonly sealColumns: boolean;
  /**
   * Read in batches: a STRICT table whose seq is the rowid, in UTF-8, which SQLite scans by rowid
   * range. Otherwise (a table someone re-created) the segment is read exactly as readLedgerRows
   * reads it, as one part.
   */
  readonly batched: boolean;
}

/** A seq range of one segment; `to` is NO_END for the segment's last part (rows appended meanwhile count). */
export interface ChunkPlan {
  readonly index: number;
  readonly segment: number;
  readonly from: number;
  readonly to: number;
}

export interface LedgerPlan {
  readonly segments: readonly SegmentPlan[];
  /** seqs per batch read (BATCH_SEQS; tests make it tiny so rows cross batch boundaries). */
  readonly batchSeqs: number;
  readonly chunks: readonly ChunkPlan[];
  /** seq span of the segments: the row count of an intact ledger. */
  readonly estimatedRows: number;
}

export function planLedger(dir: string, chunkRows: number, batchSeqs = BATCH_SEQS): LedgerPlan {
  const segments: SegmentPlan[] = [];
  const chunks: ChunkPlan[] = [];
  let estimatedRows = 0;
  for (const segment of listSegments(dir)) {
    const db = openSegmentReader(segment.file);
    try {
      // A file a crash left between creation and its first migration holds no table yet: no rows.
      if (schemaVersion(db) === 0) continue;
      const sealColumns = schemaVersion(db) >= 3;
      const batched = readsInBatches(db, sealColumns);
      const index = segments.length;
      segments.push({ file: segment.file, ordinal: index, sealColumns, batched });
      // Two queries: SQLite answers a lone min() or max() from the b-tree's edge, both at once by a scan.
      const first = db.prepare<[], number | null>('SELECT min(seq) FROM entries WHERE seq >= 1').pluck().get();
      const last = db.prepare<[], number | null>('SELECT max(seq) FROM entries').pluck().get();
      if (typeof first !== 'number' || typeof last !== 'number') {
        chunks.push({ index: chunks.length, segment: index, from: 1, to: NO_END });
        continue;
      }
      estimatedRows += last - first + 1;
      const parts = batched ? Math.min(MAX_CHUNKS_PER_SEGMENT, Math.ceil((last - first + 1) / chunkRows)) : 1;
      const width = Math.ceil((last - first + 1) / parts);
      for (let part = 0; part < parts; part++) {
        const from = part === 0 ? 1 : first + part * width;
        const to = part === parts - 1 ? NO_END : first + (part + 1) * width - 1;
        chunks.push({ index: chunks.length, segment: index, from, to });
      }
    } finally {
      db.close();
    }
  }
  return { segments, chunks, estimatedRows, batchSeqs };
}

/**
 * Batches need a guarantee the SQL language does not give: that group_concat sees rows in seq
 * order. SQLite does when it walks the rowid b-tree over a range, which the plan shows; a table
 * that is not the one migrations.ts creates is read row by row instead.
 */
function readsInBatches(db: Database.Database, sealColumns: boolean): boolean {
  const table = db.prepare<[], { strict: number; wr: number }>("SELECT strict, wr FROM pragma_table_list WHERE schema = 'main' AND name = 'entries'").get();
  if (!table || table.strict !== 1 || table.wr !== 0) return false;
  const keys = db.prepare<[], { name: string; type: string }>("SELECT name, type FROM pragma_table_info('entries') WHERE pk > 0").all();
  if (keys.length !== 1 || keys[0]?.name !== 'seq' || keys[0].type !== 'INTEGER') return false;
  if (db.pragma('encoding', { simple: true }) !== 'UTF-8') return false;
  const plan = db.prepare<[number, number], { detail: string }>(`EXPLAIN QUERY PLAN ${batchSql(sealColumns)}`).all(1, 2);
  return plan.length === 1 && /^SEARCH entries USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)$/.test(plan[0]?.detail ?? '');
}

/** One thread's connections, one per segment file, kept while it verifies. */
export class SegmentReaders {
  private readonly open = new Map<string, SegmentReader>();

  constructor(private readonly batchSeqs: number) {}

  reader(plan: SegmentPlan): SegmentReader {
    let reader = this.open.get(plan.file);
    if (!reader) {
      reader = new SegmentReader(plan, this.batchSeqs);
      this.open.set(plan.file, reader);
    }
    return reader;
  }

  close(): void {
    for (const reader of this.open.values()) reader.close();
    this.open.clear();
  }
}

export class SegmentReader {
  private readonly db: Database.Database;
  private readonly rowsInRange: Database.Statement<[number, number], StoredRow>;
  private readonly rowsFrom: Database.Statement<[number], StoredRow>;
  private readonly batch: Database.Statement<[number, number], [number, Buffer | null]> | undefined;
  private readonly lowest: Database.Statement<[number, number], number | null>;
  private readonly highest: Database.Statement<[number, number], number | null>;
  readonly cursor = new StoredRowCursor();

  constructor(
    readonly plan: SegmentPlan,
    private readonly batchSeqs: number,
  ) {
    this.db = openSegmentReader(plan.file);
    // As readLedgerRows: a segment without seal columns reads as epoch 0 with no MAC.
    const sealColumns = plan.sealColumns ? 'epoch, mac' : "0 AS epoch, '' AS mac";
    const select = `SELECT seq, body, prev_hash, entry_hash, ${sealColumns} FROM entries`;
    this.rowsInRange = this.db.prepare(`${select} WHERE seq >= ? AND seq <= ? ORDER BY seq`);
    // readLedgerRows' own query, for a range without end: whatever seq holds (a re-created table
    // may hold text there, which sorts after every number), it reads the same rows.
    this.rowsFrom = this.db.prepare(`${select} WHERE seq >= ? ORDER BY seq`);
    this.batch = plan.batched ? this.db.prepare<[number, number], [number, Buffer | null]>(batchSql(plan.sealColumns)).raw(true) : undefined;
    // Separate queries: a lone min() or max() is answered from the b-tree's edge, both at once by a scan.
    this.lowest = this.db.prepare<[number, number], number | null>('SELECT min(seq) FROM entries WHERE seq >= ? AND seq <= ?').pluck();
    this.highest = this.db.prepare<[number, number], number | null>('SELECT max(seq) FROM entries WHERE seq >= ? AND seq <= ?').pluck();
  }

  /** Runs `read` in one read transaction: one snapshot, as readLedgerRows' single SELECT has. */
  inSnapshot<T>(read: () => T): T {
    this.db.exec('BEGIN');
    try {
      return read();
    } finally {
      this.db.exec('COMMIT');
    }
  }

  /** Rows from..to in seq order, as readLedgerRows yields them. */
  *rows(from: number, to: number): Generator<LedgerRow> {
    const rows = to === NO_END ? this.rowsFrom.iterate(from) : this.rowsInRange.iterate(from, to);
    for (const row of rows) {
      yield { seq: row.seq, body: row.body, prevHash: row.prev_hash, entryHash: row.entry_hash, epoch: row.epoch, mac: row.mac };
    }
  }

  /**
   * Feeds the rows from..to to `verifier`; false once it failed. `startsSegment`: the first row fed
   * is the segment's first (links to the segment before).
   */
  feed(verifier: ChainVerifier, from: number, to: number, startsSegment: boolean): boolean {
    let startPending = startsSegment;
    const push = (row: LedgerRow): boolean => {
      const pushed = verifier.push(row, startPending);
      startPending = false;
      return pushed;
    };
    const batch = this.batch;
    if (!batch) {
      for (const row of this.rows(from, to)) if (!push(row)) return false;
      return true;
    }
    const last = Math.min(to, BATCHED_SEQ_LIMIT);
    const low = this.lowest.get(from, last);
    const high = this.highest.get(from, last);
    if (typeof low === 'number' && typeof high === 'number') {
      const cursor = this.cursor;
      for (let at = low; at <= high; ) {
        const end = Math.min(at + this.batchSeqs, high + 1);
        const [count, records] = readBatch(batch, at, end);
        let fedThrough = at - 1;
        const readable = count >= 0 && cursor.load(count, records);
        if (readable) {
          while (cursor.next()) {
            const accepted = !startPending && verifier.tryAccept(cursor);
            if (!accepted && !push(cursor.row())) return false;
            fedThrough = cursor.seq;
          }
        }
        // A record the cursor could not read, a batch that is not valid UTF-8 or that SQLite could
        // not build: the rest of the batch row by row, exactly as readLedgerRows reads it.
        if (!readable || !cursor.complete) {
          for (const row of this.rows(fedThrough + 1, end - 1)) if (!push(row)) return false;
        }
        // Skip a gap in seq at once (a tampered seq far ahead must not cost a query per 512 seqs).
        at = count === 0 ? (this.lowest.get(end, high) ?? high + 1) : end;
      }
    }
    if (to > BATCHED_SEQ_LIMIT) {
      for (const row of this.rows(Math.max(from, BATCHED_SEQ_LIMIT + 1), to)) if (!push(row)) return false;
    }
    return true;
  }

  close(): void {
    this.db.close();
  }
}

/**
 * One batch; [-1, null] when SQLite fails on it (a damaged page): then the rows are read one by one,
 * and the error surfaces at the row where readLedgerRows would raise it — unless an earlier row of
 * the batch fails its check first, as it would there.
 */
function readBatch(batch: Database.Statement<[number, number], [number, Buffer | null]>, from: number, to: number): [number, Buffer | null] {
  try {
    return batch.get(from, to) ?? [0, null];
  } catch {
    return [-1, null];
  }
}

/** Feeds one segment's rows to the verifier of the whole chain (the single-threaded path). */
export function feedSegment(readers: SegmentReaders, segment: SegmentPlan, verifier: ChainVerifier): boolean {
  const reader = readers.reader(segment);
  return reader.inSnapshot(() => reader.feed(verifier, 1, NO_END, segment.ordinal > 0));
}

/** What one part's check found: its first row (checked when stitched) and the tally of the rest. */
export type ChunkOutcome = { readonly index: number; readonly empty: true } | { readonly index: number; readonly empty: false; readonly first: LedgerRow; readonly tally: ChainTally };

/**
 * Checks one part on its own: its first row is taken as given and handed back for the verifier of
 * the whole chain to check against the part before (stitch), the rest is checked after it.
 */
export function checkChunk(readers: SegmentReaders, segment: SegmentPlan, chunk: ChunkPlan, options: VerifyOptions): ChunkOutcome {
  const reader = readers.reader(segment);
  return reader.inSnapshot((): ChunkOutcome => {
    const rows = reader.rows(chunk.from, chunk.to);
    const first = rows.next();
    if (first.done) return { index: chunk.index, empty: true };
    const verifier = ChainVerifier.continuingAfter(options, first.value);
    if (segment.batched) {
      rows.return(undefined);
      reader.feed(verifier, first.value.seq + 1, chunk.to, false);
    } else {
      for (const row of rows) if (!verifier.push(row)) break;
    }
    return { index: chunk.index, empty: false, first: first.value, tally: verifier.tally() };
  });
}

/**
 * The verdict from the parts' outcomes, in order: each part's first row is checked against the
 * end of the part before by the same rules (ChainVerifier.push), then its tally is taken over.
 * `outcome(i)` may check a part only now (one whose worker failed).
 */
export function stitch(plan: LedgerPlan, options: VerifyOptions, outcome: (index: number) => ChunkOutcome): LedgerVerdict {
  const verifier = new ChainVerifier(options);
  const started = new Set<number>();
  for (const chunk of plan.chunks) {
    const result = outcome(chunk.index);
    if (result.empty) continue;
    const segment = plan.segments[chunk.segment];
    const startsSegment = segment !== undefined && segment.ordinal > 0 && !started.has(chunk.segment);
    started.add(chunk.segment);
    if (!verifier.push(result.first, startsSegment) || !verifier.absorb(result.tally)) break;
  }
  return verifier.finish();
}
