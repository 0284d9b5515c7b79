import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/** search.text through the real gate and the real host file access, on a temp workspace. */

const open = useTestGate();

const bytes = (...parts: (number[] | Uint8Array)[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
/** The `path:LINE:text` lines of a result (summary and notes are in brackets). */
const hitLines = (text: string): string[] => text.split('\n').filter((l) => /^[^[].*:\d+:/.test(l));

describe('search.text finds text like grep', () => {
  it('prints path:LINE:text for each matching line, in folder order, without asking', async () => {
    const g = await open({
      files: {
        'src/app.js': 'const fs = require("fs");\nfs.readFileSync(a);\n',
        'src/lib/util.js': 'export function readFileSync() {}\n',
        'README.md': 'call readFileSync once\n',
        'notes.txt': 'nothing here\n',
      },
    });
    const r = await g.call('search.text', { pattern: 'readFileSync' });
    expect(r.outcome).toBe('ok');
    expect(hitLines(r.text)).toEqual(['README.md:1:call readFileSync once', 'src/app.js:2:fs.readFileSync(a);', 'src/lib/util.js:1:export function readFileSync() {}']);
    expect(r.text).toContain('3 matching line(s) in 3 file(s)');
    expect(r.details).toMatchObject({ matches: 3, filesWithMatches: 3, filesSearched: 4, capped: false });
    expect(g.approvals).toHaveLength(0);
  });

  it('supports RE2 regexes, ignoreCase and fixedString', async () => {
    const g = await open({ files: { 'a.ts': 'function readSync() {}\nFUNCTION  WriteSync\nprice (USD) 3.5*2\n' } });
    expect(hitLines((await g.call('search.text', { pattern: 'function\\s+\\w+Sync' })).text)).toEqual(['a.ts:1:function readSync() {}']);
    expect(hitLines((await g.call('search.text', { pattern: 'function\\s+\\w+Sync', ignoreCase: true })).text)).toHaveLength(2);
    expect(hitLines((await g.call('search.text', { pattern: '(USD) 3.5*2', fixedString: true })).text)).toEqual(['a.ts:3:price (USD) 3.5*2']);
  });

  it('finds a Korean word in UTF-8, UTF-8 with BOM, CP949 and UTF-16 files alike', async () => {
    const g = await open({
      files: {
        'utf8.txt': '회의록\n개인정보 처리 방침\n',
        'bom.txt': bytes([0xef, 0xbb, 0xbf], new TextEncoder().encode('개인정보 보호\n')),
        'cp949.txt': iconv.encode('똠방각하\r\n고객 개인정보 목록\r\n', 'cp949'),
        'utf16.txt': bytes([0xff, 0xfe], iconv.encode('첫 줄\r\n개인정보 내보내기\r\n', 'utf16le')),
        'utf16be.txt': bytes([0xfe, 0xff], iconv.encode('개인정보 BE\n', 'utf16be')),
      },
    });
    const r = await g.call('search.text', { pattern: '개인정보' });
    expect(hitLines(r.text)).toEqual([
      'bom.txt:1:개인정보 보호',
      'cp949.txt:2:고객 개인정보 목록',
      'utf16.txt:2:개인정보 내보내기',
      'utf16be.txt:1:개인정보 BE',
      'utf8.txt:2:개인정보 처리 방침',
    ]);
  });

  it('skips binary, hidden and .gitignore’d files, and says binaries were skipped', async () => {
    const g = await open({
      files: {
        'keep.txt': 'secret word\n',
        'image.png': bytes([0x89, 0x50, 0x4e, 0x47, 0, 0, 0], new TextEncoder().encode('secret word\n')),
        '.hidden.txt': 'secret word\n',
        '.config/x.txt': 'secret word\n',
        'build/out.txt': 'secret word\n',
        '.gitignore': 'build/\n',
      },
    });
    const r = await g.call('search.text', { pattern: 'secret' });
    expect(hitLines(r.text)).toEqual(['keep.txt:1:secret word']);
    expect(r.text).toContain('1 binary file(s) skipped');
  });

  it('searches one file given as path, and a folder given as path', async () => {
    const g = await open({ files: { 'a/one.txt': 'hit\n', 'a/two.txt': 'hit\n', 'b/three.txt': 'hit\n' } });
    expect(hitLines((await g.call('search.text', { pattern: 'hit', path: 'a/two.txt' })).text)).toEqual(['a/two.txt:1:hit']);
    expect(hitLines((await g.call('search.text', { pattern: 'hit', path: 'a' })).text)).toEqual(['a/one.txt:1:hit', 'a/two.txt:1:hit']);
    expect(hitLines((await g.call('search.text', { pattern: 'hit', path: '.' })).text)).toHaveLength(3);
  });

  it('filters files with glob: names, paths below the folder, plain words; "" means all', async () => {
    const g = await open({ files: { 'docs/a.md': 'hit\n', 'docs/b.txt': 'hit\n', 'src/c.md': 'hit\n', '보고서 2024.txt': 'hit\n' } });
    const search = async (glob: string, path?: string): Promise<string[]> =>
      hitLines((await g.call('search.text', { pattern: 'hit', glob, ...(path ? { path } : {}) })).text);
    expect(await search('*.md')).toEqual(['docs/a.md:1:hit', 'src/c.md:1:hit']);
    expect(await search('docs/*.md')).toEqual(['docs/a.md:1:hit']);
    expect(await search('*.MD')).toEqual(['docs/a.md:1:hit', 'src/c.md:1:hit']);
    expect(await search('보고서')).toEqual(['보고서 2024.txt:1:hit']);
    expect(await search('*.{md,txt}', 'docs')).toEqual(['docs/a.md:1:hit', 'docs/b.txt:1:hit']);
    expect(await search('')).toHaveLength(4);
  });

  it('cuts long lines around the match', async () => {
    const g = await open({ files: { 'min.js': `${'x'.repeat(50_000)}NEEDLE${'y'.repeat(50_000)}\n` } });
    const [line] = hitLines((await g.call('search.text', { pattern: 'NEEDLE' })).text);
    expect(line).toContain('NEEDLE');
    expect(line!.length).toBeLessThan(400);
  });

  it('finishes fast on patterns that make backtracking engines hang', async () => {
    const g = await open({ files: { 'long.txt': `${'a'.repeat(100_000)}!\n`, 'csv.txt': `${'x,'.repeat(30_000)}\n` } });
    const start = performance.now();
    expect((await g.call('search.text', { pattern: '(a+)+$' })).outcome).toBe('ok');
    expect((await g.call('search.text', { pattern: '(.*,){11}P' })).outcome).toBe('ok');
    expect(performance.now() - start).toBeLessThan(5000);
  });
});

describe('search.text caps its results', () => {
  const many = (n: number): string => Array.from({ length: n }, (_, i) => `match ${i + 1}`).join('\n');

  it('stops at 200 by default and says how to narrow the search', async () => {
    const g = await open({ files: { 'a.txt': many(150), 'b.txt': many(150), 'c.txt': many(150) } });
    const r = await g.call('search.text', { pattern: 'match' });
    expect(hitLines(r.text)).toHaveLength(200);
    expect(r.text).toContain('Results capped at 200');
    expect(r.text).toContain('glob');
    expect(r.details).toMatchObject({ matches: 200, capped: true });
  });

  it('clamps maxResults into [1, 2000] and does not call exactly N results capped', async () => {
    const g = await open({ files: { 'a.txt': many(2500) } });
    expect(hitLines((await g.call('search.text', { pattern: 'match', maxResults: 0 })).text)).toHaveLength(1);
    const big = await g.call('search.text', { pattern: 'match', maxResults: 99_999, path: 'a.txt' });
    expect(big.details).toMatchObject({ capped: true });
    expect(hitLines(big.text).length).toBeLessThanOrEqual(2000);
    const exact = await g.call('search.text', { pattern: 'match 1\\d$', maxResults: 10 });
    expect(hitLines(exact.text)).toHaveLength(10);
    expect(exact.details).toMatchObject({ capped: false });
  });

  it('stops before the model’s output budget instead of being cut mid-line', async () => {
    const g = await open({ files: { 'a.txt': Array.from({ length: 300 }, (_, i) => `match ${i} ${'z'.repeat(200)}`).join('\n') }, policy: { shell: { maxOutputChars: 5000 } } });
    const r = await g.call('search.text', { pattern: 'match' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('output limit');
    expect(r.text.length).toBeLessThanOrEqual(5000);
  });
});

describe('search.text explains what to do instead', () => {
  it('no match: suggests ignoreCase, a shorter pattern and filesystem.search', async () => {
    const g = await open({ files: { 'a.txt': 'hello\n' } });
    const r = await g.call('search.text', { pattern: 'Goodbye' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('ignoreCase');
    expect(r.text).toContain('filesystem.search');
  });

  it('answers in the session language (Korean first)', async () => {
    const g = await open({ files: { 'a.txt': 'x\n' }, lang: 'ko' });
    const r = await g.call('search.text', { pattern: 'a.b(', fixedString: true });
    expect(r.text).toContain('찾지 못했습니다');
    expect(r.text).toContain('filesystem.search');
  });

  it('invalid regex: refused before running, with RE2’s reason and the fixedString hint', async () => {
    const g = await open({ files: { 'a.txt': 'x\n' } });
    const r = await g.call('search.text', { pattern: 'foo(?=bar)' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('fixedString: true');
    expect(r.text).toContain('lookaround');
    expect(r.text).toContain('(?=');
  });

  it('empty pattern: refused with a pointer to the listing tools', async () => {
    const g = await open({ files: { 'a.txt': 'x\n' } });
    const r = await g.call('search.text', { pattern: '' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('filesystem.list');
  });

  it('missing path: refused with the file-error signpost', async () => {
    const g = await open({ files: { 'a.txt': 'x\n' } });
    const r = await g.call('search.text', { pattern: 'x', path: 'nope/없음' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('filesystem.search');
  });

  it('a path outside the workspace does not run', async () => {
    const g = await open({ files: { 'a.txt': 'x\n' } });
    const r = await g.call('search.text', { pattern: 'root', path: '/etc' });
    expect(r.outcome === 'denied' || r.outcome === 'refused').toBe(true);
  });
});
