import { checkpointSignatureValid, type Checkpoint } from '../checkpoint/checkpoint';
import { computeEntryHash, GENESIS_PREV_HASH } from './chain';
import { readSealEvent, type LedgerRow } from './rows';
import { deriveKey, rowMacMatches, type SealKey } from './seal-key';

/**
 * What can be wrong, named for the auditor (SPEC §3 `baram audit verify`):
 * - missing:         a seq is absent inside a segment (rows deleted);
 * - reordered:       a row holds another row's body;
 * - edited:          a body no longer matches its entry_hash;
 * - bad-link:        prev_hash is not the entry_hash of the row before;
 * - segment-link:    a segment file is missing or does not continue the one before;
 * - bad-mac:         the row's seal does not check under the verification key — the chain was
 *                    recomputed after an edit, or rows were moved into another epoch without the
 *                    seal only the old day's key could write;
 * - truncated:       the ledger ends before a checkpoint it once reached;
 * - rewritten:       the row at a checkpoint's seq has a different hash (the chain was recomputed;
 *                    verify with the key to find the first changed row);
 * - bad-checkpoint:  a checkpoint's signature does not check under the verification key.
 */
export type LedgerDamage =
  | 'edited'
  | 'missing'
  | 'reordered'
  | 'bad-link'
  | 'segment-link'
  | 'bad-mac'
  | 'truncated'
  | 'rewritten'
  | 'bad-checkpoint';

export interface VerifyOptions {
  /** The verification key (K0) security staff kept; without it the seals are not checked. */
  readonly key?: SealKey;
  /** Checkpoints kept off the machine. */
  readonly checkpoints?: readonly Checkpoint[];
}

export interface LedgerReport {
  readonly rows: number;
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly headHash: string;
  readonly macChecked: boolean;
  /** Rows of the newest epoch: chained and MAC'd, but their day's key is still on the machine. */
  readonly unsealedRows: number;
  readonly checkpointsChecked: number;
  /** Rows before firstSeq that retention deleted on record (retention.deleted events). */
  readonly deletedThroughSeq: number;
}

/**
 * A checkpoint the auditor gave that is a mistyped copy of one this ledger matches (mistyped.ts):
 * not counted, not evidence of tampering, reported as malformed. `line` is the part that slipped.
 */
export interface MistypedCheckpoint {
  readonly size: number;
  readonly line: 'size' | 'hash' | 'signature' | 'time';
  /** For a mistyped size: the seq whose hash the checkpoint holds. */
  readonly seq?: number;
}

export type LedgerVerdict = (
  | ({ readonly ok: true } & LedgerReport)
  | {
      readonly ok: false;
      readonly firstBadSeq: number;
      readonly reason: LedgerDamage;
      readonly detail: string;
      /** The body of the checkpoint the failure was found against, when one was (rewritten, truncated, bad-checkpoint). */
      readonly checkpointBody?: string;
    }
) & { readonly mistypedCheckpoints?: readonly MistypedCheckpoint[] };

export type LedgerFailure = Extract<LedgerVerdict, { ok: false }>;

export interface Deletion {
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly finalHash: string;
}

/**
 * Streaming check of a chain of rows in seq order: ledger segments and JSONL exports both feed it.
 * One pass, constant memory apart from the retention records; a row's body is parsed only when it
 * fails its hash or starts a new epoch. Hashes and MACs are node:crypto's.
 */
export class ChainVerifier {
  private expectedSeq = 0;
  /** entry_hash of the last row (the genesis hash before any). */
  private prevHash = GENESIS_PREV_HASH;
  private hasLast = false;
  private lastSeq = 0;
  private lastEpoch = 0;
  /** The last row's body (a seal row's data is read from it at the next epoch change). */
  private lastBody = '';
  private first: { readonly seq: number; readonly prevHash: string } | undefined;
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
    this.first ??= { seq: row.seq, prevHash: row.prevHash };
    this.accept(row.seq, row.entryHash, row.epoch);
    this.lastBody = row.body;
    return true;
  }

  finish(): LedgerVerdict {
    this.forgetKeys();
    if (this.failure) return this.failure;
    const lastSeq = this.hasLast ? this.lastSeq : 0;
    const firstSeq = this.first?.seq ?? 0;
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
      headHash: this.hasLast ? this.prevHash : GENESIS_PREV_HASH,
      macChecked: this.options.key !== undefined,
      unsealedRows: this.rows === 0 ? 0 : this.unsealedRows,
      checkpointsChecked: this.checkpointsChecked,
      deletedThroughSeq,
    };
  }

  /** The state every accepted row leaves, whichever way it was checked. */
  private accept(seq: number, entryHash: string, epoch: number): void {
    if (this.hasLast && this.lastEpoch === epoch) {
      this.unsealedRows += 1;
    } else {
      this.unsealedRows = 1;
    }
    this.hasLast = true;
    this.lastSeq = seq;
    this.lastEpoch = epoch;
    this.prevHash = entryHash;
    this.expectedSeq = seq + 1;
    this.rows += 1;
  }

  private check(row: LedgerRow, startsSegment: boolean): LedgerFailure | undefined {
    const first = !this.hasLast;
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
    if (this.hasLast && row.epoch !== this.lastEpoch) {
      const previousEpoch = this.lastEpoch;
      const seal = readSealEvent(this.lastBody);
      if (row.epoch < previousEpoch || !seal || seal.sealedEpoch !== previousEpoch || seal.nextEpoch !== row.epoch) {
        return fail(row.seq, 'bad-mac', `Row ${row.seq} moves from day-epoch ${previousEpoch} to ${row.epoch} without the seal the old day's key writes: rows from here on were re-written.`);
      }
    }
    if (row.epoch < start.epoch) return fail(row.seq, 'bad-mac', `Row ${row.seq} claims epoch ${row.epoch}, before the verification key's start (${start.epoch}).`);
    if (!rowMacMatches(this.keyFor(start, row.epoch), row.entryHash, row.mac)) {
      return fail(row.seq, 'bad-mac', `Row ${row.seq}'s seal does not match: the row or the chain up to it was re-computed after the fact.`);
    }
    return undefined;
  }

  /** The key of `epoch` (≥ start's), derived forward from the last one when possible. */
  private keyFor(start: SealKey, epoch: number): SealKey {
    if (!this.epochKey || this.epochKey.epoch !== epoch) {
      const from = this.epochKey && this.epochKey.epoch < epoch ? this.epochKey : start;
      const next = deriveKey(from, epoch);
      this.epochKey?.key.fill(0);
      this.epochKey = next;
    }
    return this.epochKey;
  }

  private forgetKeys(): void {
    this.epochKey?.key.fill(0);
  }

  private checkCheckpoints(row: LedgerRow): void {
    const checkpoints = this.checkpointsBySeq.get(row.seq);
    if (!checkpoints) return;
    for (const checkpoint of checkpoints) {
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
    const first = this.first;
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
