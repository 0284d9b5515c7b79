import { createHash } from 'node:crypto';
import { u64 } from './bytes';
import { ROW_MAC_DOMAIN, type SealKey } from './seal-key';
import { blockWords, compressBlock, compressExpanded, expandBlock, SHA256_INITIAL_STATE } from './sha256-block';

/**
 * Computes and checks row MACs of one epoch — HMAC-SHA256(K(epoch), ROW_MAC_DOMAIN ‖ epoch u64 ‖ entry_hash raw),
 * exactly seal-key.ts's rowMac — from the HMAC midstates (RFC 2104: H(K⊕opad ‖ H(K⊕ipad ‖ m)); the
 * key-pad blocks are the same for every row of an epoch, so their compressions are done once here).
 * Per row that leaves three block compressions, one of them over a constant block whose message
 * schedule is precomputed (sha256-block.ts has the measurements).
 *
 * The ledger keeps one for the epoch it is sealing in (audit-ledger.ts) and wipes it when the key
 * evolves: the midstates are as secret as the key (whoever has them can MAC rows of that epoch),
 * though not more (they do not give the next key).
 *
 * Checks work on hex text where the batch reader left it (stored-row-cursor.ts): no string or Buffer is
 * made per row. The stored MAC is compared word by word with an early exit, not in constant time:
 * the verifier runs offline over a file the auditor holds, and nobody can time it against inputs
 * of their choosing (seal-key.ts's macEquals, which the general path uses, stays constant-time).
 */
const BLOCK = 64;
const DIGEST = 32;

// Nibble values of lowercase hex digits; -1 for anything else. Upper-case hex never reaches here
// from a row we wrote (rowMac writes lowercase); such a row takes the general path, which accepts it.
const NIBBLE = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[0x30 + i] = i;
for (let i = 0; i < 6; i++) NIBBLE[0x61 + i] = 10 + i;

const state = new Int32Array(8);
const block = new Int32Array(16);
const outerBlock = new Int32Array(16);
/** macHex's input as ASCII bytes, and its output before hex encoding. */
const hexText = Buffer.alloc(2 * DIGEST);
const macBytes = Buffer.alloc(DIGEST);
const LOWER_HEX_SHA256 = /^[0-9a-f]{64}$/;

export class EpochRowMac {
  readonly epoch: number;
  private readonly innerStart = new Int32Array(8);
  private readonly outerStart = new Int32Array(8);
  /** The inner message after the ipad block, padded: domain ‖ epoch ‖ [digest] ‖ 0x80 … ‖ bit length. */
  private readonly message: Uint8Array;
  private readonly digestAt: number;
  private readonly blocks: number;
  /** Message schedules of the padded blocks that the digest does not reach (constant per epoch). */
  private readonly constantSchedules: (Int32Array | undefined)[] = [];

  constructor(key: SealKey) {
    this.epoch = key.epoch;
    const head = Buffer.concat([Buffer.from(ROW_MAC_DOMAIN, 'utf8'), u64(key.epoch)]);
    const length = head.length + DIGEST;
    this.blocks = Math.ceil((length + 9) / BLOCK);
    if (this.blocks > 2) throw new RangeError('ROW_MAC_DOMAIN is too long for the two-block row MAC check');
    this.digestAt = head.length;
    this.message = new Uint8Array(this.blocks * BLOCK);
    this.message.set(head, 0);
    this.message[length] = 0x80;
    const bits = (BLOCK + length) * 8;
    const tail = this.message.length - 4;
    this.message[tail] = bits >>> 24;
    this.message[tail + 1] = (bits >>> 16) & 0xff;
    this.message[tail + 2] = (bits >>> 8) & 0xff;
    this.message[tail + 3] = bits & 0xff;
    for (let b = 0; b < this.blocks; b++) {
      if (b * BLOCK < this.digestAt + DIGEST) {
        this.constantSchedules.push(undefined);
        continue;
      }
      const words = new Int32Array(16);
      blockWords(this.message, b * BLOCK, words);
      const schedule = new Int32Array(64);
      expandBlock(words, schedule);
      this.constantSchedules.push(schedule);
    }
    // RFC 2104: a key longer than the block is hashed first; shorter keys are zero-padded.
    const k = key.key.length > BLOCK ? createHash('sha256').update(key.key).digest() : key.key;
    const pad = new Uint8Array(BLOCK);
    this.innerStart.set(SHA256_INITIAL_STATE);
    this.outerStart.set(SHA256_INITIAL_STATE);
    for (let i = 0; i < BLOCK; i++) pad[i] = (k[i] ?? 0) ^ 0x36;
    blockWords(pad, 0, block);
    compressBlock(this.innerStart, block);
    for (let i = 0; i < BLOCK; i++) pad[i] = (k[i] ?? 0) ^ 0x5c;
    blockWords(pad, 0, block);
    compressBlock(this.outerStart, block);
    pad.fill(0);
    block.fill(0);
  }

