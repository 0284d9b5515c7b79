import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { decodeText, looksBinary } from '../../../tools/kit/text-decoding';
import { excerpt } from '../../../tools/search/engine/format';
import { isValidUtf8, LineDecoder } from '../../../tools/search/engine/line-decoder';
import { prng } from '../../helpers/prng';
import { compileQuery, type Query } from '../../../tools/search/engine/query';
import { LONG_LINE, scanBytes, scanText, type LineHit, type ScanState } from '../../../tools/search/engine/scan';
import { isBinary } from '../../../tools/search/engine/file-kind';

function query(pattern: string, options: { ignoreCase?: boolean; fixedString?: boolean } = {}): Query {
  const compiled = compileQuery({ pattern, ignoreCase: options.ignoreCase ?? false, fixedString: options.fixedString ?? false });
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.query;
}

/** `whole`: what the host's TreeFile.utf8 would say of all of `bytes` (none: the engine checks lines itself). */
function scan(bytes: Uint8Array, q: Query, maxHits = 1000, whole?: { readonly utf8: boolean }): LineHit[] {
  const hits: LineHit[] = [];
  scanBytes(bytes, 0, true, q, { firstLine: 1, encoding: null, whole }, maxHits, hits);
  return hits;
}

const lines = (hits: readonly LineHit[]): Array<[number, string]> => hits.map((h) => [h.line, h.text]);

describe('scanBytes on UTF-8', () => {
  const text = Buffer.from('alpha\nbeta readFileSync(x)\r\n\n한국어 개인정보 처리\nlast readFileSync');

  it('reports 1-based line numbers and the line without its CR', () => {
    expect(lines(scan(text, query('readFileSync', { fixedString: true })))).toEqual([
      [2, 'beta readFileSync(x)'],
      [5, 'last readFileSync'],
    ]);
    expect(lines(scan(text, query('개인정보')))).toEqual([[4, '한국어 개인정보 처리']]);
  });

  it('runs regexes per line, with and without a literal to look for first', () => {
    expect(lines(scan(text, query('^b\\w+ read')))).toEqual([[2, 'beta readFileSync(x)']]);
    expect(lines(scan(text, query('^$')))).toEqual([[3, '']]);
    expect(lines(scan(text, query('[가-힣]{3} ')))).toEqual([[4, '한국어 개인정보 처리']]);
    expect(lines(scan(text, query('(?i)READFILESYNC\\(')))).toEqual([[2, 'beta readFileSync(x)']]);
  });

  it('counts one line per matching line, however many matches it holds', () => {
    expect(scan(Buffer.from('a a a\nb\na'), query('a'))).toHaveLength(2);
  });

  it('stops at maxHits', () => {
    const many = Buffer.from('x\n'.repeat(50));
    expect(scan(many, query('x'), 7)).toHaveLength(7);
  });

  it('carries line numbers and the encoding across windows', () => {
    const q = query('needle', { fixedString: true });
    const part1 = Buffer.from('one\nneedle two\nthree par');
    const state: ScanState = { firstLine: 1, encoding: null };
    const hits: LineHit[] = [];
    const first = scanBytes(part1, 0, false, q, state, 100, hits);
    expect(first.consumed).toBe('one\nneedle two\n'.length);
    expect(state.firstLine).toBe(3);
    const part2 = Buffer.concat([part1.subarray(first.consumed), Buffer.from('tial needle\nfour')]);
    scanBytes(part2, 0, true, q, state, 100, hits);
    expect(lines(hits)).toEqual([
      [2, 'needle two'],
      [3, 'three partial needle'],
    ]);
  });

  it('carries line numbers across windows for literal-free regexes too', () => {
    const q = query('^\\d+$');
    const state: ScanState = { firstLine: 1, encoding: null };
    const hits: LineHit[] = [];
    const part1 = Buffer.from('a\n12\nb\n3');
    const first = scanBytes(part1, 0, false, q, state, 100, hits);
    expect(state.firstLine).toBe(4);
    scanBytes(Buffer.concat([part1.subarray(first.consumed), Buffer.from('4\nc\n56')]), 0, true, q, state, 100, hits);
    expect(lines(hits)).toEqual([
      [2, '12'],
      [4, '34'],
      [6, '56'],
    ]);
  });
});

