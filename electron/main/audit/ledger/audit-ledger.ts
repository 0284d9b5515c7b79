import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { AuditEventInput, AuditSink } from '../../../common/audit-events';
import { redactSecretsDeep } from '../redact';
import { buildEventBody, encodeEventBody, type LedgerIdentity } from './canonical-event';
import { computeEntryHash, GENESIS_PREV_HASH } from './chain';
import { epochOf, monthEndMs, monthOf, monthStartMs } from './epochs';
import { checkpointFloor } from '../checkpoint/checkpoint-files';
import { deriveKey, formatVerificationKey, rowMac, SealKeyFile, type SealKey } from './seal-key';
import { listSegments, openSegmentRows, openSegmentWriter, segmentFile, type WriterOptions } from './segments';
import { readSealEvent, SEAL_EVENT, type LedgerHead } from './rows';
import { FILL_VIEWER_ROWS_SQL, VIEWER_BATCH_ROWS, viewerFillDue } from './viewer-rows';

export interface LedgerOptions extends WriterOptions {
  /** Time source (tests pin it). */
  readonly clock?: () => Date;
  /** Rows per viewer_rows fill (default VIEWER_BATCH_ROWS; tests use small batches). */
  readonly viewerBatchRows?: number;
}

/** The sealing key file of a ledger folder. */
export function sealKeyPath(dir: string): string {
  return join(dir, 'seal.key');
}

/**
 * Written (once) when the ledger finds it ends below a checkpoint of its own folder: rows were cut
 * from the end, or the segments were put back from an older copy. The record of the gap that the
 * ledger itself cannot hold (writing a row would reuse a cut seq); appends fail while the gap lasts.
 */
export function gapMarkerPath(dir: string): string {
  return join(dir, 'LEDGER-GAP.txt');
}

interface TailRow {
  readonly seq: number;
  readonly entry_hash: string;
  readonly epoch: number;
  /** Only when the row may be a seal row (TAIL_SQL); null otherwise. */
  readonly body: string | null;
}

/**
 * The newest row of a segment, read at the start of an append unless this connection committed it
 * and no other connection has committed since (SegmentWriter.committedTail). Its body matters only when the
 * row is a seal (catchUpKey), so it comes back only when it contains `"type":"audit.seal"`: the
 * very text test readSealEvent (rows.ts) starts with and returns undefined without. Every body
 * readSealEvent could accept still arrives, and the ~700 bytes of an ordinary row are no longer
 * decoded into a JavaScript string and searched on every append. instr() rather than the v2
 * `event_type` column: json_extract is a different parser and could disagree with JSON.parse on a
 * malformed row; this test cannot.
 */
const SEAL_BODY_MARKER = `"type":"${SEAL_EVENT}"`;
if (SEAL_BODY_MARKER.includes("'")) throw new Error('SEAL_EVENT must not contain a quote: it is part of TAIL_SQL.');
const TAIL_SQL = `SELECT seq, entry_hash, epoch, CASE WHEN instr(body, '${SEAL_BODY_MARKER}') > 0 THEN body END AS body FROM entries ORDER BY seq DESC LIMIT 1`;

/** Where the next row goes: the row before it, as TAIL_SQL would read it back. */
interface ChainCursor {
  seq: number;
  prevHash: string;
  epoch: number;
  /** Its body when it is a seal row (TailRow's rule), else null. */
  sealBody: string | null;
}

interface SegmentWriter {
  readonly month: string;
  /** The month's first instant and the first instant after it (UTC ms). */
  readonly startMs: number;
  readonly endMs: number;
  readonly db: Database.Database;
  readonly last: Database.Statement<[], TailRow>;
  readonly insert: Database.Statement<[number, string, string, string, number, string]>;
  readonly fillViewer: Database.Statement<[]>;
  /** PRAGMA data_version: changes exactly when another connection has committed since we last looked. */
  readonly dataVersion: Database.Statement<[]>;
  /**
   * The newest row as this connection committed it, and the data_version it was valid at: the next
   * append uses it instead of reading the row back when no other connection has written since.
   */
  committedTail: { readonly row: TailRow; readonly version: number } | undefined;
  readonly appendBatch: Database.Transaction<(events: readonly AuditEventInput[]) => number> & {
    immediate(events: readonly AuditEventInput[]): number;
  };
}