  /**
   * Whether the 64 hex characters at `text[macAt…]` are the MAC of the entry hash whose 64 hex
   * characters are at `text[entryAt…]`. False for anything that is not lowercase hex.
   */
  matches(text: Uint8Array, entryAt: number, macAt: number): boolean {
    if (!this.digestInto(text, entryAt)) return false;
    for (let w = 0; w < 8; w++) {
      let word = 0;
      for (let j = 0; j < 8; j++) {
        const nibble = NIBBLE[text[macAt + 8 * w + j]];
        if (nibble < 0) return false;
        word = (word << 4) | nibble;
      }
      if (word !== state[w]) return false;
    }
    return true;
  }

  /**
   * The row MAC of `entryHash` (64 lowercase hex characters) as lowercase hex: what the ledger
   * stores with every row it appends: ≈ 1.5 µs, where createHmac with its updates and temporary
   * Buffers took ≈ 10 µs on the append path.
   */
  macHex(entryHash: string): string {
    // The test first: latin1 would write a character above U+00FF as its low byte.
    if (!LOWER_HEX_SHA256.test(entryHash)) throw new RangeError('An entry hash is 64 lowercase hex characters.');
    hexText.write(entryHash, 0, 'latin1');
    this.digestInto(hexText, 0);
    for (let w = 0; w < 8; w++) macBytes.writeInt32BE(state[w] as number, 4 * w);
    return macBytes.toString('hex');
  }

  /** HMAC of the entry hash at `text[entryAt…]` into `state`; false for anything but lowercase hex. */
  private digestInto(text: Uint8Array, entryAt: number): boolean {
    const message = this.message;
    let at = this.digestAt;
    for (let i = 0; i < 2 * DIGEST; i += 2) {
      const high = NIBBLE[text[entryAt + i]];
      const low = NIBBLE[text[entryAt + i + 1]];
      if (high < 0 || low < 0) return false;
      message[at++] = (high << 4) | low;
    }
    state.set(this.innerStart);
    for (let b = 0; b < this.blocks; b++) {
      const schedule = this.constantSchedules[b];
      if (schedule) {
        compressExpanded(state, schedule);
      } else {
        blockWords(message, b * BLOCK, block);
        compressBlock(state, block);
      }
    }
    for (let i = 0; i < 8; i++) outerBlock[i] = state[i];
    outerBlock[8] = 0x80000000 | 0;
    for (let i = 9; i < 15; i++) outerBlock[i] = 0;
    outerBlock[15] = (BLOCK + DIGEST) * 8;
    state.set(this.outerStart);
    compressBlock(state, outerBlock);
    return true;
  }

  /** Erases the key-derived midstates (the verifier is done with this epoch). */
  wipe(): void {
    macBytes.fill(0);
    this.innerStart.fill(0);
    this.outerStart.fill(0);
    this.message.fill(0);
    state.fill(0);
    outerBlock.fill(0);
  }
}
