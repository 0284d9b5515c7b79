/**
 * The ledger verifier exactly as it was before verification got its fast and parallel paths
 * (electron/main/audit/ledger/verify-rows.ts at commit 9cb0c68, ChainVerifier and its helpers,
 * unchanged but for the imports and the export of `legacyVerifyLedger`). A test oracle only:
 * tests/security/audit-verify-paths.test.ts checks that verifyLedger gives the verdict this gave,
 * down to the detail text.
 */
import { checkpointSignatureValid, type Checkpoint } from '../../electron/main/audit/checkpoint/checkpoint';
import { readLedgerRows } from '../../electron/main/audit/ledger/read-rows';
import { computeEntryHash, GENESIS_PREV_HASH } from '../../electron/main/audit/ledger/chain';
import { readSealEvent, type LedgerRow } from '../../electron/main/audit/ledger/rows';
import { timingSafeEqual } from 'node:crypto';
import { deriveKey, rowMac, type SealKey } from '../../electron/main/audit/ledger/seal-key';

/** seal-key.ts's macEquals as it was. */
function macEquals(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right);
}
import type { LedgerDamage, LedgerFailure, LedgerVerdict, VerifyOptions } from '../../electron/main/audit/ledger/verify-rows';

/** verifyLedger as it was: readLedgerRows into the old ChainVerifier, one row at a time. */
export function legacyVerifyLedger(dir: string, options: VerifyOptions = {}): LedgerVerdict {
  const verifier = new ChainVerifier(options);
  for (const row of readLedgerRows(dir)) {
    if (!verifier.push(row, row.startsSegment)) break;
  }
  return verifier.finish();
}

interface Deletion {
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly finalHash: string;
}

/**
 * Streaming check of a chain of rows in seq order: ledger segments and JSONL exports both feed it.
 * One pass, constant memory apart from the retention records; a row's body is parsed only when it
 * fails its hash or starts a new epoch, so a million rows verify in seconds.
 */
class ChainVerifier {
  private expectedSeq = 0;
  private prevHash = GENESIS_PREV_HASH;
  private prevRow: LedgerRow | undefined;
  private firstRow: LedgerRow | undefined;
  private rows = 0;
  private unsealedRows = 0;
  private epochKey: SealKey | undefined;
  private failure: LedgerFailure | undefined;
  private readonly deletions: Deletion[] = [];
  private readonly checkpointsBySeq = new Map<number, Checkpoint[]>();
  private checkpointsChecked = 0;

  /**
   * @param anchored true for a partial export: the first row may start anywhere and its prev_hash
   *                 is taken as given. A live ledger must start at seq 1 or right after rows that
   *                 retention deleted on record.
   */
  constructor(
    private readonly options: VerifyOptions,
    private readonly anchored = false,
  ) {
    for (const checkpoint of options.checkpoints ?? []) {
      const list = this.checkpointsBySeq.get(checkpoint.size) ?? [];
      list.push(checkpoint);
      this.checkpointsBySeq.set(checkpoint.size, list);
    }
  }

  /** Feeds the next row; returns false once a failure is found (stop feeding). */
  push(row: LedgerRow, startsSegment = false): boolean {
    if (this.failure) return false;
    const damage = this.check(row, startsSegment);
    if (damage) {
      this.failure = damage;
      return false;
    }
    this.noteRetention(row);
    this.checkCheckpoints(row);
    if (this.failure) return false;
    this.unsealedRows = this.prevRow && this.prevRow.epoch === row.epoch ? this.unsealedRows + 1 : 1;
    this.firstRow ??= row;
    this.prevRow = row;
    this.prevHash = row.entryHash;
    this.expectedSeq = row.seq + 1;
    this.rows += 1;
    return true;
  }

  finish(): LedgerVerdict {
    this.epochKey?.key.fill(0);
    if (this.failure) return this.failure;
    const lastSeq = this.prevRow?.seq ?? 0;
    const firstSeq = this.firstRow?.seq ?? 0;
    const deletedThroughSeq = this.anchored ? 0 : this.checkDeletedPrefix();
    if (this.failure) return this.failure;
    for (const [size] of this.checkpointsBySeq) {
      if (size > lastSeq) {
        return fail(lastSeq + 1, 'truncated', `A checkpoint records ${size} rows, but the ledger ends at seq ${lastSeq}: rows ${lastSeq + 1}–${size} were cut off.`);
      }
    }
    return {
      ok: true,
      rows: this.rows,
      firstSeq,
      lastSeq,
      headHash: this.prevRow?.entryHash ?? GENESIS_PREV_HASH,
      macChecked: this.options.key !== undefined,
      unsealedRows: this.rows === 0 ? 0 : this.unsealedRows,
      checkpointsChecked: this.checkpointsChecked,
      deletedThroughSeq,
    };
  }