/**
 * The hash-chained, forward-sealed audit ledger (SPEC §3) of one folder of monthly segment files.
 *
 * - `append` resolves once the row is committed with synchronous=FULL and rejects on any error, so
 *   the gate refuses to run a tool whose intent row is not on disk.
 * - Every row carries a MAC under the current day's sealing key. When the day changes, the next
 *   write first adds an `audit.seal` row MAC'd with the old key that names the next epoch, then the
 *   key evolves and the old one is overwritten. A later reader of the machine therefore cannot
 *   re-forge any earlier day, nor truncate and resume in a later epoch (journald CVE-2023-31438):
 *   every epoch change must sit on a seal row only the old key could produce.
 * - Failed appends are counted and recorded by the next append that succeeds (`audit.write-failed`).
 */
export class AuditLedger implements AuditSink {
  private writer: SegmentWriter | undefined;
  private closed = false;
  private initialKey: string | undefined;
  private failures: { count: number; firstAt: string; lastError: string } | undefined;
  /** Set inside an append transaction that wrote a seal row: the epoch the key file must move to. */
  private pendingEvolution: number | undefined;
  /** Set inside an append transaction: the tail it leaves, kept once the transaction has committed. */
  private pendingTail: { readonly row: TailRow; readonly version: number } | undefined;

  private constructor(
    readonly dir: string,
    private readonly identity: LedgerIdentity,
    private readonly keyFile: SealKeyFile,
    private readonly options: LedgerOptions,
    private readonly clock: () => Date,
  ) {}

  /**
   * Opens the ledger folder, creating it and its sealing key on first use. A folder with segments
   * but no key is refused: silently starting a new key would let someone who deleted the key file
   * re-seal history.
   */
  static open(dir: string, identity: LedgerIdentity, options: LedgerOptions = {}): AuditLedger {
    const clock = options.clock ?? (() => new Date());
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const keyPath = sealKeyPath(dir);
    let keyFile: SealKeyFile;
    let initialKey: string | undefined;
    if (existsSync(keyPath)) {
      keyFile = SealKeyFile.read(keyPath);
    } else {
      if (listSegments(dir).length > 0) {
        throw new Error(
          `감사 기록의 봉인 키(${keyPath})가 없습니다. 데이터 폴더 백업에서 복원하거나 보안 담당자에게 문의하세요. / The audit sealing key ${keyPath} is missing while records exist; restore it from a backup of the data folder or ask security staff — Baram will not start a new key over existing records.`,
        );
      }
      const created = SealKeyFile.create(keyPath, epochOf(clock()));
      keyFile = created.file;
      initialKey = formatVerificationKey(created.initial);
      created.initial.key.fill(0);
    }
    const ledger = new AuditLedger(dir, identity, keyFile, options, clock);
    ledger.initialKey = initialKey;
    try {
      ledger.writerFor(monthOf(clock()));
      ledger.catchUpKey(ledger.head());
    } catch (error) {
      ledger.closeWriter();
      keyFile.erase();
      throw error;
    }
    return ledger;
  }

  /**
   * The verification key, exactly once, when this open created the ledger. Security staff must keep
   * it off the machine: it is the only way to check the seals later.
   */
  takeInitialKey(): string | undefined {
    const key = this.initialKey;
    this.initialKey = undefined;
    return key;
  }

