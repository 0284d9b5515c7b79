import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeEntryHash, GENESIS_PREV_HASH, LEDGER_DOMAIN } from '../../../electron/main/audit/ledger/chain';

const PREV = 'ab'.repeat(32);

describe('computeEntryHash', () => {
  it('is SHA-256 over domain, NUL, u64 seq, raw prev hash and body', () => {
    const seq = Buffer.alloc(8);
    seq.writeBigUInt64BE(7n);
    const expected = createHash('sha256')
      .update(Buffer.concat([Buffer.from(`${LEDGER_DOMAIN}\0`), seq, Buffer.from(PREV, 'hex'), Buffer.from('{"a":1}')]))
      .digest('hex');
    expect(LEDGER_DOMAIN).toBe('baram-audit-v1');
    expect(computeEntryHash(7, PREV, '{"a":1}')).toBe(expected);
  });

  it('hashes what the definition says for seqs above 2^32 and bodies larger than its reused buffer', () => {
    const reference = (seq: number, prev: string, body: string): string => {
      const encoded = Buffer.alloc(8);
      encoded.writeBigUInt64BE(BigInt(seq));
      return createHash('sha256').update(`${LEDGER_DOMAIN}\0`).update(encoded).update(Buffer.from(prev, 'hex')).update(body, 'utf8').digest('hex');
    };
    const cases: [number, string][] = [
      [2 ** 32 + 5, '{"a":"개인정보"}'],
      [Number.MAX_SAFE_INTEGER, '{}'],
      [3, `{"text":"${'가😀a'.repeat(20_000)}"}`],
      // After the large body: a short one must not hash leftover bytes of the longer one.
      [4, '{"b":2}'],
    ];
    for (const [seq, body] of cases) expect(computeEntryHash(seq, PREV, body)).toBe(reference(seq, PREV, body));
  });

  it('changes when any input changes', () => {
    const base = computeEntryHash(1, GENESIS_PREV_HASH, '{"a":1}');
    expect(computeEntryHash(2, GENESIS_PREV_HASH, '{"a":1}')).not.toBe(base);
    expect(computeEntryHash(1, PREV, '{"a":1}')).not.toBe(base);
    expect(computeEntryHash(1, GENESIS_PREV_HASH, '{"a":2}')).not.toBe(base);
    // Without the domain the digest differs: a ledger hash cannot pass for a plain digest.
    expect(createHash('sha256').update('{"a":1}').digest('hex')).not.toBe(base);
  });

  it('refuses a non-positive seq and a malformed prev hash', () => {
    expect(() => computeEntryHash(0, GENESIS_PREV_HASH, '{}')).toThrow(RangeError);
    expect(() => computeEntryHash(1.5, GENESIS_PREV_HASH, '{}')).toThrow(RangeError);
    expect(() => computeEntryHash(1, 'xyz', '{}')).toThrow(RangeError);
  });
});
