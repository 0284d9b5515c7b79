import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/** The read-only filesystem tools through the real gate: no approvals, signposts on refusal. */

const open = useTestGate();

const office = {
  '보고서/3월 보고서.hwp': 'hwp',
  '보고서/매출.xlsx': 'xlsx-1',
  '보고서/2024/1분기.xlsx': 'xlsx-2',
  '다운로드/견적서.pdf': 'pdf',
  '다운로드/명단.csv': 'a,b\n',
  'readme.txt': 'hello\n',
};

describe('filesystem.list', () => {
  it('lists folders first (with /) and files with sizes', async () => {
    const g = await open({ files: office });
    const r = await g.call('filesystem.list', { path: '.' });
    expect(r.outcome).toBe('ok');
    // Each entry with its modification date (local time, minutes), so sorting by date needs no info calls.
    const date = String.raw`\d{4}-\d{2}-\d{2} \d{2}:\d{2}`;
    const lines = r.text.split('\n');
    expect(lines[0]).toBe("Folder '.': 2 folders, 1 file");
    expect(lines.slice(1).map((l) => l.replace(new RegExp(date, 'g'), 'DATE'))).toEqual(['다운로드/  (DATE)', '보고서/  (DATE)', 'readme.txt  (6 B, DATE)']);
    expect(g.approvals).toHaveLength(0);
  });

  it('filters by pattern; an empty pattern means everything (SPEC G-SCHEMA)', async () => {
    const g = await open({ files: office });
    const filtered = await g.call('filesystem.list', { path: '보고서', pattern: '*.xlsx', recursive: true });
    expect(filtered.text).toContain('매출.xlsx');
    expect(filtered.text).toContain('2024/1분기.xlsx');
    expect(filtered.text).not.toContain('hwp');
    const everything = await g.call('filesystem.list', { path: '보고서', pattern: '' });
    expect(everything.text).toContain('2024/');
    expect(everything.text).toContain('3월 보고서.hwp');
    expect(everything.text).toContain('매출.xlsx');
    const absent = await g.call('filesystem.list', { path: '보고서', pattern: null });
    expect(absent.text).toBe(everything.text);
  });

  it('says how to widen the search when nothing matches', async () => {
    const g = await open({ files: office });
    const r = await g.call('filesystem.list', { path: '보고서', pattern: '*.docx' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('filesystem.search');
  });

  it('refuses a file (signpost to filesystem.read) and a missing folder', async () => {
    const g = await open({ files: office });
    const file = await g.call('filesystem.list', { path: 'readme.txt' });
    expect(file.outcome).toBe('refused');
    expect(file.text).toContain('filesystem.read');
    const missing = await g.call('filesystem.list', { path: '없는폴더' });
    expect(missing.outcome).toBe('refused');
    expect(missing.text).toContain('filesystem.search');
  });

  it('caps long listings and says how to narrow them', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 520; i++) files[`many/f${String(i).padStart(3, '0')}.txt`] = 'x';
    const g = await open({ files });
    const r = await g.call('filesystem.list', { path: 'many' });
    const lines = r.text.split('\n');
    expect(lines[0]).toContain('more than 500');
    expect(lines.filter((l) => l.startsWith('f'))).toHaveLength(500);
    expect(r.text).toContain('pattern');
  });

  it('shows an empty folder as empty', async () => {
    const g = await open({ lang: 'ko' });
    await mkdir(join(g.workspace, '빈폴더'));
    const r = await g.call('filesystem.list', { path: '빈폴더' });
    expect(r.text).toBe("'빈폴더' 폴더가 비어 있습니다.");
  });
});

describe('filesystem.search', () => {
  it('finds files by glob at any depth', async () => {
    const g = await open({ files: office });
    const r = await g.call('filesystem.search', { namePattern: '*.xlsx' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('보고서/매출.xlsx');
    expect(r.text).toContain('보고서/2024/1분기.xlsx');
    expect(r.text).not.toContain('견적서');
    expect(r.details).toMatchObject({ count: 2 });
  });

  it('treats namePattern "" as no pattern: every file (seed: 7 real xlsx reported as none)', async () => {
    const g = await open({ files: office });
    const r = await g.call('filesystem.search', { path: '다운로드', namePattern: '' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('다운로드/견적서.pdf');
    expect(r.text).toContain('다운로드/명단.csv');
    expect(r.details).toMatchObject({ count: 2 });
  });

  it('finds names containing a plain word, folders included', async () => {
    const g = await open({ files: office });
    const r = await g.call('filesystem.search', { namePattern: '보고서' });
    expect(r.text).toContain('보고서/');
    expect(r.text).toContain('보고서/3월 보고서.hwp');
    expect(r.text).not.toContain('매출');
  });

  it('matches a pattern with a folder part against the relative path', async () => {
    const g = await open({ files: office });
    const r = await g.call('filesystem.search', { namePattern: '보고서/2024/*' });
    expect(r.text).toContain('1분기.xlsx');
    expect(r.details).toMatchObject({ count: 1 });
  });

  it('stays fast on a pattern that makes backtracking matchers explode', async () => {
    // picomatch needed 24 s for this pattern against one 200-character name (measured by the
    // host's glob-match.ts); the host matcher is linear.
    const g = await open({ files: { [`${'a'.repeat(200)}.txt`]: 'x' } });
    const started = performance.now();
    const r = await g.call('filesystem.search', { namePattern: '*a*a*a*a*a*a*a*a*ab' });
    expect(r.outcome).toBe('ok');
    expect(r.details).toMatchObject({ count: 0 });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reports no match with a hint, and refuses a file as the folder', async () => {
    const g = await open({ files: office, lang: 'ko' });
    const none = await g.call('filesystem.search', { namePattern: '*.pptx' });
    expect(none.outcome).toBe('ok');
    expect(none.text).toContain('없습니다');
    const file = await g.call('filesystem.search', { path: 'readme.txt', namePattern: '*' });
    expect(file.outcome).toBe('refused');
    expect(file.text).toContain('filesystem.read');
  });
});

describe('filesystem.info', () => {
  it('describes a text file with its encoding and line count', async () => {
    const g = await open({ files: { 'old.txt': iconv.encode('가\r\n나\r\n다\r\n', 'cp949') } });
    const r = await g.call('filesystem.info', { path: 'old.txt' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('Path: old.txt');
    expect(r.text).toContain('Type: file');
    expect(r.text).toContain('Size: 12 B');
    expect(r.text).toContain('encoding CP949');
    expect(r.text).toContain('Lines: 3');
    expect(r.text).toMatch(/Modified: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d/);
  });

  it('describes a folder with its contents, in Korean', async () => {
    const g = await open({ files: office, lang: 'ko' });
    const r = await g.call('filesystem.info', { path: '보고서' });
    expect(r.text).toContain('종류: 폴더');
    expect(r.text).toContain('내용: 파일 2개, 폴더 1개');
  });

  it('recognises binary content and refuses a missing path', async () => {
    const g = await open({ files: { 'x.bin': Uint8Array.from([1, 0, 2, 0]) } });
    expect((await g.call('filesystem.info', { path: 'x.bin' })).text).toContain('not text (binary)');
    const missing = await g.call('filesystem.info', { path: 'nope' });
    expect(missing.outcome).toBe('refused');
    expect(missing.text).toContain('filesystem.search');
  });
});
