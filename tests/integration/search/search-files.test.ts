import { isAscii, isUtf8 } from 'node:buffer';
import { renameSync, symlinkSync, unlinkSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileAccess, TreeFile } from '../../../electron/common/file-access';
import { createFileAccess, createPathRules } from '../../../electron/main/host/files';
import { Confiner } from '../../../electron/main/host/files/confine';
import { readTreeConfined, type ReadTreeRuntime } from '../../../electron/main/host/files/read-tree';
import { compileQuery, type Query } from '../../../tools/search/engine/query';
import { WINDOW_BYTES } from '../../../tools/search/engine/file-kind';
import { searchFiles, type FileSource, type SearchOptions } from '../../../tools/search/engine/search-files';

/**
 * The search pipeline over the real host FileAccess on real files: windows of big files, early
 * stop of the reading, cancellation, files that vanish or change between listing and open.
 */

let base: string;
let root: string;
let files: FileAccess;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-search-files-')));
  root = join(base, 'ws');
  await mkdir(root);
  files = await createFileAccess({ roots: [root], trashDir: join(base, 'trash'), protectedPaths: [] });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function query(pattern: string): Query {
  const compiled = compileQuery({ pattern, ignoreCase: false, fixedString: false });
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.query;
}

function options(pattern: string, extra: Partial<SearchOptions> = {}): SearchOptions {
  return { path: '.', query: query(pattern), include: null, maxResults: 1000, maxChars: 1_000_000, signal: new AbortController().signal, ...extra };
}

/** The host capability, counting the files the search takes from readTree. */
function counted(inner: FileAccess, onFile: () => void): FileSource {
  return {
    display: (p) => inner.display(p),
    async *readTree(path, opts) {
      for await (const file of inner.readTree(path, opts)) {
        onFile();
        yield file;
      }
    },
    readBytes: (path, opts) => inner.readBytes(path, opts),
  };
}

/** The host's readTree with a hook before each open (to change files there). */
function hooked(inner: FileAccess, beforeOpen: (path: string) => void): FileSource {
  const rules = createPathRules({ platform: process.platform, home: base });
  const confiner = new Confiner({ rules, realRoots: [root], lexicalRoots: [root], protectedPaths: [] });
  const runtime: ReadTreeRuntime = { beforeOpen };
  return {
    display: (p) => inner.display(p),
    readTree: (path, opts) => readTreeConfined(confiner, path, opts, { ignoreCase: false, maxReadBytes: 1 << 30 }, runtime),
    readBytes: (path, opts) => inner.readBytes(path, opts),
  };
}

/** readTree made of walk, stat and readBytes, one file at a time: the reference the bulk reader must agree with. */
function fileByFile(inner: FileAccess): FileSource {
  return {
    display: (p) => inner.display(p),
    async *readTree(path, opts): AsyncGenerator<TreeFile> {
      for await (const entry of inner.walk(path, opts)) {
        if (opts.include !== undefined && !opts.include(entry.path)) continue;
        const bytes = await inner.readBytes(entry.path, { maxBytes: opts.windowBytes });
        const size = (await inner.stat(entry.path))?.size ?? 0;
        yield { ok: true, path: entry.path, size, bytes, complete: size <= opts.windowBytes, utf8: isUtf8(bytes), ascii: isAscii(bytes) };
      }
    },
    readBytes: (path, opts) => inner.readBytes(path, opts),
  };
}

async function writeMany(count: number, content: string): Promise<void> {
  for (let i = 0; i < count; i++) await writeFile(join(root, `f${String(i).padStart(4, '0')}.txt`), content);
}

