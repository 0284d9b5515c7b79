import iconv from 'iconv-lite';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { analyseLiterals } from '../../../tools/search/engine/literals';
import { prefilterFor } from '../../../tools/search/engine/needles';
import { prng } from '../../helpers/prng';

/**
 * Required-literal extraction is where a bug silently loses matches (a line RE2 matches but the
 * byte prefilter never looks at). So besides examples, a generated-pattern test checks the one
 * invariant that matters: every line RE2 matches contains one of the needles and all companions.
 */

describe('analyseLiterals', () => {
  const cases: Array<[string, string[][]]> = [
    ['readFileSync', [['readFileSync']]],
    ['function\\s+\\w+Sync', [['function', 'Sync']]],
    ['foo|bar(baz)?', [['foo'], ['bar']]],
    ['ab*c', [['a', 'c']]],
    ['ab+c', [['ab', 'c']]],
    ['ab?c{2}d', [['a', 'c', 'd']]],
    ['a{,3}b', [['a{,3}b']]], // not a repeat in RE2: literal braces
    ['x{2,5}y', [['x', 'y']]],
    ['[abc]def\\.ghi', [['def.ghi']]],
    ['x\\p{Greek}yz\\pLw', [['x', 'yz', 'w']]],
    ['\\x{41}BC\\x41D', [['BC', 'D']]],
    ['\\Qa.b\\E+x', [['x']]],
    ['^start.*end$', [['start', 'end']]],
    ['(?:abc)+def', [['def']]],
    ['[]a]bc', [['bc']]],
    ['[[:alpha:]]+은행', [['은행']]],
    ['개인\\s*정보', [['개인', '정보']]],
    ['😀x', [['😀x']]],
    ['a|', [['a'], []]],
  ];
  for (const [pattern, alternatives] of cases) {
    it(`finds the required runs of ${pattern}`, () => {
      expect(() => RE2JS.compile(pattern)).not.toThrow();
      expect(analyseLiterals(pattern).alternatives).toEqual(alternatives);
    });
  }

  it('notices inline case folding anywhere in the pattern', () => {
    expect(analyseLiterals('(?i)hello').inlineIgnoreCase).toBe(true);
    expect(analyseLiterals('x(?i:ab)c').inlineIgnoreCase).toBe(true);
    expect(analyseLiterals('(?s-i)hello').inlineIgnoreCase).toBe(false);
    expect(analyseLiterals('hello').inlineIgnoreCase).toBe(false);
  });
});

describe('prefilterFor', () => {
  it('gives no prefilter when one alternative has no literal', () => {
    expect(prefilterFor(analyseLiterals('foo|\\d+'), false)).toBeNull();
    expect(prefilterFor(analyseLiterals('a|'), false)).toBeNull();
  });

  it('adds the CP949 form of a Korean literal, so legacy files are searched too', () => {
    const prefilter = prefilterFor(analyseLiterals('개인정보'), false);
    const forms = prefilter?.needles.map((n) => Buffer.from(n.bytes).toString('hex'));
    expect(forms).toEqual([Buffer.from('개인정보').toString('hex'), iconv.encode('개인정보', 'cp949').toString('hex')]);
  });

  it('drops characters whose case partners lie outside ASCII when folding (k ~ U+212A, s ~ U+017F)', () => {
    const prefilter = prefilterFor(analyseLiterals('desktop'), true);
    // "desktop" splits at s and k into "de", "", "top": the longest safe piece is searched.
    expect(new TextDecoder().decode(prefilter?.needles[0]?.bytes)).toBe('top');
    expect(prefilter?.needles[0]?.fold).toBe(true);
    expect(prefilter?.companions).toEqual([]);
  });

  it('keeps the other ASCII runs of a single alternative as companions', () => {
    const prefilter = prefilterFor(analyseLiterals('function\\s+\\w+Sync'), false);
    expect(new TextDecoder().decode(prefilter?.needles[0]?.bytes)).toBe('function');
    expect(prefilter?.companions.map((c) => new TextDecoder().decode(c))).toEqual(['Sync']);
  });
});


const ATOMS = ['a', 'b', 'k', 'S', 'K', '가', '\\.', '.', '\\d', '\\w', '\\s', '[ab]', '[^a]', '(?:ab|b)', '(a|bc)', '\\b', '^', '$', '\\pL', '{', '\\Qa*\\E'];
const REPEATS = ['', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,2}', '*?'];
const LINE_CHARS = ['a', 'b', 'k', 'K', 'S', 's', '\u212a', '\u017f', '가', '.', '1', ' ', '{', '*'];

function randomPattern(rand: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const alternative = (): string => {
    let s = '';
    const n = 1 + Math.floor(rand() * 5);
    for (let i = 0; i < n; i++) {
      const atom = pick(ATOMS);
      s += atom + (atom === '^' || atom === '$' || atom === '\\b' || atom === '{' ? '' : pick(REPEATS));
    }
    return s;
  };
  const flags = rand() < 0.15 ? '(?i)' : '';
  return flags + (rand() < 0.2 ? `${alternative()}|${alternative()}` : alternative());
}

function contains(hay: Uint8Array, needle: Uint8Array, fold: boolean): boolean {
  const low = (b: number): number => (fold && b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (low(hay[i + j] as number) !== low(needle[j] as number)) continue outer;
    return true;
  }
  return false;
}

describe('prefilter invariant on generated patterns', () => {
  it('never excludes a line RE2 matches (2,000 patterns × 40 lines)', () => {
    const rand = prng(7);
    let checked = 0;
    for (let p = 0; p < 2000; p++) {
      const pattern = randomPattern(rand);
      const ignoreCase = rand() < 0.3;
      let re: RE2JS;
      try {
        re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
      } catch {
        continue; // invalid combinations are RE2's to reject
      }
      const prefilter = prefilterFor(analyseLiterals(pattern), ignoreCase);
      if (prefilter === null) continue;
      for (let l = 0; l < 40; l++) {
        let line = '';
        const n = Math.floor(rand() * 12);
        for (let i = 0; i < n; i++) line += LINE_CHARS[Math.floor(rand() * LINE_CHARS.length)] as string;
        if (!re.test(line)) continue;
        checked++;
        const bytes = new TextEncoder().encode(line);
        const found = prefilter.needles.some((needle) => contains(bytes, needle.bytes, needle.fold));
        if (!found) expect.fail(`pattern ${pattern} (ignoreCase ${ignoreCase}) matches ${JSON.stringify(line)} but no needle is in it`);
        for (const companion of prefilter.companions) {
          if (!contains(bytes, companion, false)) expect.fail(`pattern ${pattern} matches ${JSON.stringify(line)} without companion`);
        }
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });
});
