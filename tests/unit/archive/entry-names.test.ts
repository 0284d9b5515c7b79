import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { checkEntryName, collisionKey, decodeEntryName, shownName } from '../../../tools/archive/entry-names';

describe('decodeEntryName', () => {
  const cp949 = (s: string) => new Uint8Array(iconv.encode(s, 'cp949'));

  it('reads CP949 names without the UTF-8 flag (Korean Windows), extended syllables included', () => {
    expect(decodeEntryName(cp949('똠방각하/견적서.hwp'), 0)).toEqual({ name: '똠방각하/견적서.hwp', encoding: 'cp949' });
  });

  it('reads UTF-8 names without the flag (macOS Archive Utility writes NFD so)', () => {
    const nfd = '휴가계.hwp'.normalize('NFD');
    expect(decodeEntryName(new TextEncoder().encode(nfd), 0)).toEqual({ name: nfd, encoding: 'utf-8' });
  });

  it('takes the flag at its word, and refuses bytes that break it', () => {
    expect(decodeEntryName(new TextEncoder().encode('보고서.txt'), 0x0800)?.name).toBe('보고서.txt');
    expect(decodeEntryName(cp949('보고서.txt'), 0x0800)).toBeNull();
  });
});

describe('checkEntryName', () => {
  it('gives NFC parts and says whether the entry is a folder', () => {
    expect(checkEntryName('사진/휴가.jpg'.normalize('NFD'))).toEqual({ parts: ['사진', '휴가.jpg'], directory: false });
    expect(checkEntryName('사진\\2024\\')).toEqual({ parts: ['사진', '2024'], directory: true });
  });

  it('keeps ordinary office names, brackets and dots included', () => {
    for (const name of ['[최종] 보고서(1).xlsx', '.hidden', 'a..b.txt', '2024.12.03 회의록.docx', 'console.log.txt', 'con-2.txt']) {
      expect(checkEntryName(name)).toHaveProperty('parts');
    }
  });

  it('refuses what would leave the folder or mean something else on Windows', () => {
    for (const name of ['..', '../x', 'a/..', '/x', '\\x', 'C:x', 'c:\\x', 'x\u0000', 'x\u2028y', 'AUX', 'com1.txt', 'COM¹', 'conout$', 'x:y', 'a<b', 'x.', 'x ', '', '/', 'a//b']) {
      expect(checkEntryName(name), name).toHaveProperty('refused');
    }
  });
});

describe('collisionKey and shownName', () => {
  it('folds case and normalisation', () => {
    expect(collisionKey(['Report', '휴가계.HWP'.normalize('NFD')])).toBe(collisionKey(['report', '휴가계.hwp']));
  });

  it('spells control characters out', () => {
    expect(shownName('a\nb\u0000')).toBe('a\\u000ab\\u0000');
  });
});
