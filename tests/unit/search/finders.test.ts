import { describe, expect, it } from 'vitest';
import { prepareFinder, type Finder } from '../../../tools/search/engine/finders';
import type { Needle } from '../../../tools/search/engine/needles';
import { prng } from '../../helpers/prng';

/**
 * The finders pick a strategy per needle (native indexOf, caseless anchor, rare byte, Horspool).
 * Each must report exactly the positions a naive case-folding scan reports.
 */

function naive(hay: Uint8Array, needle: Uint8Array, fold: boolean): number[] {
  const low = (b: number): number => (fold && b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
  const out: number[] = [];
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (low(hay[i + j] as number) !== low(needle[j] as number)) continue outer;
    out.push(i);
  }
  return out;
}

function all(finder: Finder): number[] {
  const out: number[] = [];
  for (let p = finder.next(0); p >= 0; p = finder.next(p + 1)) out.push(p);
  return out;
}


const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('finders', () => {
  // Needles chosen to exercise each strategy: "deprecated" (long, common letters: Horspool),
  // "zq" (rare letters: rare byte), "ab" (short: rare byte), "가나x" (caseless Hangul anchor),
  // "x-1" (punctuation as rare byte), "readFileSync" exact.
  const needles: Array<[string, boolean]> = [
    ['deprecated', true],
    ['zq', true],
    ['ab', true],
    ['가나x', true],
    ['x-1', true],
    ['readFileSync', false],
    ['E', true],
  ];
  const rand = prng(42);
  const alphabet = ['a', 'b', 'A', 'B', 'z', 'Q', 'q', 'd', 'e', 'p', 'r', 'c', 't', 'D', 'E', 'x', 'X', '-', '1', '가', '나', '\n', ' ', 'readFileSync', 'DEPRECATED', 'dEpReCaTeD'];
  let text = '';
  while (text.length < 200_000) text += alphabet[Math.floor(rand() * alphabet.length)] as string;
  const hay = Buffer.from(text);

  for (const [needle, fold] of needles) {
    it(`finds every occurrence of ${needle} (fold ${fold})`, () => {
      const expected = naive(hay, enc(needle), fold);
      expect(expected.length).toBeGreaterThan(0);
      expect(all(prepareFinder([{ bytes: enc(needle), fold }])(hay))).toEqual(expected);
    });
  }

  it('finds occurrences at the very start and end, and none past the end', () => {
    const b = Buffer.from('Deprecated middle DEPRECATED');
    expect(all(prepareFinder([{ bytes: enc('deprecated'), fold: true }])(b))).toEqual([0, 18]);
    expect(all(prepareFinder([{ bytes: enc('ab'), fold: true }])(Buffer.from('a')))).toEqual([]);
  });

  it('merges several needles in position order', () => {
    const ns: Needle[] = [
      { bytes: enc('zq'), fold: true },
      { bytes: enc('readFileSync'), fold: false },
      { bytes: enc('가나x'), fold: true },
    ];
    const expected = [...new Set(ns.flatMap((n) => naive(hay, n.bytes, n.fold)))].sort((a, b) => a - b);
    expect(all(prepareFinder(ns)(hay))).toEqual(expected);
  });

  it('works on a plain Uint8Array view with an offset, not only on Buffers', () => {
    const backing = new Uint8Array(64);
    backing.set(enc('xxxx needle here'), 10);
    const view = new Uint8Array(backing.buffer, 10, 30);
    const finder = prepareFinder([{ bytes: enc('NEEDLE'), fold: true }])(Buffer.from(view.buffer, view.byteOffset, view.byteLength));
    expect(all(finder)).toEqual([5]);
  });
});