describe('scanBytes on UTF-8 known to be UTF-8', () => {
  it('leaves the CP949 needles out, and finds no less', () => {
    const q = query('개인정보');
    expect(q.prefilter?.needles).toHaveLength(2); // UTF-8 and CP949
    expect(q.utf8Finder).not.toBe(q.finder);
    const file = Buffer.from('회의록\n고객 개인정보 목록\n');
    expect(lines(scan(file, q, 1000, { utf8: true }))).toEqual([[2, '고객 개인정보 목록']]);
    // An ASCII pattern has no CP949 form: one finder serves both.
    const ascii = query('hello');
    expect(ascii.utf8Finder).toBe(ascii.finder);
  });

  it('records a short line found by the whole-pattern needle without checking it, and checks every other', () => {
    expect(query('개인정보', { fixedString: true }).needleIsMatch).toBe(true);
    expect(query('개인\n정보', { fixedString: true }).needleIsMatch).toBe(false);
    expect(query('개인\ud800', { fixedString: true }).needleIsMatch).toBe(false); // UTF-8 cannot hold a lone surrogate as it is
    expect(query('개인정보', { fixedString: true, ignoreCase: true }).needleIsMatch).toBe(false);
    expect(query('개인정보').needleIsMatch).toBe(false); // a regex, even one that is all literal
    const q = query('개인정보', { fixedString: true });
    let looked = 0;
    const counting: Query = { ...q, match: (line, wantSpan) => (looked++, q.match(line, wantSpan)) };
    const long = `${'가'.repeat(400)} 개인정보 끝`;
    const file = Buffer.from(`회의록\n고객 개인정보 목록\n${long}\n`);
    expect(lines(scan(file, counting, 1000, { utf8: true }))).toEqual([
      [2, '고객 개인정보 목록'],
      [3, long],
    ]);
    expect(looked).toBe(1); // only the long line, for the span of its excerpt
    // Folded: the needle is a piece of the pattern; every candidate is checked.
    const folded = query('kelvin개', { fixedString: true, ignoreCase: true });
    expect(lines(scan(Buffer.from('xelvin개\nKELVIN개\n'), folded, 1000, { utf8: true }))).toEqual([[2, 'KELVIN개']]);
  });

  it('does not even look at a line that only the CP949 needle finds', () => {
    // '똠' is 8C 63 in CP949; in UTF-8, 'れ' ends with 8C and 'c' follows: the CP949 needle occurs.
    const file = Buffer.from('れc\n');
    expect(file.includes(iconv.encode('똠', 'cp949'))).toBe(true);
    const q = query('똠');
    let looked = 0;
    const counting: Query = { ...q, match: (line, wantSpan) => (looked++, q.match(line, wantSpan)) };
    expect(scan(file, counting)).toEqual([]);
    expect(looked).toBe(1); // without the host's word: the candidate line is decoded and checked
    looked = 0;
    expect(scan(file, counting, 1000, { utf8: true })).toEqual([]);
    expect(looked).toBe(0);
  });
});

