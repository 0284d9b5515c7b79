import { mkdir, mkdtemp, realpath, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileAccess } from '../../../electron/common/file-access';
import { createFileAccess } from '../../../electron/main/host/files';
import { compileQuery, type Query } from '../../../tools/search/engine/query';
import { searchFiles, WINDOW_BYTES, type FileSource, type SearchOptions } from '../../../tools/search/engine/search-files';

/**
 * The search pipeline over the real host FileAccess on real files: windows of big files, early
 * stop of the walk, cancellation, files that vanish between walk and read.
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

/** The host capability with hooks around walk and reads (counting, aborting, deleting). */
function instrumented(inner: FileAccess, hooks: { onWalk?: () => void; beforeRead?: (path: string) => Promise<void> | void }): FileSource {
  return {
    display: (p) => inner.display(p),
    async *walk(path, opts) {
      for await (const entry of inner.walk(path, opts)) {
        hooks.onWalk?.();
        yield entry;
      }
    },
    async readBytes(path, opts) {
      await hooks.beforeRead?.(path);
      return inner.readBytes(path, opts);
    },
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

  it('stops walking once the result cap is reached', async () => {
    await writeMany(300, 'hit\nhit\n');
    let walked = 0;
    const report = await searchFiles(instrumented(files, { onWalk: () => walked++ }), options('hit', { maxResults: 5 }));
    expect(report.lines).toHaveLength(5);
    expect(report.stopped).toBe('maxResults');
    // Read-ahead walks a little further than needed, never the whole tree.
    expect(walked).toBeLessThan(60);
  });

  it('stops promptly when cancelled and reports it', async () => {
    await writeMany(200, 'no match here\n');
    const controller = new AbortController();
    let reads = 0;
    const source = instrumented(files, {
      beforeRead: () => {
        if (++reads === 10) controller.abort();
      },
    });
    const report = await searchFiles(source, options('absent', { signal: controller.signal }));
    expect(report.cancelled).toBe(true);
    expect(report.filesSearched).toBeLessThan(60);
  });

  it('lists a file that vanished between the walk and the read, and goes on', async () => {
    await writeFile(join(root, 'a.txt'), 'hit\n');
    await writeFile(join(root, 'b.txt'), 'hit\n');
    await writeFile(join(root, 'c.txt'), 'hit\n');
    const source = instrumented(files, {
      beforeRead: async (path) => {
        if (path.endsWith('b.txt')) await unlink(path).catch(() => undefined);
      },
    });
    const report = await searchFiles(source, options('hit'));
    expect(report.lines).toEqual(['a.txt:1:hit', 'c.txt:1:hit']);
    expect(report.unreadable).toEqual([{ path: 'b.txt', code: 'NOT_FOUND' }]);
  });

  it('applies the include filter before reading', async () => {
    await writeFile(join(root, 'a.md'), 'hit\n');
    await writeFile(join(root, 'b.txt'), 'hit\n');
    const read: string[] = [];
    const source = instrumented(files, { beforeRead: (p) => void read.push(p) });
    const report = await searchFiles(source, options('hit', { include: (p) => p.endsWith('.md') }));
    expect(report.lines).toEqual(['a.md:1:hit']);
    expect(read.map((p) => p.slice(root.length + 1))).toEqual(['a.md']);
  });
});
