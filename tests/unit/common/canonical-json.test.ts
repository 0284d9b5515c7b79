import { describe, expect, it } from 'vitest';
import { prng as seeded } from '../../helpers/prng';
import { canonicalJson } from '../../../electron/common/canonical-json';

/*
 * canonicalJson feeds hashes (audit rows, approval bindings, toolset and policy digests): a changed
 * byte breaks every stored digest. The rewrite for speed must therefore write exactly what the first
 * version wrote, which stays here as the reference.
 */
function referenceCanonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonicalJson: non-finite number');
    return JSON.stringify(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => referenceCanonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${referenceCanonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`canonicalJson: unsupported ${typeof value}`);
}

const CONTROL = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join('');
const STRINGS = [
  '', 'a', '김민수', '부서별 집행 현황', 'C:\\Users\\김민수\\문서\\보고서.xlsx', '"quoted"', 'back\\slash', CONTROL, '\u007f', '\u2028\u2029',
  '\ud800', 'x\udc00y', '\ud83d\ude00', '😀 이모지', '[redacted]', '</script>', '\u00a0\u3000', 'é', 'e\u0301', '﻿bom',
];
const NUMBERS = [0, -0, 1, -1, 0.1, 0.2 + 0.1, 1e21, 1e-7, 123456789012345680000, 5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 540, -540, 1.5e300, 4.35, 100];
const KEYS = ['a', 'b', 'B', 'type', 'seq', '', ' ', '0', '1', '10', '2', '-1', '01', '김', '가', 'key "q"', 'k\\', 'k\n', '\ud800', '\u00e9', 'é', 'zz', 'Z', '_', '$', '__proto__'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function generate(random: () => number, depth: number): unknown {
  const roll = random();
  if (depth >= 5 || roll < 0.4) {
    const leaf = random();
    if (leaf < 0.4) {
      const length = Math.floor(random() * 4);
      return Array.from({ length }, () => pick(random, STRINGS)).join('');
    }
    if (leaf < 0.7) return pick(random, NUMBERS) * (random() < 0.2 ? random() : 1);
    if (leaf < 0.8) return random() < 0.5;
    if (leaf < 0.9) return null;
    return undefined;
  }
  if (roll < 0.65) {
    const length = Math.floor(random() * 5);
    const items: unknown[] = Array.from({ length }, () => generate(random, depth + 1));
    // A hole now and then: the first version wrote nothing in its place.
    if (length > 1 && random() < 0.1) delete items[Math.floor(random() * length)];
    return items;
  }
  const record: Record<string, unknown> = {};
  const size = Math.floor(random() * 7);
  for (let i = 0; i < size; i += 1) {
    // defineProperty: a "__proto__" key stays an own data property, as JSON.parse makes it.
    Object.defineProperty(record, pick(random, KEYS), { value: generate(random, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return record;
}

describe('canonicalJson writes exactly what its first version wrote', () => {
  it('on 20 000 random nested values: Korean text, escapes, lone surrogates, -0, 1e21, holes, undefined, empty containers', () => {
    const random = seeded(42);
    for (let n = 0; n < 20_000; n += 1) {
      const value = generate(random, 0);
      if (value === undefined) continue; // top-level undefined: both throw, checked below
      expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
    }
  });

  it('on the values the ledger and the gate hash', () => {
    const values: unknown[] = [
      {},
      [],
      [[]],
      { a: {} },
      [undefined, null, , 1], // a hole between null and 1
      { z: 1, a: undefined, m: [1, undefined], 가: '나', A: -0, n: 1e21, f: 0.1 },
      JSON.parse('{"__proto__":{"password":"[redacted]"},"b":[1,{"c":"\\u0000"}],"a":"\\ud800"}'),
      { seq: 1, time: '2026-12-02T08:00:00.000Z', tzOffsetMinutes: 540, data: { args: { path: 'C:\\Users\\김민수\\문서\\보고서.xlsx' } } },
      new Date(0),
      new Uint8Array([3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11]),
      Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 }),
      Object.defineProperty({ shown: 1 }, 'hidden', { value: 2, enumerable: false }),
      { [Symbol('s')]: 1, plain: 2 },
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
  });

  it('refuses the same values with the same errors', () => {
    for (const bad of [Number.NaN, Infinity, -Infinity, 10n, () => 1, Symbol('x'), undefined, { a: [1, Number.NaN] }, [{ b: 1n }]]) {
      const reference = (() => {
        try {
          referenceCanonicalJson(bad);
          return 'no error';
        } catch (error) {
          return String(error);
        }
      })();
      expect(reference).not.toBe('no error');
      expect(() => canonicalJson(bad)).toThrow(reference.replace(/^TypeError: /, ''));
    }
  });
});