describe('LineDecoder on well-formed UTF-8 (its own decoder)', () => {
  const pieces = ['a', 'Z', ' ', '\t', 'é', 'ß', '개인정보', '한', '€', '中', '😀', '𝄞', '\u0800', '\uffff', '\u0080', '\u07ff'];

  it('decodes every line as Buffer#toString does, 1- to 4-byte sequences alike', () => {
    const rand = prng(7);
    for (let round = 0; round < 300; round++) {
      const parts: string[] = [];
      for (let i = Math.floor(rand() * 40); i > 0; i--) parts.push(pieces[Math.floor(rand() * pieces.length)] as string);
      const line = `${parts.join('')}x`;
      const bytes = Buffer.from(`${line}\n`);
      const decoder = new LineDecoder(bytes, null, { utf8: true });
      expect(decoder.decode(0, bytes.length - 1)).toBe(line);
      expect(decoder.decided).toBe(/^[\x00-\x7f]*$/.test(line) ? null : 'utf-8'); // an ASCII line decides nothing
    }
  });

  it('leaves a sequence cut off at the end of a window to the native decoder (U+FFFD)', () => {
    const whole = Buffer.from('보고서\n');
    const cut = whole.subarray(0, 8); // 보고 and the first two bytes of 서
    expect(isValidUtf8(cut)).toBe(true); // a cut-off end is accepted: the window may continue
    expect(new LineDecoder(cut, null).decode(0, cut.length)).toBe(cut.toString('utf8'));
    expect(new LineDecoder(cut, null).decode(0, cut.length)).toContain('\ufffd');
  });

  it('does not trust a UTF-8 BOM: bad bytes after it still show as U+FFFD', () => {
    const bytes = Buffer.concat([Buffer.from('개인'), Buffer.from([0xff, 0xfe]), Buffer.from('정보')]);
    const decoder = new LineDecoder(bytes, 'utf-8', { utf8: false });
    expect(decoder.decode(0, bytes.length)).toBe(bytes.toString('utf8'));
    expect(decoder.decode(0, bytes.length)).toContain('\ufffd');
  });
});

describe('scanBytes on CP949 (Korean Windows)', () => {
  // '똠' is 8C 63 in CP949: its second byte is ASCII 'c'. A byte search for "c" finds it; the
  // decoded line must then decide.
  const legacy = iconv.encode('첫 줄\r\n둘째 줄 똠방각하 개인정보\r\n셋째 c줄\r\n', 'cp949');

  it('finds a Korean pattern in a CP949 file and shows the line decoded', () => {
    expect(lines(scan(legacy, query('개인정보')))).toEqual([[2, '둘째 줄 똠방각하 개인정보']]);
    expect(lines(scan(legacy, query('똠방', { fixedString: true })))).toEqual([[2, '둘째 줄 똠방각하 개인정보']]);
  });

  it('does not report a match inside a double-byte character', () => {
    expect(lines(scan(legacy, query('c', { fixedString: true })))).toEqual([[3, '셋째 c줄']]);
  });

  it('decides the encoding for the whole file, not by one line that happens to be valid UTF-8', () => {
    // "짜장" is C2 A5 C0 E5 in CP949; "짜" alone (C2 A5) is also valid UTF-8 ("¥"). Line 1 alone
    // would read as UTF-8; the rest of the file is not valid UTF-8, so the file is CP949.
    const file = iconv.encode('짜 menu\r\n짜장면 주문\r\n', 'cp949');
    expect(Buffer.from(file.subarray(0, 7)).toString('utf8')).toBe('¥ menu');
    expect(lines(scan(file, query('짜')))).toEqual([
      [1, '짜 menu'],
      [2, '짜장면 주문'],
    ]);
  });

  it('runs literal-free regexes on the decoded text', () => {
    expect(lines(scan(legacy, query('^[가-힣] [가-힣]$')))).toEqual([[1, '첫 줄']]);
  });
});

describe('scanText (UTF-16 files, decoded whole)', () => {
  it('splits lines like the byte path', () => {
    const hits: LineHit[] = [];
    scanText('첫 줄\r\n개인정보 둘째\r\n', query('개인'), 10, hits);
    expect(lines(hits)).toEqual([[2, '개인정보 둘째']]);
  });
});

