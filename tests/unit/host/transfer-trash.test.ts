import { chmod, mkdir, readdir, readFile, readlink, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allNames, codeOf, makeSandbox, type Sandbox } from './sandbox';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const at = (...parts: string[]): string => path.join(box.ws, ...parts);

async function makeReportFolder(): Promise<void> {
  await mkdir(at('보고서', '2024', '분기'), { recursive: true });
  await writeFile(at('보고서', '2024', '보고서 2024.xlsx'), 'xlsx-bytes');
  await writeFile(at('보고서', '2024', '분기', '1분기.hwp'), 'hwp');
  await symlink('../보고서 2024.xlsx', at('보고서', '2024', '분기', '바로가기.xlsx'));
}

describe('move', () => {
  it('moves files and folders, with Korean names', async () => {
    await makeReportFolder();
    await mkdir(at('정리'));
    await box.files.move('보고서/2024/보고서 2024.xlsx', '정리/보고서 2024.xlsx');
    expect(await readFile(at('정리', '보고서 2024.xlsx'), 'utf8')).toBe('xlsx-bytes');
    await box.files.move('보고서', '정리/보고서');
    expect(await allNames(at('정리'))).toEqual([
      '보고서',
      '보고서 2024.xlsx',
      '보고서/2024',
      '보고서/2024/분기',
      '보고서/2024/분기/1분기.hwp',
      '보고서/2024/분기/바로가기.xlsx',
    ]);
    expect(await readdir(box.ws)).not.toContain('보고서');
  });

  it('refuses to overwrite unless asked, and never replaces a folder', async () => {
    await writeFile(at('a.txt'), 'A');
    await writeFile(at('b.txt'), 'B');
    await mkdir(at('dir'));
    expect(await codeOf(box.files.move('a.txt', 'b.txt'))).toBe('EXISTS');
    expect(await readFile(at('b.txt'), 'utf8')).toBe('B');
    await box.files.move('a.txt', 'b.txt', { overwrite: true });
    expect(await readFile(at('b.txt'), 'utf8')).toBe('A');
    expect(await codeOf(box.files.move('b.txt', 'dir', { overwrite: true }))).toBe('IS_DIRECTORY');
    expect(await codeOf(box.files.move('없음.txt', 'c.txt'))).toBe('NOT_FOUND');
    expect(await codeOf(box.files.move('b.txt', '없는폴더/b.txt'))).toBe('NOT_FOUND');
  });

  it('refuses moving a folder into itself; moving onto itself is a no-op', async () => {
    await mkdir(at('a', 'b'), { recursive: true });
    await expect(box.files.move('a', 'a/b/a')).rejects.toMatchObject({ code: 'INVALID_PATH', path: 'a/b/a' });
    await box.files.move('a', './a');
    expect((await stat(at('a', 'b'))).isDirectory()).toBe(true);
  });
});

describe('copy', () => {
  it('copies files keeping mode and modification time, refusing to overwrite unless asked', async () => {
    await writeFile(at('원본.txt'), '내용');
    await chmod(at('원본.txt'), 0o640);
    const mtime = new Date('2023-03-01T09:00:00Z');
    await utimes(at('원본.txt'), mtime, mtime);
    await box.files.copy('원본.txt', '사본.txt');
    expect(await readFile(at('사본.txt'), 'utf8')).toBe('내용');
    const copied = await stat(at('사본.txt'));
    expect(copied.mode & 0o777).toBe(0o640);
    expect(copied.mtimeMs).toBe(mtime.getTime());
    expect(await codeOf(box.files.copy('원본.txt', '사본.txt'))).toBe('EXISTS');
    await writeFile(at('원본.txt'), '새 내용');
    await box.files.copy('원본.txt', '사본.txt', { overwrite: true });
    expect(await readFile(at('사본.txt'), 'utf8')).toBe('새 내용');
    expect(await codeOf(box.files.copy('원본.txt', '원본.txt'))).toBe('EXISTS');
  });

  it('copies folders recursively, links inside the roots as links, and leaves no temp folder', async () => {
    await makeReportFolder();
    await box.files.copy('보고서', '보고서 사본');
    expect(await allNames(at('보고서 사본'))).toEqual(await allNames(at('보고서')));
    expect(await readlink(at('보고서 사본', '2024', '분기', '바로가기.xlsx'))).toBe('../보고서 2024.xlsx');
    expect(await readFile(at('보고서 사본', '2024', '분기', '1분기.hwp'), 'utf8')).toBe('hwp');
    expect((await readdir(box.ws)).filter((n) => n.includes('baram-tmp'))).toEqual([]);
    expect(await codeOf(box.files.copy('보고서', '보고서 사본'))).toBe('EXISTS');
    expect(await codeOf(box.files.copy('보고서', '보고서/2024/안'))).toBe('INVALID_PATH');
  });
});

