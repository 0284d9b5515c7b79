import { chmod, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileAccess } from '../../../electron/main/host/files';
import { allNames, codeOf, collect, makeSandbox, type Sandbox } from './sandbox';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox({ maxReadBytes: 1024 });
});
afterEach(async () => {
  await box.cleanup();
});

describe('createFileAccess', () => {
  it('names a missing root in its error', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'baram-files-'));
    try {
      await expect(
        createFileAccess({ roots: [path.join(base, '없는폴더')], trashDir: path.join(base, 't'), protectedPaths: [] }),
      ).rejects.toThrow(/없는폴더/);
      await mkdir(path.join(base, 'ws'));
      await expect(
        createFileAccess({ roots: [path.join(base, 'ws')], trashDir: path.join(base, 'ws', '.trash'), protectedPaths: [] }),
      ).rejects.toThrow(/outside the workspace/);
      await expect(createFileAccess({ roots: ['relative/ws'], trashDir: path.join(base, 't'), protectedPaths: [] })).rejects.toThrow(
        /absolute/,
      );
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('creates the trash directory and realpaths the roots', async () => {
    expect((await stat(box.trashDir)).isDirectory()).toBe(true);
    expect(box.files.roots).toEqual([box.ws]);
  });
});

describe('resolve, display, check, stat', () => {
  it('resolves relative to the first root and displays relative to it', async () => {
    expect(box.files.resolve('보고서/a.txt')).toBe(path.join(box.ws, '보고서', 'a.txt'));
    expect(box.files.display(path.join(box.ws, '보고서', 'a.txt'))).toBe('보고서/a.txt');
    expect(box.files.display(box.ws)).toBe('.');
    expect(await box.files.check('새 폴더/없는 파일.txt')).toBe(path.join(box.ws, '새 폴더', '없는 파일.txt'));
  });

  it('stats files, folders and dangling links (lstat-based) and returns null for nothing', async () => {
    await writeFile(path.join(box.ws, 'a.txt'), 'hello');
    await chmod(path.join(box.ws, 'a.txt'), 0o640);
    await mkdir(path.join(box.ws, 'dir'));
    await symlink('missing-target', path.join(box.ws, 'dangling'));
    const file = await box.files.stat('a.txt');
    expect(file).toMatchObject({ path: path.join(box.ws, 'a.txt'), type: 'file', size: 5, mode: 0o640 });
    expect((await box.files.stat('dir'))?.type).toBe('directory');
    expect((await box.files.stat('dangling'))?.type).toBe('symlink');
    expect(await box.files.stat('nothing')).toBeNull();
    expect(await box.files.fingerprint('a.txt')).toEqual({ type: 'file', size: 5, mtimeMs: file?.mtimeMs, dev: expect.any(Number), ino: expect.any(Number) });
    expect(await box.files.fingerprint('a.txt', { content: true })).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await box.files.fingerprint('nothing')).toBeNull();
  });
});

describe('readBytes', () => {
  it('reads whole files, windows at an offset, and refuses big files without a window', async () => {
    const bytes = Buffer.alloc(4096, 7);
    bytes.write('header', 0);
    await writeFile(path.join(box.ws, 'big.bin'), bytes);
    await writeFile(path.join(box.ws, 'small.txt'), '안녕하세요');
    expect(Buffer.from(await box.files.readBytes('small.txt')).toString('utf8')).toBe('안녕하세요');
    expect(await codeOf(box.files.readBytes('big.bin'))).toBe('TOO_LARGE');
    expect(await codeOf(box.files.readBytes('big.bin', { maxBytes: 2048 }))).toBe('TOO_LARGE'); // not smaller than the cap
    expect(Buffer.from(await box.files.readBytes('big.bin', { maxBytes: 6 })).toString()).toBe('header');
    expect(Array.from(await box.files.readBytes('big.bin', { offset: 4094, maxBytes: 100 }))).toEqual([7, 7]);
    expect((await box.files.readBytes('big.bin', { offset: 3500 })).length).toBe(596); // the rest fits the cap
    expect((await box.files.readBytes('big.bin', { offset: 9999, maxBytes: 10 })).length).toBe(0);
  });

  it('reports folders and missing files by code, with the path as given', async () => {
    await mkdir(path.join(box.ws, '폴더'));
    expect(await codeOf(box.files.readBytes('폴더'))).toBe('IS_DIRECTORY');
    await expect(box.files.readBytes('없음.txt')).rejects.toMatchObject({ code: 'NOT_FOUND', path: '없음.txt' });
  });
});