describe('case-insensitive search', () => {
  it('matches ASCII case variants', () => {
    const q = query('deprecated', { ignoreCase: true, fixedString: true });
    expect(scan(Buffer.from('Deprecated\nDEPRECATED\nundeprecatedx\nnope'), q)).toHaveLength(3);
  });

  it('follows RE2 Unicode folding: k matches the Kelvin sign, s the long s', () => {
    const kelvin = Buffer.from('\u212aelvin\nkelvin\nſum\nSUM');
    expect(scan(kelvin, query('kelvin', { ignoreCase: true, fixedString: true }))).toHaveLength(2);
    expect(scan(kelvin, query('sum', { ignoreCase: true }))).toHaveLength(2);
  });

  it('folds Greek and Cyrillic through RE2', () => {
    expect(scan(Buffer.from('ΣΊΣΥΦΟΣ\nΜΟΣΧΑ'), query('σίσυφος', { ignoreCase: true, fixedString: true }))).toHaveLength(1);
  });
});

describe('RE2: linear time whatever the pattern', () => {
  const longA = Buffer.from(`${'a'.repeat(100_000)}!\n`.repeat(3));
  const commas = Buffer.from(`${'x,'.repeat(20_000)}\n`.repeat(3));
  for (const [pattern, hay] of [
    ['(a+)+$', longA],
    ['(a|aa)*b', longA],
    ['(.*,){11}P', commas],
    ['(x+x+)+y', Buffer.from(`${'x'.repeat(50_000)}\n`)],
  ] as const) {
    it(`${pattern} on long lines finishes fast`, () => {
      const start = performance.now();
      scan(hay, query(pattern));
      // Backtracking would need astronomically long; RE2 takes milliseconds. Generous for CI.
      expect(performance.now() - start).toBeLessThan(3000);
    });
  }
});

describe('compileQuery errors', () => {
  it('returns the RE2 message for an invalid regex', () => {
    const bad = compileQuery({ pattern: '(?=x)', ignoreCase: false, fixedString: false });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain('(?=');
  });

  it('takes any text with fixedString', () => {
    expect(compileQuery({ pattern: '(?=x)[', ignoreCase: false, fixedString: true }).ok).toBe(true);
  });
});

describe('excerpt', () => {
  it('keeps short lines whole and cuts long ones around the match', () => {
    const text = `${'a'.repeat(1000)}NEEDLE${'b'.repeat(1000)}`;
    const shown = excerpt({ line: 1, text, span: { start: 1000, end: 1006 } });
    expect(shown).toContain('NEEDLE');
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(LONG_LINE + 2);
    expect(excerpt({ line: 1, text: 'short', span: { start: 0, end: 0 } })).toBe('short');
  });

  it('finds the span of a regex match on a long line', () => {
    const hits = scan(Buffer.from(`${'x'.repeat(5000)} function fooSync() ${'y'.repeat(5000)}`), query('function\\s+\\w+Sync'));
    expect(excerpt(hits[0] as LineHit)).toContain('function fooSync');
  });

  it('blanks control characters (terminal escapes) but keeps tabs', () => {
    expect(excerpt({ line: 1, text: 'a\u001b[31mb\tc', span: { start: 0, end: 0 } })).toBe('a [31mb\tc');
  });
});

