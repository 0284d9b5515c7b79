import { isUtf8 } from 'node:buffer';
import { sha256Hex } from '../sha256';
import { LEDGER_DOMAIN } from './chain';
import type { EpochRowMac } from './epoch-row-mac';
import type { LedgerRow } from './rows';

/**
 * A batch of stored rows as ONE byte string that SQLite builds (group_concat), walked row by row
 * without making a JavaScript string per column. Reading rows one by one through better-sqlite3
 * cost 2.7–3.4 µs of CPU per row on the verify benchmark (a JS array and six values per row, the
 * body decoded from UTF-8 into a string and encoded back to UTF-8 for hashing); a batch of 512
 * rows as one blob costs 1.4–1.6 µs per row, and the body bytes are hashed where they lie
 * (tests/bench/audit-verify-floor.bench.ts).
 *
 * Record layout (batchSql below), every field either fixed-length or length-prefixed by SQL, so
 * nothing a row stores can shift the parse:
 *   'v' | '!'          'v' when the stored types and lengths are what the schema promises (TEXT
 *                      hashes of 64 bytes, a MAC of 0 or 64 bytes, TEXT body, INTEGER epoch); '!'
 *                      otherwise, and then the parse stops and the caller reads those rows normally
 *   prev_hash          64 bytes
 *   entry_hash         64 bytes
 *   'm' mac | 'n'      'm' and 64 bytes, or 'n' for an empty MAC
 *   seq ' ' epoch ' ' body byte length ' '
 *   preimage head      LEDGER_DOMAIN ‖ 0x00 from SQL, then 40 placeholder bytes that get seq u64 ‖
 *                      prev_hash raw written over them: the hash preimage is one contiguous slice
 *                      ending with the body, hashed where it lies
 *   body               UTF-8 bytes exactly as stored
 * A NULL anywhere makes the record '!' (coalesce), so no row can drop out of the concatenation.
 */
const DOMAIN_HEAD = Buffer.concat([Buffer.from(LEDGER_DOMAIN, 'utf8'), Buffer.from([0])]);
/** seq u64 ‖ prev_hash raw: the part of the preimage head written per row. */
const SEQ_AND_PREV = 8 + 32;
const PREIMAGE_HEAD = DOMAIN_HEAD.length + SEQ_AND_PREV;
const HASH_HEX = 64;
const RETENTION_MARKER = Buffer.from('"type":"retention.deleted"', 'utf8');

const VALID = 0x76; // 'v'
const WITH_MAC = 0x6d; // 'm'
const NO_MAC = 0x6e; // 'n'
const SPACE = 0x20;
const ZERO = 0x30;
// seq and epoch of a real ledger have at most 15 digits (seq < 2^53); anything longer is read normally.
const MAX_DIGITS = 15;

/** The SELECT of one batch (`seq >= ? AND seq < ?`): a row count and the records, concatenated. */
export function batchSql(sealColumns: boolean): string {
  const epoch = sealColumns ? 'epoch' : '0';
  const mac = sealColumns ? 'mac' : "''";
  const valid = [
    "typeof(body) = 'text'",
    "typeof(prev_hash) = 'text'",
    "typeof(entry_hash) = 'text'",
    `typeof(${mac}) = 'text'`,
    `typeof(${epoch}) = 'integer'`,
    'octet_length(prev_hash) = 64',
    'octet_length(entry_hash) = 64',
    `octet_length(${mac}) IN (0, 64)`,
  ].join(' AND ');
  const head = `${sqlText(LEDGER_DOMAIN)} || char(0) || '${' '.repeat(SEQ_AND_PREV)}'`;
  const record =
    `coalesce(iif(${valid}, 'v', '!') || prev_hash || entry_hash || iif(octet_length(${mac}) = 64, 'm' || ${mac}, 'n')` +
    ` || seq || ' ' || ${epoch} || ' ' || octet_length(body) || ' ' || ${head} || body, '!')`;
  return `SELECT count(*), CAST(group_concat(${record}, '') AS BLOB) FROM entries WHERE seq >= ? AND seq < ?`;
}