  async append(event: AuditEventInput): Promise<number> {
    if (this.closed) throw new Error(`Audit ledger ${this.dir} is closed; nothing can be logged or run.`);
    try {
      const events = this.failures ? [this.scrub(this.failureEvent(this.failures)), this.scrub(event)] : [this.scrub(event)];
      const seq = this.commitBatch(events);
      this.failures = undefined;
      return seq;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.failures = {
        count: (this.failures?.count ?? 0) + 1,
        firstAt: this.failures?.firstAt ?? this.clock().toISOString(),
        lastError: reason,
      };
      throw new Error(`Audit ledger ${this.dir} could not write the ${event.type} event: ${reason}`, { cause: error });
    }
  }

  /** The last committed row across all segments (any process), or seq 0 for an empty ledger. */
  head(): LedgerHead {
    const month = this.currentMonth(this.clock());
    const own = this.writerFor(month).last.get();
    const row = own ?? lastRowBefore(this.dir, month);
    if (!row) return { seq: 0, entryHash: GENESIS_PREV_HASH, epoch: this.keyFile.key.epoch };
    return { seq: row.seq, entryHash: row.entry_hash, epoch: row.epoch };
  }

  /**
   * Writes the seal row now if the day has changed since the last row, so the key in use matches
   * today (checkpoints sign with it, and an idle machine still moves its key forward daily).
   * Returns the sealing key's epoch afterwards.
   */
  sealIfDue(): number {
    if (this.closed) throw new Error(`Audit ledger ${this.dir} is closed.`);
    if (this.keyFile.reload().epoch >= epochOf(this.clock())) return this.keyFile.key.epoch;
    this.commitBatch([]);
    return this.keyFile.key.epoch;
  }

  /** Runs `use` with the current sealing key (checkpoint signatures); the key never leaves this call. */
  withCurrentKey<T>(use: (key: SealKey) => T): T {
    return use(this.keyFile.key);
  }

  /** Appended as the first row after a stretch of failed writes, so the gap itself is on record. */
  private failureEvent(failures: { count: number; firstAt: string; lastError: string }): AuditEventInput {
    return { type: 'audit.write-failed', outcome: 'error', data: { failedAppends: failures.count, firstFailedAt: failures.firstAt, lastError: failures.lastError } };
  }

  /**
   * The one choke point before disk: whatever a caller put in targets or data (command lines, URLs,
   * file contents, tool details), secrets leave here as `[redacted]` (SPEC §3, redact.ts).
   */
  private scrub(event: AuditEventInput): AuditEventInput {
    return {
      ...event,
      ...(event.target ? { target: redactSecretsDeep(event.target) as string[] } : {}),
      ...(event.data ? { data: redactSecretsDeep(event.data) as Record<string, unknown> } : {}),
    };
  }

  /** Never earlier than the newest segment: a clock set back must not reopen a closed month. */
  private currentMonth(now: Date): string {
    const writer = this.writer;
    const ms = now.getTime();
    // The usual case, without formatting a date: still inside the month being written.
    if (writer && ms >= writer.startMs && ms < writer.endMs) return writer.month;
    const month = monthOf(now);
    const newest = writer?.month ?? listSegments(this.dir).at(-1)?.month;
    return newest !== undefined && newest > month ? newest : month;
  }

