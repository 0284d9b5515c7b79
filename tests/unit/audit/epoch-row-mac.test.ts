import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EpochRowMac } from '../../../electron/main/audit/ledger/epoch-row-mac';
import { rowMac, type SealKey } from '../../../electron/main/audit/ledger/seal-key';
import { blockWords, compressBlock, compressExpanded, expandBlock, SHA256_INITIAL_STATE } from '../../../electron/main/audit/ledger/sha256-block';

/** SHA-256 of `message` through the block function alone (padding done here, FIPS 180-4 §5.1.1). */
function sha256ByBlocks(message: Buffer, viaSchedule = false): string {
  const padded = Buffer.alloc(Math.ceil((message.length + 9) / 64) * 64);
  message.copy(padded);
  padded[message.length] = 0x80;
  padded.writeBigUInt64BE(BigInt(message.length * 8), padded.length - 8);
  const state = new Int32Array(SHA256_INITIAL_STATE);
  const block = new Int32Array(16);
  const schedule = new Int32Array(64);
  for (let at = 0; at < padded.length; at += 64) {
    blockWords(padded, at, block);
    if (viaSchedule) {
      expandBlock(block, schedule);
      compressExpanded(state, schedule);
    } else {
      compressBlock(state, block);
    }
  }
  const digest = Buffer.alloc(32);
  for (let i = 0; i < 8; i++) digest.writeInt32BE(state[i] ?? 0, 4 * i);
  return digest.toString('hex');
}

/** The stored text of a row as the batch reader holds it: entry_hash hex, then the MAC hex. */
function storedText(entryHash: string, mac: string): Buffer {
  return Buffer.from(`${entryHash}${mac}`, 'latin1');
}

describe('SHA-256 block function', () => {
  it('gives the FIPS 180-2 digests of the one- and two-block examples', () => {
    expect(sha256ByBlocks(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256ByBlocks(Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with node:crypto on messages of every length up to four blocks, both ways of compressing', () => {
    for (let length = 0; length <= 256; length++) {
      const message = randomBytes(length);
      const expected = createHash('sha256').update(message).digest('hex');
      expect(sha256ByBlocks(message)).toBe(expected);
      expect(sha256ByBlocks(message, true)).toBe(expected);
    }
  });
});

describe('EpochRowMac (row MACs from HMAC midstates)', () => {
  const keyAt = (epoch: number, bytes = 32): SealKey => ({ epoch, key: randomBytes(bytes) });

  it('accepts exactly the MAC rowMac (createHmac) writes, for random keys, epochs and entry hashes', () => {
    for (let i = 0; i < 300; i++) {
      const key = keyAt(Math.floor(Math.random() * 2 ** 40));
      const check = new EpochRowMac(key);
      const entryHash = randomBytes(32).toString('hex');
      expect(check.matches(storedText(entryHash, rowMac(key, entryHash)), 0, 64)).toBe(true);
    }
  });

  it('computes exactly the MAC rowMac (createHmac) writes, for random keys, epochs and entry hashes', () => {
    for (let i = 0; i < 300; i++) {
      const key = keyAt(Math.floor(Math.random() * 2 ** 40), i % 10 === 0 ? 100 : 32);
      const entryHash = randomBytes(32).toString('hex');
      expect(new EpochRowMac(key).macHex(entryHash)).toBe(rowMac(key, entryHash));
    }
  });

  it('refuses to compute the MAC of anything but 64 lowercase hex characters', () => {
    const check = new EpochRowMac(keyAt(20_400));
    const entryHash = randomBytes(32).toString('hex');
    for (const bad of [entryHash.toUpperCase(), entryHash.slice(1), `${entryHash}0`, `${entryHash.slice(0, 63)}가`, `${entryHash.slice(0, 63)}\u0130`]) {
      expect(() => check.macHex(bad)).toThrow(RangeError);
    }
  });

  it('reads the hex where it lies in a larger buffer', () => {
    const key = keyAt(20_393);
    const entryHash = randomBytes(32).toString('hex');
    const text = Buffer.concat([Buffer.from('prefix…'), storedText(entryHash, 'x'), Buffer.from(rowMac(key, entryHash))]);
    expect(new EpochRowMac(key).matches(text, Buffer.byteLength('prefix…'), Buffer.byteLength('prefix…') + 65)).toBe(true);
  });

  it('rejects a MAC with any one hex digit changed', () => {
    const key = keyAt(20_400);
    const check = new EpochRowMac(key);
    const entryHash = randomBytes(32).toString('hex');
    const mac = rowMac(key, entryHash);
    for (let i = 0; i < 64; i++) {
      const changed = `${mac.slice(0, i)}${mac[i] === '0' ? '1' : '0'}${mac.slice(i + 1)}`;
      expect(check.matches(storedText(entryHash, changed), 0, 64)).toBe(false);
    }
  });

  it('rejects the MAC of another entry hash, another epoch, another key', () => {
    const key = keyAt(20_400);
    const entryHash = randomBytes(32).toString('hex');
    const mac = rowMac(key, entryHash);
    expect(new EpochRowMac(key).matches(storedText(randomBytes(32).toString('hex'), mac), 0, 64)).toBe(false);
    expect(new EpochRowMac({ epoch: key.epoch + 1, key: key.key }).matches(storedText(entryHash, mac), 0, 64)).toBe(false);
    expect(new EpochRowMac(keyAt(key.epoch)).matches(storedText(entryHash, mac), 0, 64)).toBe(false);
  });

  it('answers false for text that is not lower-case hex (the general path decides those rows)', () => {
    const key = keyAt(20_400);
    const check = new EpochRowMac(key);
    const entryHash = randomBytes(32).toString('hex');
    const mac = rowMac(key, entryHash);
    expect(check.matches(storedText(entryHash, mac.toUpperCase()), 0, 64)).toBe(false);
    expect(check.matches(storedText(`zz${entryHash.slice(2)}`, mac), 0, 64)).toBe(false);
    expect(check.matches(storedText(entryHash, `${mac.slice(0, 63)}g`), 0, 64)).toBe(false);
  });

  it('hashes a key longer than a block first, as HMAC does (RFC 2104)', () => {
    const key = keyAt(20_400, 100);
    const entryHash = randomBytes(32).toString('hex');
    expect(new EpochRowMac(key).matches(storedText(entryHash, rowMac(key, entryHash)), 0, 64)).toBe(true);
  });

  it('matches nothing once wiped', () => {
    const key = keyAt(20_400);
    const check = new EpochRowMac(key);
    const entryHash = randomBytes(32).toString('hex');
    check.wipe();
    expect(check.matches(storedText(entryHash, rowMac(key, entryHash)), 0, 64)).toBe(false);
  });
});
