import { describe, expect, it } from 'vitest';
import { countNoun, josa, quoted } from '../../tools/kit/format';
import { baseName, escapeGlob, hasGlobChars, isSameOrInside, joinPath, namePatternGlob, parentPath, relativeTo } from '../../tools/kit/paths';
import { detectLineEnding, encodeAs, renderDiff, splitLines, unencodable, wholeChange } from '../../tools/kit/text-file';

describe('Korean particles follow the last sound', () => {
  it.each([
    ['보고서', '을', '보고서를'],
    ['회의록', '을', '회의록을'],
    ['a.xlsx', '을', 'a.xlsx를'],
    ['report.html', '을', 'report.html을'],
    ['정리/2024', '로', '정리/2024로'],
    ['서울', '로', '서울로'],
    ['창고', '로', '창고로'],
    ['책상', '로', '책상으로'],
    ['2023', '로', '2023으로'],
    ['폴더', '이', '폴더가'],
    ['파일', '은', '파일은'],
    ['★', '을', '★을(를)'],
  ] as const)('%s + %s → %s', (word, particle, expected) => {
    expect(josa(word, particle)).toBe(expected);
  });

  it('quotes paths without letting $ patterns leak in', () => {
    expect(quoted('a$&b.txt', '을')).toBe("'a$&b.txt'를");
  });

  it('counts files, folders or mixed items', () => {
    expect(countNoun(['file', 'file'])).toEqual({ ko: '파일 2개', en: '2 files' });
    expect(countNoun(['directory'])).toEqual({ ko: '폴더 1개', en: '1 folder' });
    expect(countNoun(['file', 'directory'])).toEqual({ ko: '항목 2개', en: '2 items' });
  });
});

describe('lexical paths', () => {
  it('splits and joins POSIX and Windows paths', () => {
    expect(baseName('/w/보고서/2024.xlsx')).toBe('2024.xlsx');
    expect(baseName('C:\\w\\정리\\')).toBe('정리');
    expect(parentPath('/w/a.txt')).toBe('/w');
    expect(parentPath('C:\\a.txt')).toBe('C:\\');
    expect(joinPath('/w/정리', 'a.xlsx')).toBe('/w/정리/a.xlsx');
    expect(joinPath('D:\\정리', 'a.xlsx')).toBe('D:\\정리\\a.xlsx');
  });

  it('knows containment without prefix confusion, case-insensitively on Windows', () => {
    expect(isSameOrInside('/w/a/b', '/w/a')).toBe(true);
    expect(isSameOrInside('/w/ab', '/w/a')).toBe(false);
    expect(isSameOrInside('D:\\Work\\A', 'd:\\work')).toBe(true);
    expect(relativeTo('/w', '/w/x/y.txt')).toBe('x/y.txt');
  });
});

describe('name patterns become host globs', () => {
  it('matches names at any depth, or anchored when the pattern has a folder part', () => {
    expect(namePatternGlob('/w/보고서', '*.xlsx', true)).toBe('/w/보고서/**/*.xlsx');
    expect(namePatternGlob('/w/보고서', '*.xlsx', false)).toBe('/w/보고서/*.xlsx');
    expect(namePatternGlob('/w', '2024/*.csv', true)).toBe('/w/2024/*.csv');
    expect(namePatternGlob('/w', './*.csv', true)).toBe('/w/**/*.csv');
  });

  it('treats a plain word as "name contains"', () => {
    expect(namePatternGlob('/w', '보고서', true)).toBe('/w/**/*보고서*');
    expect(namePatternGlob('/w', '2024/회의', true)).toBe('/w/2024/*회의*');
  });

  it('keeps glob characters in folder names literal', () => {
    expect(escapeGlob('/w/[2024] 자료')).toBe('/w/[[]2024] 자료');
    expect(namePatternGlob('/w/{a}', '*.txt', false)).toBe('/w/[{]a}/*.txt');
  });

  it('knows which characters make a pattern (parentheses are literal, as in the host)', () => {
    expect(hasGlobChars('*.xlsx')).toBe(true);
    expect(hasGlobChars('[최종] 보고서.xlsx')).toBe(true);
    expect(hasGlobChars('보고서(1).xlsx')).toBe(false);
  });
});

describe('text files', () => {
  it('detects line endings', () => {
    expect(detectLineEnding('a\r\nb\r\n')).toBe('crlf');
    expect(detectLineEnding('a\nb')).toBe('lf');
    expect(detectLineEnding('a\r\nb\n')).toBe('mixed');
    expect(detectLineEnding('abc')).toBe('none');
  });

  it('splits lines without inventing an empty last line', () => {
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b']);
    expect(splitLines('')).toEqual([]);
  });

  it('finds characters CP949 cannot store, and none in plain Korean', () => {
    expect(unencodable('똠방각하 회의록', 'cp949')).toEqual([]);
    expect(unencodable('회의 😀 ✓?', 'cp949')).toEqual(['😀', '✓']);
    expect(unencodable('😀', 'utf-8')).toEqual([]);
  });

  it('encodes with the BOM of the encoding', () => {
    expect([...encodeAs('a', 'utf-8-bom')]).toEqual([0xef, 0xbb, 0xbf, 0x61]);
    expect([...encodeAs('가', 'utf-16be')]).toEqual([0xfe, 0xff, 0xac, 0x00]);
    expect([...encodeAs('가', 'cp949')]).toEqual([0xb0, 0xa1]);
  });

  it('renders a compact unified diff with context', () => {
    const before = ['1', '2', '3', '4', '5', '6'];
    const after = ['1', '2', '3', 'four', '5', '6'];
    expect(renderDiff(before, wholeChange(before, after), 'en')).toBe('@@ -2,5 +2,5 @@\n 2\n 3\n-4\n+four\n 5\n 6');
    expect(wholeChange(before, before)).toEqual([]);
  });
});