describe('writeAtomic and mkdir', () => {
  it('creates, refuses to overwrite unless asked, keeps the mode of what it overwrites', async () => {
    await box.files.writeAtomic('보고서 2024.txt', '첫 번째', { overwrite: false });
    expect(await readFile(path.join(box.ws, '보고서 2024.txt'), 'utf8')).toBe('첫 번째');
    await expect(box.files.writeAtomic('보고서 2024.txt', 'x', { overwrite: false })).rejects.toMatchObject({
      code: 'EXISTS',
      path: '보고서 2024.txt',
    });
    await chmod(path.join(box.ws, '보고서 2024.txt'), 0o600);
    await box.files.writeAtomic('보고서 2024.txt', Buffer.from('두 번째', 'utf8'), { overwrite: true });
    expect(await readFile(path.join(box.ws, '보고서 2024.txt'), 'utf8')).toBe('두 번째');
    expect((await stat(path.join(box.ws, '보고서 2024.txt'))).mode & 0o777).toBe(0o600);
    expect(await allNames(box.ws)).toEqual(['.baram-audit', '.baram-audit/ledger.db', '보고서 2024.txt']);
  });

  it('needs the parent folder to exist; mkdir makes it and reports whether it did', async () => {
    expect(await codeOf(box.files.writeAtomic('a/b/c.txt', 'x', { overwrite: false }))).toBe('NOT_FOUND');
    expect(await box.files.mkdir('a/b')).toEqual({ created: true });
    expect(await box.files.mkdir('a/b')).toEqual({ created: false });
    await box.files.writeAtomic('a/b/c.txt', 'x', { overwrite: false });
    expect(await codeOf(box.files.mkdir('a/b/c.txt'))).toBe('NOT_DIRECTORY');
    expect(await codeOf(box.files.writeAtomic('a/b/c.txt/d', 'x', { overwrite: false }))).toBe('NOT_DIRECTORY');
    expect(await codeOf(box.files.writeAtomic('a', 'x', { overwrite: true }))).toBe('IS_DIRECTORY');
  });

  it('writes through a symlink that stays inside, keeping the link', async () => {
    await writeFile(path.join(box.ws, 'real.txt'), 'old');
    await symlink('real.txt', path.join(box.ws, 'alias.txt'));
    await box.files.writeAtomic('alias.txt', 'new', { overwrite: true });
    expect(await readFile(path.join(box.ws, 'real.txt'), 'utf8')).toBe('new');
    expect((await box.files.stat('alias.txt'))?.type).toBe('symlink');
  });
});

describe('list', () => {
  beforeEach(async () => {
    await mkdir(path.join(box.ws, 'b-dir', 'inner'), { recursive: true });
    await writeFile(path.join(box.ws, 'b-dir', 'inner', 'deep.txt'), 'd');
    await writeFile(path.join(box.ws, 'b-dir', 'x.txt'), 'x');
    await mkdir(path.join(box.ws, 'a-dir'));
    await writeFile(path.join(box.ws, '가.txt'), '1');
    await writeFile(path.join(box.ws, 'z.txt'), '22');
    await symlink(box.outside, path.join(box.ws, 'link-out'));
  });

  it('lists folders first, then by name, with symlinks as symlinks', async () => {
    const entries = await box.files.list('.');
    expect(entries.map((e) => [box.files.display(e.path), e.type])).toEqual([
      ['.baram-audit', 'directory'],
      ['a-dir', 'directory'],
      ['b-dir', 'directory'],
      ['link-out', 'symlink'],
      ['z.txt', 'file'],
      ['가.txt', 'file'],
    ]);
  });

  it('recurses depth-first without entering links or protected folders, up to maxEntries', async () => {
    expect(await codeOf(box.files.list(''))).toBe('INVALID_PATH');
    const all = await box.files.list('.', { recursive: true });
    expect(all.map((e) => box.files.display(e.path))).toEqual([
      '.baram-audit',
      'a-dir',
      'b-dir',
      'b-dir/inner',
      'b-dir/inner/deep.txt',
      'b-dir/x.txt',
      'link-out',
      'z.txt',
      '가.txt',
    ]);
    expect((await box.files.list('.', { recursive: true, maxEntries: 4 })).length).toBe(4);
    expect(await codeOf(box.files.list('z.txt'))).toBe('NOT_DIRECTORY');
    expect(await codeOf(box.files.list('nothing'))).toBe('NOT_FOUND');
  });
});

