import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileGlob } from '../../../electron/main/host/files/glob-match';
import { createPathRules } from '../../../electron/main/host/files/path-rules';
import { diskSpelling, hasNoTwin } from '../../../electron/main/host/files/spelling';

const rules = createPathRules({ platform: 'linux', home: '/home/u' });
const nfd = (s: string) => s.normalize('NFD');

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'baram-spelling-')));
  await writeFile(join(dir, nfd('휴가계.hwp')), '');
  await writeFile(join(dir, 'plain.txt'), '');
  await writeFile(join(dir, '보고서.hwp'.normalize('NFC')), '');
  await writeFile(join(dir, nfd('보고서.hwp')), '');
  await writeFile(join(dir, 'K.txt'), '');
  await writeFile(join(dir, '\u212A.txt'), ''); // KELVIN SIGN: NFC turns it into 'K'
  await mkdir(join(dir, nfd('다운로드')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('names as the disk spells them (issue 15 item 1)', () => {
  it('only U+037E, U+1FEF and U+212A normalise to ASCII, so other ASCII names have no twin', () => {
    const toAscii: number[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (/^[\u0000-\u007f]+$/.test(String.fromCodePoint(cp).normalize('NFC'))) toAscii.push(cp);
    }
    expect(toAscii).toEqual([0x37e, 0x1fef, 0x212a]);
    expect(hasNoTwin('report-2024.xlsx')).toBe(true);
    expect(hasNoTwin('KPI.xlsx')).toBe(false);
    expect(hasNoTwin('휴가계.hwp')).toBe(false);
  });

  it('finds the NFD spelling of an NFC name, keeps an exact one, and null for a missing one', () => {
    expect(diskSpelling(dir, '휴가계.hwp', rules, 'x')).toEqual({ name: nfd('휴가계.hwp'), link: false });
    expect(diskSpelling(dir, '다운로드', rules, 'x')).toEqual({ name: nfd('다운로드'), link: false });
    expect(diskSpelling(dir, 'plain.txt', rules, 'x')).toEqual({ name: 'plain.txt', link: false });
    expect(diskSpelling(dir, '없음.txt', rules, 'x')).toBeNull();
    expect(diskSpelling(join(dir, 'missing-folder'), '휴가계.hwp', rules, 'x')).toBeNull();
  });

  it('two spellings of one name are AMBIGUOUS, even when one is exactly what was typed', () => {
    for (const typed of ['보고서.hwp', nfd('보고서.hwp'), 'K.txt']) {
      expect(() => diskSpelling(dir, typed, rules, typed)).toThrow(expect.objectContaining({ code: 'AMBIGUOUS', path: typed }));
    }
  });

  it('globs match names normalised: a composed pattern finds a decomposed name and back', () => {
    const options = { nocase: false, escapes: false };
    expect(compileGlob('휴가*', options).match(nfd('휴가계.hwp'))).toBe(true);
    expect(compileGlob(nfd('휴가*'), options).match('휴가계.hwp')).toBe(true);
    expect(compileGlob('다운로드/*.hwp', options).match(`${nfd('다운로드')}/${nfd('휴가계.hwp')}`)).toBe(true);
    expect(compileGlob('휴?계.hwp', options).match(nfd('휴가계.hwp'))).toBe(true);
  });
});