  private writerFor(month: string): SegmentWriter {
    if (this.writer?.month === month) return this.writer;
    const db = openSegmentWriter(segmentFile(this.dir, month), this.options);
    this.closeWriter();
    const writer: SegmentWriter = {
      month,
      startMs: monthStartMs(month),
      endMs: monthEndMs(month),
      db,
      last: db.prepare<[], TailRow>(TAIL_SQL),
      insert: db.prepare<[number, string, string, string, number, string]>(
        'INSERT INTO entries (seq, body, prev_hash, entry_hash, epoch, mac) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      fillViewer: db.prepare<[]>(FILL_VIEWER_ROWS_SQL),
      dataVersion: db.prepare<[]>('PRAGMA data_version').pluck(),
      committedTail: undefined,
      appendBatch: db.transaction((events: readonly AuditEventInput[]) => this.appendRows(writer, events)) as SegmentWriter['appendBatch'],
    };
    this.writer = writer;
    return writer;
  }

  /**
   * Inside one IMMEDIATE transaction (the write lock is taken before the tail is read, so no other
   * connection can slip a row in between): seal the previous epoch if the day changed, then write
   * the events. The key file moves forward only after the seal row is committed; a crash in between
   * is repaired by `catchUpKey` on the next write.
   */
  private appendRows(writer: SegmentWriter, events: readonly AuditEventInput[]): number {
    // The write lock is held from here: rows of several processes carry times in seq order, and
    // nobody can commit between this data_version read and our own commit.
    const now = this.clock();
    const version = writer.dataVersion.get() as number;
    const kept = writer.committedTail;
    const cached = kept !== undefined && kept.version === version;
    const tail = cached ? kept.row : (writer.last.get() ?? lastRowBefore(this.dir, writer.month));
    // A tail this connection did not just write is checked against the folder's checkpoints: the
    // ledger never writes over rows cut from its end (the next row would reuse their seqs).
    if (!cached) this.refuseGap(tail?.seq ?? 0);
    const cursor: ChainCursor = {
      seq: tail?.seq ?? 0,
      prevHash: tail?.entry_hash ?? GENESIS_PREV_HASH,
      epoch: tail?.epoch ?? 0,
      sealBody: tail?.body ?? null,
    };
    let key = this.catchUpKey(tail ? tailHead(tail) : undefined);

    const today = epochOf(now);
    let evolvedTo: SealKey | undefined;
    if (today > key.epoch) {
      this.writeRow(writer, cursor, now, { type: SEAL_EVENT, data: { sealedEpoch: key.epoch, nextEpoch: today, sealedThroughSeq: cursor.seq } }, key);
      evolvedTo = deriveKey(key, today);
      key = evolvedTo;
    }
    for (const event of events) this.writeRow(writer, cursor, now, event, key);
    // In the same transaction, so viewer_rows and entries commit together (viewer-rows.ts).
    if (viewerFillDue(tail?.seq ?? 0, cursor.seq, this.options.viewerBatchRows ?? VIEWER_BATCH_ROWS)) writer.fillViewer.run();
    if (cursor.seq > 0) {
      this.pendingTail = { row: { seq: cursor.seq, entry_hash: cursor.prevHash, epoch: cursor.epoch, body: cursor.sealBody }, version };
    }
    if (evolvedTo) {
      // The file follows once the surrounding transaction has committed (commitBatch).
      this.pendingEvolution = evolvedTo.epoch;
      evolvedTo.key.fill(0);
    }
    return cursor.seq;
  }

  /** Writes one row after `cursor` and moves the cursor onto it. */
  private writeRow(writer: SegmentWriter, cursor: ChainCursor, now: Date, event: AuditEventInput, sealKey: SealKey): void {
    const seq = cursor.seq + 1;
    const body = encodeEventBody(buildEventBody(seq, now, this.identity, event));
    const entryHash = computeEntryHash(seq, cursor.prevHash, body);
    writer.insert.run(seq, body, cursor.prevHash, entryHash, sealKey.epoch, rowMac(sealKey, entryHash));
    cursor.seq = seq;
    cursor.prevHash = entryHash;
    cursor.epoch = sealKey.epoch;
    cursor.sealBody = body.includes(SEAL_BODY_MARKER) ? body : null;
  }

  /** Runs one append transaction, then moves the key file forward if it wrote a seal row. */
  private commitBatch(events: readonly AuditEventInput[]): number {
    this.pendingEvolution = undefined;
    this.pendingTail = undefined;
    const writer = this.writerFor(this.currentMonth(this.clock()));
    let seq: number;
    try {
      seq = writer.appendBatch.immediate(events);
    } catch (error) {
      this.pendingEvolution = undefined;
      // Rolled back: what the database holds is read again next time.
      writer.committedTail = undefined;
      throw error;
    }
    writer.committedTail = this.pendingTail ?? writer.committedTail;
    this.pendingTail = undefined;
    const target = this.pendingEvolution;
    this.pendingEvolution = undefined;
    if (target !== undefined) this.evolveKeyFile(target);
    return seq;
  }

  /**
   * Throws when the ledger ends at `lastSeq` below the highest seq a checkpoint in its folder
   * covers, after recording the gap in gapMarkerPath (first time only). The append fails, so the
   * gate runs no tool, as for an unwritable ledger, until the rows are restored (from a backup).
   */
  private refuseGap(lastSeq: number): void {
    const floor = checkpointFloor(this.dir);
    if (lastSeq >= floor.seq) return;
    const marker = gapMarkerPath(this.dir);
    const found =
      `감사 기록이 seq ${lastSeq}에서 끝나지만 체크포인트 ${floor.file ?? ''}는 ${floor.seq}건을 기록합니다: seq ${lastSeq + 1}–${floor.seq}가 잘렸습니다. ` +
      `바람은 그 위에 기록하지 않으며(잘린 순번을 다시 쓰게 됨) 도구도 실행하지 않습니다. 백업에서 감사 폴더를 복원하거나 보안 담당자에게 문의하세요. / ` +
      `The audit ledger ends at seq ${lastSeq}, but the checkpoint ${floor.file ?? ''} records ${floor.seq} rows: rows ${lastSeq + 1}–${floor.seq} were cut from the end. ` +
      `Baram will not write over the gap (the next rows would reuse their seq numbers), so no tool runs. Restore the audit folder from a backup or ask security staff (${marker}).`;
    if (!existsSync(marker)) {
      try {
        writeFileSync(marker, `${this.clock().toISOString()}\n${found}\n`, { flag: 'wx', mode: 0o600 });
      } catch {
        // Another process recorded it first, or the folder is unwritable: the append fails either way.
      }
    }
    throw new Error(found);
  }

  /**
   * Brings the key file up to what the ledger already records: another process may have evolved
   * it, or a crash may have left it one step behind a committed seal row.
   */
  private catchUpKey(tail: (LedgerHead & { body?: string }) | undefined): SealKey {
    let key = this.keyFile.key;
    if (!tail || tail.seq === 0) return key;
    if (tail.epoch > key.epoch) key = this.keyFile.reload();
    const seal = tail.body !== undefined ? readSealEvent(tail.body) : undefined;
    const required = Math.max(tail.epoch, seal?.nextEpoch ?? 0);
    if (required > key.epoch) key = this.keyFile.evolveTo(required);
    return key;
  }

  private evolveKeyFile(epoch: number): void {
    if (this.closed) return;
    try {
      this.keyFile.evolveTo(epoch);
    } catch {
      // The seal row is committed; the next write repairs the key file (catchUpKey) or fails closed.
    }
  }

  private closeWriter(): void {
    this.writer?.db.close();
    this.writer = undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Finish an evolution a just-committed seal asked for before forgetting the key (a seal row is
    // always in the segment being written, so the writer's own tail is the one that matters).
    const last = this.writer?.last.get();
    if (last) {
      try {
        this.catchUpKey(tailHead(last));
      } catch {
        // Closing must not fail over the key file; the next open repairs it.
      }
    }
    this.closed = true;
    this.closeWriter();
    this.keyFile.erase();
  }
}

/** A tail row as catchUpKey reads it (a body only for a possible seal row, see TAIL_SQL). */
function tailHead(row: TailRow): LedgerHead & { body?: string } {
  const head = { seq: row.seq, entryHash: row.entry_hash, epoch: row.epoch };
  return row.body === null ? head : { ...head, body: row.body };
}

/** The newest row of the segments before `month` (a fresh month's first row links to it). */
function lastRowBefore(dir: string, month: string): TailRow | undefined {
  const older = listSegments(dir).filter((s) => s.month < month).reverse();
  for (const segment of older) {
    const db = openSegmentRows(segment.file);
    if (!db) continue;
    try {
      const row = db.prepare<[], TailRow>(TAIL_SQL).get();
      if (row) return row;
    } finally {
      db.close();
    }
  }
  return undefined;
}
