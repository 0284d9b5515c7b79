import { describe, expect, it } from 'vitest';
import { FileAccessError } from '../../../electron/common/file-access';
import { createPathRules } from '../../../electron/main/host/files';

function invalid(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof FileAccessError) return `${e.code} ${e.path}`;
    throw e;
  }
  return 'accepted';
}

describe('path rules (POSIX)', () => {
  const rules = createPathRules({ platform: 'linux', home: '/home/kim' });
  const base = '/work/ws';

  it('resolves relative paths against the base and folds ..', () => {
    expect(rules.resolve('보고서/2024.xlsx', base)).toBe('/work/ws/보고서/2024.xlsx');
    expect(rules.resolve('a/../b/./c', base)).toBe('/work/ws/b/c');
    expect(rules.resolve('../../etc/passwd', base)).toBe('/etc/passwd');
    expect(rules.resolve('/abs//x/', base)).toBe('/abs/x');
  });

  it('expands ~ and ~/ only; ~user and Office lock files (~$x) are plain names', () => {
    expect(rules.resolve('~', base)).toBe('/home/kim');
    expect(rules.resolve('~/문서', base)).toBe('/home/kim/문서');
    expect(rules.resolve('~/../../etc', base)).toBe('/etc');
    expect(rules.resolve('~$보고서.xlsx', base)).toBe('/work/ws/~$보고서.xlsx');
    expect(rules.resolve('~root/x', base)).toBe('/work/ws/~root/x');
  });

  it('refuses empty paths and NUL bytes, naming what the caller gave', () => {
    expect(invalid(() => rules.resolve('', base))).toBe('INVALID_PATH ');
    expect(invalid(() => rules.resolve('   ', base))).toBe('INVALID_PATH    ');
    expect(invalid(() => rules.resolve('a\0b', base))).toBe('INVALID_PATH a\0b');
  });

  it('contains by whole segments, case-sensitively', () => {
    expect(rules.isInside('/work/ws', '/work/ws')).toBe(true);
    expect(rules.isInside('/work/ws/a', '/work/ws')).toBe(true);
    expect(rules.isInside('/work/ws2/a', '/work/ws')).toBe(false);
    expect(rules.isInside('/work/WS/a', '/work/ws')).toBe(false);
    expect(rules.isInside('/anything', '/')).toBe(true);
  });

  it('deny-list matching folds case on macOS, where the disk usually does', () => {
    const mac = createPathRules({ platform: 'darwin', home: '/Users/kim' });
    expect(mac.isInside('/Data/AUDIT/x', '/Data/audit')).toBe(false);
    expect(mac.isInsideFolded('/Data/AUDIT/x', '/Data/audit')).toBe(true);
  });

  it('gives display paths with forward slashes, "." for the root', () => {
    expect(rules.relative('/work/ws', '/work/ws')).toBe('.');
    expect(rules.relative('/work/ws', '/work/ws/보고서/a.txt')).toBe('보고서/a.txt');
    expect(rules.relative('/', '/x/y')).toBe('x/y');
  });
});

describe('path rules (Windows, simulated lexically)', () => {
  const rules = createPathRules({ platform: 'win32', home: 'C:\\Users\\kim' });
  const base = 'C:\\Work\\ws';

  it('accepts both separators and folds ..\\', () => {
    expect(rules.resolve('보고서/2024.xlsx', base)).toBe('C:\\Work\\ws\\보고서\\2024.xlsx');
    expect(rules.resolve('a\\..\\b', base)).toBe('C:\\Work\\ws\\b');
    expect(rules.resolve('..\\..\\Windows\\system.ini', base)).toBe('C:\\Windows\\system.ini');
    expect(rules.resolve('\\Windows', base)).toBe('C:\\Windows');
    expect(rules.resolve('~\\Desktop', base)).toBe('C:\\Users\\kim\\Desktop');
  });

  it('contains case-insensitively, with either separator and drive letter case', () => {
    expect(rules.isInside('c:\\work\\WS\\a.txt', 'C:\\Work\\ws')).toBe(true);
    expect(rules.isInside(rules.resolve('c:/WORK/ws/x', base), 'C:\\Work\\ws')).toBe(true);
    expect(rules.isInside('C:\\Work\\ws2', 'C:\\Work\\ws')).toBe(false);
    expect(rules.isInside(rules.resolve('..\\ws2\\x', base), 'C:\\Work\\ws')).toBe(false);
    expect(rules.isInside('D:\\Work\\ws\\x', 'C:\\Work\\ws')).toBe(false);
    expect(rules.isInside('\\\\server\\share\\ws', 'C:\\Work\\ws')).toBe(false);
    expect(rules.relative('C:\\Work\\ws', 'c:\\work\\ws\\보고서\\a.txt')).toBe('보고서/a.txt');
  });

  it('folds case code point by code point (ß is not SS)', () => {
    expect(rules.isInside('C:\\STRASSE\\x', 'C:\\straße')).toBe(false);
    expect(rules.isInside('C:\\STRAẞE\\x', 'C:\\straße')).toBe(false);
    expect(rules.isInside('C:\\ΟΔΟΣ\\x', 'C:\\οδοσ')).toBe(true);
  });

  it('refuses names Windows would reinterpret', () => {
    expect(invalid(() => rules.resolve('\\\\?\\C:\\Work\\ws\\..\\..\\x', base))).toMatch(/^INVALID_PATH/);
    expect(invalid(() => rules.resolve('//./PhysicalDrive0', base))).toMatch(/^INVALID_PATH/);
    expect(invalid(() => rules.resolve('D:report.txt', base))).toMatch(/^INVALID_PATH/);
    expect(invalid(() => rules.resolve('a.txt:secret', base))).toMatch(/^INVALID_PATH/);
    expect(invalid(() => rules.resolve('policy.json.', base))).toMatch(/^INVALID_PATH/);
    expect(invalid(() => rules.resolve('policy.json ', base))).toMatch(/^INVALID_PATH/);
    expect(invalid(() => rules.resolve('NUL', base))).toMatch(/^INVALID_PATH/);
    expect(invalid(() => rules.resolve('logs\\con.txt', base))).toMatch(/^INVALID_PATH/);
    expect(invalid(() => rules.resolve('*.xlsx', base))).toMatch(/^INVALID_PATH/);
    expect(invalid(() => rules.resolve('a\0', base))).toMatch(/^INVALID_PATH/);
    // Ordinary names stay fine, dots inside included.
    expect(rules.resolve('보고서 (최종).v2.xlsx', base)).toBe('C:\\Work\\ws\\보고서 (최종).v2.xlsx');
    expect(rules.resolve('console.txt', base)).toBe('C:\\Work\\ws\\console.txt');
  });
});