describe('trash and restore', () => {
  it('round-trips a file with its metadata, outside the workspace', async () => {
    await writeFile(at('보고서 2024.xlsx'), '12345');
    const entry = await box.files.trash('보고서 2024.xlsx');
    expect(entry).toMatchObject({ originalPath: at('보고서 2024.xlsx'), type: 'file', size: 5 });
    expect(entry.trashId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{4}$/);
    expect(Date.parse(entry.deletedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await readdir(box.ws)).not.toContain('보고서 2024.xlsx');
    const meta = JSON.parse(await readFile(path.join(box.trashDir, entry.trashId, 'meta.json'), 'utf8')) as Record<string, unknown>;
    expect(meta).toMatchObject({ originalPath: at('보고서 2024.xlsx'), type: 'file', size: 5 });
    expect(await box.files.trashList()).toEqual([entry]);

    expect(await box.files.restore(entry.trashId)).toEqual(entry);
    expect(await readFile(at('보고서 2024.xlsx'), 'utf8')).toBe('12345');
    expect(await box.files.trashList()).toEqual([]);
    expect(await readdir(box.trashDir)).toEqual([]);
  });

  it('round-trips a folder (links kept verbatim) and recreates a missing parent', async () => {
    await makeReportFolder();
    const before = await allNames(at('보고서'));
    const entry = await box.files.trash('보고서/2024');
    expect(entry.type).toBe('directory');
    expect(entry.size).toBe('xlsx-bytes'.length + 'hwp'.length);
    await box.files.trash('보고서');
    await box.files.restore(entry.trashId);
    expect(await allNames(at('보고서'))).toEqual(before);
    expect(await readlink(at('보고서', '2024', '분기', '바로가기.xlsx'))).toBe('../보고서 2024.xlsx');
  });

  it('never overwrites on restore, knows only its own ids, lists newest first', async () => {
    await writeFile(at('a.txt'), 'old');
    const first = await box.files.trash('a.txt');
    await writeFile(at('a.txt'), 'new work');
    await expect(box.files.restore(first.trashId)).rejects.toMatchObject({ code: 'EXISTS', path: 'a.txt' });
    expect(await readFile(at('a.txt'), 'utf8')).toBe('new work');
    await new Promise((r) => setTimeout(r, 5));
    const second = await box.files.trash('a.txt');
    expect((await box.files.trashList()).map((e) => e.trashId)).toEqual([second.trashId, first.trashId]);
    expect(await codeOf(box.files.restore('20990101-000000-abcd'))).toBe('NOT_FOUND');
    expect(await codeOf(box.files.restore('../../ws'))).toBe('NOT_FOUND');
    expect(await codeOf(box.files.trash('없는 파일'))).toBe('NOT_FOUND');
  });

  it('ignores damaged trash entries instead of failing the whole list', async () => {
    await writeFile(at('a.txt'), 'x');
    const good = await box.files.trash('a.txt');
    await mkdir(path.join(box.trashDir, '20200101-000000-0000'));
    await writeFile(path.join(box.trashDir, '20200101-000000-0000', 'meta.json'), '{not json');
    await mkdir(path.join(box.trashDir, 'unrelated'));
    expect((await box.files.trashList()).map((e) => e.trashId)).toEqual([good.trashId]);
  });
});