  private check(row: LedgerRow, startsSegment: boolean): LedgerFailure | undefined {
    const first = this.prevRow === undefined;
    const expected = first ? (this.anchored ? row.seq : undefined) : this.expectedSeq;
    if (expected !== undefined && row.seq !== expected) {
      if (startsSegment) return fail(expected, 'segment-link', `Segment starts at seq ${row.seq}; seq ${expected} was expected — a segment file is missing or was replaced.`);
      return row.seq > expected
        ? fail(expected, 'missing', `Rows ${expected}–${row.seq - 1} are missing.`)
        : fail(row.seq, 'reordered', `seq ${row.seq} appears after seq ${expected - 1}.`);
    }
    if (!safeHashEquals(row)) {
      const bodySeq = seqInBody(row.body);
      return bodySeq !== undefined && bodySeq !== row.seq
        ? fail(row.seq, 'reordered', `Row ${row.seq} holds the body of row ${bodySeq}.`)
        : fail(row.seq, 'edited', `Row ${row.seq} no longer matches its hash: its content was changed.`);
    }
    if (!first && row.prevHash !== this.prevHash) {
      return startsSegment
        ? fail(row.seq, 'segment-link', `The segment starting at seq ${row.seq} does not link to the end of the previous segment.`)
        : fail(row.seq, 'bad-link', `Row ${row.seq} does not link to row ${row.seq - 1}.`);
    }
    if (first && !this.anchored && row.seq === 1 && row.prevHash !== GENESIS_PREV_HASH) {
      return fail(1, 'bad-link', 'Row 1 does not start the chain.');
    }
    return this.options.key ? this.checkMac(row) : undefined;
  }

  private checkMac(row: LedgerRow): LedgerFailure | undefined {
    const start = this.options.key;
    if (!start) return undefined;
    const previous = this.prevRow;
    if (previous && row.epoch !== previous.epoch) {
      const seal = readSealEvent(previous.body);
      if (row.epoch < previous.epoch || !seal || seal.sealedEpoch !== previous.epoch || seal.nextEpoch !== row.epoch) {
        return fail(row.seq, 'bad-mac', `Row ${row.seq} moves from day-epoch ${previous.epoch} to ${row.epoch} without the seal the old day's key writes: rows from here on were re-written.`);
      }
    }
    if (row.epoch < start.epoch) return fail(row.seq, 'bad-mac', `Row ${row.seq} claims epoch ${row.epoch}, before the verification key's start (${start.epoch}).`);
    if (!this.epochKey || this.epochKey.epoch !== row.epoch) {
      const from = this.epochKey && this.epochKey.epoch < row.epoch ? this.epochKey : start;
      const next = deriveKey(from, row.epoch);
      this.epochKey?.key.fill(0);
      this.epochKey = next;
    }
    if (!macEquals(rowMac(this.epochKey, row.entryHash), row.mac)) {
      return fail(row.seq, 'bad-mac', `Row ${row.seq}'s seal does not match: the row or the chain up to it was re-computed after the fact.`);
    }
    return undefined;
  }

  private checkCheckpoints(row: LedgerRow): void {
    for (const checkpoint of this.checkpointsBySeq.get(row.seq) ?? []) {
      if (this.options.key && !checkpointSignatureValid(checkpoint, this.options.key)) {
        this.failure = fail(row.seq, 'bad-checkpoint', `The checkpoint for seq ${row.seq} is not signed by this ledger's key: it was not made by Baram or was altered.`);
        return;
      }
      if (checkpoint.rootHash !== row.entryHash) {
        this.failure = fail(row.seq, 'rewritten', `Row ${row.seq} differs from the checkpoint taken at that seq: the chain up to it was re-computed. Verify with --key to find the first changed row.`);
        return;
      }
      this.checkpointsChecked += 1;
    }
    this.checkpointsBySeq.delete(row.seq);
  }

  private noteRetention(row: LedgerRow): void {
    if (!row.body.includes('"type":"retention.deleted"')) return;
    const data = (JSON.parse(row.body) as { data?: { firstSeq?: unknown; lastSeq?: unknown; finalHash?: unknown } }).data;
    if (typeof data?.firstSeq === 'number' && typeof data.lastSeq === 'number' && typeof data.finalHash === 'string') {
      this.deletions.push({ firstSeq: data.firstSeq, lastSeq: data.lastSeq, finalHash: data.finalHash });
    }
  }

  /**
   * A ledger may start after seq 1 only where retention deleted whole segments on record: the
   * deletions must cover 1…firstSeq-1 without gaps, and the last one's final hash must be the
   * first remaining row's prev_hash.
   */
  private checkDeletedPrefix(): number {
    const first = this.firstRow;
    if (!first || first.seq === 1) return 0;
    let covered = 0;
    let finalHash = GENESIS_PREV_HASH;
    for (const d of [...this.deletions].sort((a, b) => a.firstSeq - b.firstSeq)) {
      if (d.firstSeq !== covered + 1) break;
      covered = d.lastSeq;
      finalHash = d.finalHash;
    }
    if (covered !== first.seq - 1 || finalHash !== first.prevHash) {
      this.failure = fail(covered + 1, 'segment-link', `Rows ${covered + 1}–${first.seq - 1} are gone without a retention record: a segment file was deleted.`);
    }
    return covered;
  }
}

function fail(firstBadSeq: number, reason: LedgerDamage, detail: string): LedgerFailure {
  return { ok: false, firstBadSeq, reason, detail };
}

function safeHashEquals(row: LedgerRow): boolean {
  try {
    return computeEntryHash(row.seq, row.prevHash, row.body) === row.entryHash;
  } catch {
    // A prev_hash that is not 64 hex characters cannot have produced this row.
    return false;
  }
}

function seqInBody(body: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || !('seq' in parsed)) return undefined;
    return typeof parsed.seq === 'number' ? parsed.seq : undefined;
  } catch {
    return undefined;
  }
}