describe('the byte path agrees with decoding the whole file and testing every line', () => {
  // The reference is the definition: kit decodeText on the whole file, split into lines, RE2 on
  // each. The fast path (needles on raw bytes, lazy per-file encoding, companions) must give the
  // same line numbers for UTF-8 and CP949 files alike.
  const words = ['alpha', 'Beta', 'KELVIN', '\u212aelvin', 'ſum', 'sum', '개인정보', '짜', '똠방', 'readFileSync', 'c', '1234', '2024-01-05', ' ', ' ', '\t'];
  const patterns: Array<[string, boolean, boolean]> = [
    ['alpha', false, true],
    ['beta', true, true],
    ['kelvin', true, true],
    ['sum', true, false],
    ['개인정보', false, true],
    ['똠방', false, true],
    ['짜', false, false],
    ['c', false, true],
    ['read\\w+Sync', false, false],
    ['\\d{4}-\\d{2}', false, false],
    ['^\\s*$', false, false],
    ['alpha|똠', false, false],
    ['(?i)BETA\\s+\\w', false, false],
    // Companions: the line must hold "1234" and "sum" besides the needle (the scan jumps between them).
    ['alpha.*1234.*sum', false, false],
    ['Beta\\s*\\w*c', false, false],
  ];
  let seed = 3;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);

  it('on 300 generated files × 15 patterns', () => {
    for (let f = 0; f < 300; f++) {
      const lineCount = 1 + Math.floor(rand() * 12);
      const out: string[] = [];
      for (let l = 0; l < lineCount; l++) {
        const n = Math.floor(rand() * 6);
        let line = '';
        for (let w = 0; w < n; w++) line += words[Math.floor(rand() * words.length)] as string;
        out.push(line);
      }
      const eol = rand() < 0.3 ? '\r\n' : '\n';
      const text = out.join(eol) + (rand() < 0.5 ? eol : '');
      const cp949 = rand() < 0.4 && !/[\u212aſ]/.test(text);
      const file = cp949 ? iconv.encode(text, 'cp949') : Buffer.from(text);
      const decoded = decodeText(file).text;
      // As grep counts them: an empty file has no lines, a final newline ends the last line.
      const refLines = decoded === '' ? [] : decoded.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
      if (decoded.endsWith('\n')) refLines.pop();
      for (const [pattern, ignoreCase, fixedString] of patterns) {
        const re = RE2JS.compile(fixedString ? RE2JS.quote(pattern) : pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
        const expected = refLines.flatMap((l, i) => (re.test(l) ? [i + 1] : []));
        // Without the host's word on UTF-8, and with it (then a UTF-8 file is searched without
        // the CP949 needles: Query.utf8Finder).
        for (const whole of [undefined, { utf8: isUtf8(file) }]) {
          const got = scan(file, query(pattern, { ignoreCase, fixedString }), 1000, whole).map((h) => h.line);
          if (JSON.stringify(got) !== JSON.stringify(expected)) {
            expect.fail(`${pattern} (ic ${ignoreCase}, fixed ${fixedString}, cp949 ${cp949}, whole ${JSON.stringify(whole)}) on ${JSON.stringify(text)}: ${got} vs ${expected}`);
          }
        }
      }
    }
  });
});

describe('helpers agree with the kit', () => {
  it('isBinary follows kit looksBinary', () => {
    const samples = [
      new Uint8Array([0x41, 0x00, 0x42]),
      new Uint8Array([0xff, 0xfe, 0x41, 0x00]),
      new Uint8Array([0xfe, 0xff, 0x00, 0x41]),
      Buffer.concat([Buffer.alloc(8192, 0x41), Buffer.from([0])]),
      Buffer.concat([Buffer.alloc(8191, 0x41), Buffer.from([0])]),
      Buffer.from('plain text'),
      new Uint8Array([]),
    ];
    for (const s of samples) expect(isBinary(s)).toBe(looksBinary(s));
  });

  it('isValidUtf8 agrees with a fatal TextDecoder on generated byte strings', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    const bytes = [0x41, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff];
    let seed = 1;
    const next = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let k = 0; k < 20_000; k++) {
      const n = 1 + (k % 9);
      const u = new Uint8Array(n + 1);
      for (let j = 0; j < n; j++) u[j] = bytes[next() % bytes.length] as number;
      u[n] = 0x41; // a complete ending: the cut-off allowance does not apply
      let expected = true;
      try {
        strict.decode(u);
      } catch {
        expected = false;
      }
      if (isValidUtf8(u) !== expected) expect.fail(`disagree on ${Buffer.from(u).toString('hex')}`);
    }
  });
});