function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export class StoredRowCursor {
  /** The batch; the current row's fields are offsets into it. */
  buf: Buffer = Buffer.alloc(0);
  seq = 0;
  epoch = 0;
  private prevAt = 0;
  private entryAt = 0;
  /** -1 when the row's MAC is empty. */
  private macAt = -1;
  bodyStart = 0;
  bodyEnd = 0;
  private count = 0;
  private parsed = 0;
  private pos = 0;
  private scan = 0;
  private malformed = false;
  private nextMarker = -1;

  /**
   * Takes a batch. False when it is not valid UTF-8 as a whole: then some body is not, and its
   * rows must be read as better-sqlite3 reads them (with replacement characters) to be judged
   * exactly as the general path judges them. The framing is ASCII, so the batch is valid UTF-8
   * exactly when every stored text in it is.
   */
  load(count: number, batch: Buffer | null): boolean {
    this.count = count;
    this.parsed = 0;
    this.pos = 0;
    this.malformed = false;
    this.nextMarker = -1;
    this.buf = batch ?? Buffer.alloc(0);
    return isUtf8(this.buf);
  }

  /** Every row the batch counted was parsed and nothing is left over. */
  get complete(): boolean {
    return !this.malformed && this.parsed === this.count && this.pos === this.buf.length;
  }

  /** Moves to the next row; false at the end of the batch or at a record it cannot read. */
  next(): boolean {
    const buf = this.buf;
    let at = this.pos;
    if (this.malformed || this.parsed === this.count || at + 1 + 2 * HASH_HEX + 1 > buf.length || buf[at] !== VALID) return this.stop();
    this.prevAt = at + 1;
    this.entryAt = at + 1 + HASH_HEX;
    at += 1 + 2 * HASH_HEX;
    if (buf[at] === WITH_MAC) {
      this.macAt = at + 1;
      at += 1 + HASH_HEX;
    } else if (buf[at] === NO_MAC) {
      this.macAt = -1;
      at += 1;
    } else {
      return this.stop();
    }
    this.scan = at;
    const seq = this.decimal();
    const epoch = this.decimal();
    const length = this.decimal();
    if (seq < 0 || epoch < 0 || length < 0) return this.stop();
    const bodyStart = this.scan + PREIMAGE_HEAD;
    if (bodyStart + length > buf.length) return this.stop();
    this.seq = seq;
    this.epoch = epoch;
    this.bodyStart = bodyStart;
    this.bodyEnd = bodyStart + length;
    this.pos = this.bodyEnd;
    this.parsed += 1;
    return true;
  }

  /** The decimal number at `scan`, ended by a space (and `scan` moved past it); -1 if there is none. */
  private decimal(): number {
    const buf = this.buf;
    let at = this.scan;
    let value = 0;
    const start = at;
    for (let c = buf[at]; c !== SPACE; c = buf[++at]) {
      if (at >= buf.length || c < ZERO || c > ZERO + 9 || at - start >= MAX_DIGITS) return -1;
      value = value * 10 + (c - ZERO);
    }
    if (at === start) return -1;
    this.scan = at + 1;
    return value;
  }

  /** The stored prev_hash is exactly `hex` (64 ASCII characters). */
  storedPrevHashIs(hex: string): boolean {
    return this.textAt(this.prevAt, hex);
  }

  /** The stored entry_hash is exactly `hex`. */
  storedEntryHashIs(hex: string): boolean {
    return this.textAt(this.entryAt, hex);
  }

  /**
   * computeEntryHash (chain.ts) of this row's seq and body with `prevHash` (64 lowercase hex
   * characters: the caller's verified chain head), hashed in place: seq and prev_hash are written
   * over the placeholder between the domain (from SQL) and the body.
   */
  entryHash(prevHash: string): string {
    const buf = this.buf;
    const at = this.bodyStart - SEQ_AND_PREV;
    buf.writeUInt32BE(Math.floor(this.seq / 0x1_0000_0000), at);
    buf.writeUInt32BE(this.seq >>> 0, at + 4);
    buf.write(prevHash, at + 8, 32, 'hex');
    return sha256Hex(buf.subarray(this.bodyStart - PREIMAGE_HEAD, this.bodyEnd));
  }

  /** The stored MAC checks under `check` (the key of the row's epoch). */
  macMatches(check: EpochRowMac): boolean {
    return this.macAt >= 0 && check.matches(this.buf, this.entryAt, this.macAt);
  }

  /**
   * The body holds `"type":"retention.deleted"` — the text test of ChainVerifier's noteRetention.
   * The marker is ASCII, so it is in the UTF-8 bytes exactly when it is in the decoded text. One
   * search runs ahead to the next occurrence in the batch, so a batch is scanned about once.
   */
  mayRecordRetention(): boolean {
    if (this.nextMarker < this.bodyStart) {
      const at = this.buf.indexOf(RETENTION_MARKER, this.bodyStart);
      this.nextMarker = at < 0 ? Number.POSITIVE_INFINITY : at;
    }
    return this.nextMarker + RETENTION_MARKER.length <= this.bodyEnd;
  }

  /**
   * The row as better-sqlite3 returns it (for the general path). The batch is valid UTF-8 (load),
   * and for valid UTF-8 Buffer#toString and better-sqlite3 decode identically.
   */
  row(): LedgerRow {
    const buf = this.buf;
    return {
      seq: this.seq,
      body: buf.toString('utf8', this.bodyStart, this.bodyEnd),
      prevHash: buf.toString('utf8', this.prevAt, this.prevAt + HASH_HEX),
      entryHash: buf.toString('utf8', this.entryAt, this.entryAt + HASH_HEX),
      epoch: this.epoch,
      mac: this.macAt < 0 ? '' : buf.toString('utf8', this.macAt, this.macAt + HASH_HEX),
    };
  }

  private textAt(at: number, hex: string): boolean {
    // One native slice and a string compare: half the time of a JS loop over 64 characters. A byte
    // ≥ 0x80 decodes to a non-ASCII character, so this is byte equality with the ASCII `hex`.
    return this.buf.toString('latin1', at, at + HASH_HEX) === hex;
  }

  private stop(): false {
    if (this.parsed < this.count) this.malformed = true;
    return false;
  }
}