describe('searchFiles over the host FileAccess', () => {
  it('searches a file larger than one read window, with correct line numbers across the seam', async () => {
    const line = `${'x'.repeat(99)}\n`; // 100 bytes
    const linesPerWindow = Math.floor(WINDOW_BYTES / line.length);
    const late = linesPerWindow + 1000;
    const parts: string[] = [];
    for (let i = 1; i <= linesPerWindow + 2000; i++) parts.push(i === 5 || i === late ? `needle ${i}\n` : line);
    // Line number linesPerWindow starts about 200 bytes before the first window's end and is
    // 244 bytes long: it straddles the seam (and is short enough to be shown whole).
    parts[linesPerWindow - 1] = `${'y'.repeat(40)} needle seam ${'y'.repeat(190)}\n`;
    await writeFile(join(root, 'big.log'), parts.join(''));
    const report = await searchFiles(files, options('needle'));
    expect(report.lines).toHaveLength(3);
    expect(report.lines[0]).toBe('big.log:5:needle 5');
    expect(report.lines[1]).toMatch(new RegExp(`^big\\.log:${linesPerWindow}:y+ needle seam y+$`));
    expect(report.lines[2]).toBe(`big.log:${late}:needle ${late}`);
    expect(report.partial).toEqual([]);
  });

  it('passes over all-ASCII files when looking for Korean, on the host\'s ASCII flag, and only then', async () => {
    await writeFile(join(root, 'code.js'), 'function hello() {}\n');
    await writeFile(join(root, 'doc.txt'), '회의록\n개인정보 처리 방침\n');
    await writeFile(join(root, 'legacy.txt'), iconv.encode('옛 문서\n개인정보 보호\n', 'cp949'));
    await writeFile(join(root, 'export.txt'), iconv.encode('\ufeff내보내기\n개인정보 목록\n', 'utf16le'));
    const korean = ['doc.txt:2:개인정보 처리 방침', 'export.txt:2:개인정보 목록', 'legacy.txt:2:개인정보 보호'];
    expect((await searchFiles(files, options('개인정보'))).lines).toEqual(korean);
    // A source claiming every file is ASCII: the Korean search trusts the flag and finds nothing;
    // a search for ASCII text does not look at it.
    const allAscii: FileSource = {
      display: (p) => files.display(p),
      async *readTree(path, opts) {
        for await (const file of files.readTree(path, opts)) {
          yield file.ok ? { ok: true, path: file.path, size: file.size, bytes: file.bytes, complete: file.complete, utf8: file.utf8, ascii: true } : file;
        }
      },
      readBytes: (path, opts) => files.readBytes(path, opts),
    };
    expect((await searchFiles(allAscii, options('개인정보'))).lines).toEqual([]);
    expect((await searchFiles(allAscii, options('hello'))).lines).toEqual(['code.js:1:function hello() {}']);
  });

  it('searches on past an all-ASCII first window when looking for Korean (the flag is about the window only)', async () => {
    const line = `${'x'.repeat(99)}\n`;
    const ascii = line.repeat(Math.ceil(WINDOW_BYTES / line.length) + 10);
    await writeFile(join(root, 'big.txt'), `${ascii}개인정보 뒤쪽\n`);
    const report = await searchFiles(files, options('개인정보'));
    expect(report.lines).toEqual([`big.txt:${Math.ceil(WINDOW_BYTES / line.length) + 11}:개인정보 뒤쪽`]);
  });

  it('stops taking files once the result cap is reached', async () => {
    await writeMany(300, 'hit\nhit\n');
    let taken = 0;
    const report = await searchFiles(counted(files, () => taken++), options('hit', { maxResults: 5 }));
    expect(report.lines).toHaveLength(5);
    expect(report.stopped).toBe('maxResults');
    expect(taken).toBe(3); // 2 + 2 + 1 (and one more hit: the cap is known to be reached)
  });

  it('stops promptly when cancelled and reports it', async () => {
    await writeMany(200, 'no match here\n');
    const controller = new AbortController();
    let taken = 0;
    const source = counted(files, () => {
      if (++taken === 10) controller.abort();
    });
    const report = await searchFiles(source, options('absent', { signal: controller.signal }));
    expect(report.cancelled).toBe(true);
    expect(report.filesSearched).toBeLessThan(11);
  });

  it('passes over a file that vanished between the listing and the open, and goes on', async () => {
    await writeFile(join(root, 'a.txt'), 'hit\n');
    await writeFile(join(root, 'b.txt'), 'hit\n');
    await writeFile(join(root, 'c.txt'), 'hit\n');
    const source = hooked(files, (path) => {
      if (path.endsWith('b.txt')) unlinkSync(path);
    });
    const report = await searchFiles(source, options('hit'));
    expect(report.lines).toEqual(['a.txt:1:hit', 'c.txt:1:hit']);
    expect(report.unreadable).toEqual([]);
  });

  it('lists a file that could not be proven to be the listed one, reads nothing of it, and goes on', async () => {
    await mkdir(join(root, 'd'));
    await writeFile(join(root, 'd', 'a.txt'), 'hit\n');
    await writeFile(join(root, 'd', 'b.txt'), 'hit inside\n');
    await writeFile(join(root, 'e.txt'), 'hit after\n');
    const outside = join(base, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'b.txt'), 'hit SECRET\n');
    const source = hooked(files, (path) => {
      // The folder becomes a link to outside between its listing and the open of b.txt.
      if (path === join(root, 'd', 'b.txt')) {
        renameSync(join(root, 'd'), join(root, 'd-old'));
        symlinkSync(outside, join(root, 'd'));
      }
    });
    const report = await searchFiles(source, options('hit'));
    expect(report.lines).toEqual(['d/a.txt:1:hit', 'e.txt:1:hit after']);
    expect(report.unreadable).toEqual([{ path: 'd/b.txt', code: 'OUTSIDE_ROOTS' }]);
  });

  it('finds the same lines over the bulk reader as over walk and readBytes file by file', async () => {
    // Every kind of file: single windows of text, BOMs, CP949, UTF-16, binary, long lines; several batches.
    for (let d = 0; d < 4; d++) {
      const dir = join(root, `d${d}`);
      await mkdir(dir);
      for (let i = 0; i < 120; i++) {
        const line = i % 7 === 0 ? `hello World ${i} 개인정보 처리` : `plain ${i}`;
        await writeFile(join(dir, `f${String(i).padStart(3, '0')}.txt`), `head\n${line}\r\nHELLO  there\n`);
      }
    }
    await writeFile(join(root, 'bom.txt'), '\ufeffhello bom 개인정보\n');
    await writeFile(join(root, 'legacy.txt'), iconv.encode('옛 문서\nhello 개인정보 보호\n', 'cp949'));
    await writeFile(join(root, 'export.txt'), iconv.encode('\ufeffhello 내보내기\n개인정보 목록\n', 'utf16le'));
    await writeFile(join(root, 'image.bin'), Buffer.from('hello\0개인정보'));
    await writeFile(join(root, 'long.txt'), `${'x'.repeat(500)} hello 개인정보 \u0007bell ${'y'.repeat(500)}\n`);
    const cases: [string, boolean, boolean][] = [
      ['개인정보', false, true],
      ['hello', true, true],
      ['h.llo\\s+\\w+', false, false],
    ];
    for (const [pattern, ignoreCase, fixedString] of cases) {
      const compiled = compileQuery({ pattern, ignoreCase, fixedString });
      if (!compiled.ok) throw new Error(compiled.message);
      const search = (source: FileSource) => searchFiles(source, { ...options(pattern), query: compiled.query });
      const expected = await search(fileByFile(files));
      expect(expected.lines.length).toBeGreaterThan(60);
      expect(await search(files)).toEqual(expected);
    }
  });

  it('applies the include filter before reading', async () => {
    await writeFile(join(root, 'a.md'), 'hit\n');
    await writeFile(join(root, 'b.txt'), 'hit\n');
    const opened: string[] = [];
    const report = await searchFiles(
      hooked(files, (p) => void opened.push(p)),
      options('hit', { include: (p) => p.endsWith('.md') }),
    );
    expect(report.lines).toEqual(['a.md:1:hit']);
    expect(opened.map((p) => p.slice(root.length + 1))).toEqual(['a.md']);
  });
});