describe('glob', () => {
  it('expands 150 matches sorted, absolute, from the static base only', async () => {
    await mkdir(path.join(box.ws, '정리', '2024'), { recursive: true });
    await mkdir(path.join(box.ws, '기타'));
    const expected: string[] = [];
    for (let i = 0; i < 150; i++) {
      const name = path.join(box.ws, '정리', '2024', `보고서 ${String(i).padStart(3, '0')}.xlsx`);
      await writeFile(name, '');
      expected.push(name);
    }
    await writeFile(path.join(box.ws, '정리', '2024', '메모.txt'), '');
    await writeFile(path.join(box.ws, '기타', '보고서 999.xlsx'), '');
    const found = await box.files.glob('정리/**/*.xlsx');
    expect(found).toEqual(expected.sort());
    expect(await box.files.glob(path.join(box.ws, '정리', '2024', '보고서 00?.xlsx'))).toHaveLength(10);
    expect(await box.files.glob('**/보고서 999.xlsx')).toEqual([path.join(box.ws, '기타', '보고서 999.xlsx')]);
    expect(await codeOf(box.files.glob('**/*.xlsx', { maxMatches: 100 }))).toBe('TOO_LARGE');
  });

  it('returns a plain path (even one with glob characters) when it exists as written', async () => {
    await writeFile(path.join(box.ws, '[2024] 보고서.xlsx'), '');
    await writeFile(path.join(box.ws, '2 보고서.xlsx'), '');
    expect(await box.files.glob('[2024] 보고서.xlsx')).toEqual([path.join(box.ws, '[2024] 보고서.xlsx')]);
    expect(await box.files.glob('[0-9] 보고서.xlsx')).toEqual([path.join(box.ws, '2 보고서.xlsx')]);
    expect(await box.files.glob('없는 파일.xlsx')).toEqual([]);
    expect(await box.files.glob('없는폴더/*.xlsx')).toEqual([]);
  });

  it('skips hidden names unless spelled, never enters symlinks, excludes protected paths', async () => {
    await mkdir(path.join(box.ws, '.cache'));
    await writeFile(path.join(box.ws, '.cache', 'a.txt'), '');
    await writeFile(path.join(box.ws, 'b.txt'), '');
    await writeFile(path.join(box.outside, 'c.txt'), '');
    await symlink(box.outside, path.join(box.ws, 'out'));
    expect(await box.files.glob('**/*.txt')).toEqual([path.join(box.ws, 'b.txt')]);
    expect(await box.files.glob('.cache/*.txt')).toEqual([path.join(box.ws, '.cache', 'a.txt')]);
    expect(await box.files.glob('**')).not.toContain(path.join(box.ws, 'out', 'c.txt'));
    expect(await codeOf(box.files.glob('.baram-audit/*'))).toBe('FORBIDDEN');
    expect(await box.files.glob('.*')).toEqual([path.join(box.ws, '.cache')]);
    expect(await codeOf(box.files.glob('**/../*.txt'))).toBe('INVALID_PATH');
  });
});

describe('walk', () => {
  async function put(rel: string, content = 'x'): Promise<void> {
    await mkdir(path.dirname(path.join(box.ws, rel)), { recursive: true });
    await writeFile(path.join(box.ws, rel), content);
  }

  it('applies nested .gitignore/.ignore relative to their folder; skips .git and hidden; reports sizes', async () => {
    await put('.gitignore', '*.log\nbuild/\n');
    await put('app.ts', '12345');
    await put('debug.log');
    await put('build/out.js');
    await put('src/build/kept-not-ignored-by-root.js'); // "build/" ignores any build folder: not kept
    await put('src/.gitignore', 'secret.txt\n!keep.log\n');
    await put('src/secret.txt');
    await put('src/keep.log', 'kk');
    await put('src/main.ts');
    await put('src/sub/.ignore', '*.tmp\n');
    await put('src/sub/a.tmp');
    await put('src/sub/b.ts');
    await put('other/secret.txt'); // src/.gitignore does not reach here
    await put('node_modules/pkg/index.js'); // searched: not special-cased
    await put('.git/config');
    await put('.hidden/x.ts');
    await put('.env');
    const walked = await collect(box.files.walk('.'));
    expect(walked.map((e) => box.files.display(e.path))).toEqual([
      'app.ts',
      'node_modules/pkg/index.js',
      'other/secret.txt',
      'src/keep.log',
      'src/main.ts',
      'src/sub/b.ts',
    ]);
    expect(walked.find((e) => e.path.endsWith('app.ts'))?.size).toBe(5);
    expect(walked.find((e) => e.path.endsWith('keep.log'))?.size).toBe(2);

    const everything = await collect(box.files.walk('.', { respectIgnoreFiles: false, includeHidden: true }));
    const shown = everything.map((e) => box.files.display(e.path));
    expect(shown).toContain('debug.log');
    expect(shown).toContain('.hidden/x.ts');
    expect(shown).toContain('.env');
    expect(shown.some((p) => p.startsWith('.git/'))).toBe(false);
    expect(shown.some((p) => p.startsWith('.baram-audit'))).toBe(false);
  });

  it('stops at maxFiles, yields an explicitly named file, and refuses missing starts', async () => {
    for (let i = 0; i < 100; i++) await put(`many/f${String(i).padStart(3, '0')}.txt`);
    const first = await collect(box.files.walk('many', { maxFiles: 7 }));
    expect(first.map((e) => path.basename(e.path))).toEqual(['f000.txt', 'f001.txt', 'f002.txt', 'f003.txt', 'f004.txt', 'f005.txt', 'f006.txt']);
    await put('debug.log');
    await put('.gitignore', '*.log\n');
    expect((await collect(box.files.walk('debug.log'))).map((e) => path.basename(e.path))).toEqual(['debug.log']);
    await expect(collect(box.files.walk('nothing'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
