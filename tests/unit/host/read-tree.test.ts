import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReadTreeOptions, TreeFile } from '../../../electron/common/file-access';
import { readTreeConfined, type ReadTreeRuntime } from '../../../electron/main/host/files/read-tree';
import { TreeReader } from '../../../electron/main/host/files/tree-reader';
import { TreeReaderPool, type TreeJob } from '../../../electron/main/host/files/tree-reader-pool';
import { codeOf, collect, confinerOf, makeSandbox, type Sandbox } from './sandbox';

/**
 * FileAccess.readTree on real files: the same files as walk, in the same order, with their first
 * window, whichever way they are read (worker thread with or without the main thread's share,
 * or time-sliced on this thread); early stops reach the worker; a worker that cannot start
 * leaves the reading to this thread.
 */

let box: Sandbox;
const pools: TreeReaderPool[] = [];
// One worker for the tests that do not watch the pool itself (each start costs ~0.2 s from sources).
let shared: TreeReaderPool;
beforeAll(() => {
  shared = new TreeReaderPool();
});
afterAll(async () => {
  await shared.close();
});
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await box.cleanup();
});

async function put(rel: string, content: string | Uint8Array = 'x'): Promise<void> {
  await mkdir(path.dirname(path.join(box.ws, rel)), { recursive: true });
  await writeFile(path.join(box.ws, rel), content);
}

/** 2,000 small files in 20 folders, written synchronously (fast). */
function manyFiles(): void {
  for (let d = 0; d < 20; d++) {
    const dir = path.join(box.ws, `d${String(d).padStart(2, '0')}`);
    mkdirSync(dir);
    for (let i = 0; i < 100; i++) writeFileSync(path.join(dir, `f${i}.txt`), 'x');
  }
}

function newPool(options: { readonly entry?: URL } = {}): TreeReaderPool {
  const pool = new TreeReaderPool(options);
  pools.push(pool);
  return pool;
}

function readTree(given: string, options: ReadTreeOptions, runtime: ReadTreeRuntime): AsyncGenerator<TreeFile> {
  return readTreeConfined(confinerOf(box), given, options, { ignoreCase: false, maxReadBytes: 1 << 20 }, runtime);
}

const text = (f: TreeFile): string => (f.ok ? Buffer.from(f.bytes).toString('utf8') : `!${f.code}`);

async function waitUntil(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('readTree', () => {
  async function tree(): Promise<void> {
    await put('.gitignore', '*.log\nbuild/\n');
    await put('app.ts', 'const app = 1;\n');
    await put('debug.log', 'ignored');
    await put('build/out.js', 'ignored');
    await put('src/.gitignore', 'secret.txt\n!keep.log\n');
    await put('src/secret.txt', 'ignored');
    await put('src/keep.log', 'kept');
    await put('src/sub/.ignore', '*.tmp\n');
    await put('src/sub/a.tmp', 'ignored');
    await put('.git/config', 'never');
    await put('.hidden/x.ts', 'hidden');
    await put('한글/보고서.txt', '개인정보 보고서\n');
    await put('한글/옛글.txt', iconv.encode('개인정보 처리방침\n', 'cp949'));
    // Enough files for several batches, so the worker hands some to this thread.
    for (let i = 0; i < 240; i++) await put(`many/${String(Math.floor(i / 40))}/f${String(i).padStart(3, '0')}.txt`, `file ${i}\n`);
  }

  const modes: readonly [string, ReadTreeRuntime][] = [
    ['a worker, both threads reading (work stealing)', {}],
    ['a worker reading, this thread only searching', { readers: 'worker' }],
    ['a worker walking, this thread reading every file', { readers: 'main' }],
    ['this thread, time-sliced', { mode: 'in-thread' }],
    // Without native/tree-io (other platforms, a missing build): every file by path, each proven.
    ['a worker, by path', { openat: false }],
    ['this thread, by path', { mode: 'in-thread', openat: false }],
  ];

  it.each(modes)('yields what walk yields, in the same order, each with its content (%s)', async (_name, runtime) => {
    await tree();
    const walked = (await collect(box.files.walk('.'))).map((e) => e.path);
    const files = await collect(readTree('.', { windowBytes: 1 << 16 }, { pool: shared, ...runtime }));
    expect(files.map((f) => f.path)).toEqual(walked);
    expect(files.every((f) => f.ok && f.complete)).toBe(true);
    const byName = new Map(files.map((f) => [box.files.display(f.path), f]));
    expect(text(byName.get('app.ts') as TreeFile)).toBe('const app = 1;\n');
    expect(text(byName.get('many/3/f123.txt') as TreeFile)).toBe('file 123\n');
    expect(byName.get('src/keep.log')).toMatchObject({ ok: true, size: 4 });
    expect(byName.get('한글/보고서.txt')).toMatchObject({ utf8: true });
    expect(byName.get('한글/옛글.txt')).toMatchObject({ utf8: false });
    expect([...byName.keys()].some((p) => p.startsWith('.') || p.includes('ignored'))).toBe(false);
  });

  it('reads a file neither thread read ahead (over both byte bounds) when it hands it out, by path', async () => {
    // The worker's part of a plan stops at 4 MiB: with 1 MiB files (the host's read limit in these
    // tests) it reads four, and this thread (only searching) reads the rest when it gets there.
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const name of names) await put(`big/${name}.log`, name.repeat(1 << 20));
    let job: TreeJob | undefined;
    const files = await collect(readTree('.', { windowBytes: 8 << 20 }, { pool: shared, readers: 'worker', onJob: (j) => (job = j) }));
    expect(files.map((f) => [box.files.display(f.path), f.ok && f.bytes.length, f.ok && String.fromCharCode(f.bytes[0] as number)])).toEqual(
      names.map((name) => [`big/${name}.log`, 1 << 20, name]),
    );
    await waitUntil(() => !shared.busy, 2000);
    if (process.platform === 'linux') expect(job?.reads).toEqual({ relative: 4, byPath: 2 });
  });

  it('reads the first window of a larger file and says it is not complete', async () => {
    await put('big.txt', '0123456789abcdef');
    await put('small.txt', '0123');
    for (const runtime of modes.map(([, r]) => r)) {
      const files = await collect(readTree('.', { windowBytes: 10 }, { pool: shared, ...runtime }));
      expect(files.map((f) => [box.files.display(f.path), text(f), f.ok && f.complete, f.ok && f.size])).toEqual([
        ['big.txt', '0123456789', false, 16],
        ['small.txt', '0123', true, 4],
      ]);
    }
  });

  it('reads a file named as the start whatever the ignore rules say, and refuses bad starts', async () => {
    await put('.gitignore', '*.log\n');
    await put('debug.log', 'named');
    expect((await collect(box.files.readTree('debug.log', { windowBytes: 100 }))).map(text)).toEqual(['named']);
    expect(await codeOf(collect(box.files.readTree('nothing', { windowBytes: 100 })))).toBe('NOT_FOUND');
    expect(await codeOf(collect(box.files.readTree('../outside', { windowBytes: 100 })))).toBe('OUTSIDE_ROOTS');
    await expect(collect(box.files.readTree('.', { windowBytes: 0 }))).rejects.toThrow(RangeError);
  });

  it('stops after maxFiles and reads only what include accepts', async () => {
    for (let i = 0; i < 30; i++) await put(`f${String(i).padStart(2, '0')}.${i % 3 === 0 ? 'md' : 'txt'}`, `${i}`);
    const first = await collect(box.files.readTree('.', { windowBytes: 100, maxFiles: 4 }));
    expect(first.map((f) => box.files.display(f.path))).toEqual(['f00.md', 'f01.txt', 'f02.txt', 'f03.md']);
    const md = await collect(box.files.readTree('.', { windowBytes: 100, include: (p) => p.endsWith('.md') }));
    expect(md.map(text)).toEqual(['0', '3', '6', '9', '12', '15', '18', '21', '24', '27']);
  });

  it('stops the worker soon after the loop is left, and reuses it for the next tree', async () => {
    manyFiles();
    const pool = newPool();
    let job: TreeJob | undefined;
    for await (const file of readTree('.', { windowBytes: 100 }, { pool, onJob: (j) => (job = j) })) {
      expect(file.ok).toBe(true);
      break;
    }
    await waitUntil(() => !pool.busy, 2000);
    // Batches of 96 files, 8 ahead of the consumer at most: far fewer than the 2,000 there are.
    expect(job?.filesHandedOut).toBeLessThan(1100);
    expect((await collect(readTree('.', { windowBytes: 100 }, { pool }))).length).toBe(2000);
    expect(pool.workers).toBe(1);
  });

  it.runIf(process.platform === 'linux')('reads every file relative to its open folder on Linux, on both threads (none by path)', async () => {
    manyFiles();
    const pool = newPool();
    const who: readonly ReadTreeRuntime['readers'][] = ['worker', 'main', 'both'];
    for (const readers of who) {
      let job: TreeJob | undefined;
      expect(await collect(readTree('.', { windowBytes: 100 }, { pool, readers, onJob: (j) => (job = j) }))).toHaveLength(2000);
      await waitUntil(() => !pool.busy, 2000);
      // A descriptor the worker lost (a transferred, hence detached, array) sent it back to by-path reads.
      expect(job?.reads).toEqual({ relative: 2000, byPath: 0 });
    }
    let job: TreeJob | undefined;
    await collect(readTree('.', { windowBytes: 100 }, { pool, openat: false, onJob: (j) => (job = j) }));
    await waitUntil(() => !pool.busy, 2000);
    expect(job?.reads).toEqual({ relative: 0, byPath: 2000 });
  });

  it.runIf(process.platform === 'linux')('opens relative to open folders on Linux, and closes every folder it opened, at the end or left early', async () => {
    manyFiles();
    const reader = new TreeReader(confinerOf(box), box.ws, { respectIgnoreFiles: true, includeHidden: false, maxFiles: 10, windowBytes: 100, ignoreCase: false });
    expect(reader.opensRelative).toBe(true);
    const descriptors = (): number => readdirSync('/proc/self/fd').length;
    // A worker's own descriptors (its thread, its ports) come with its start: counted before.
    const pool = newPool();
    expect(await collect(readTree('.', { windowBytes: 100 }, { pool }))).toHaveLength(2000);
    await waitUntil(() => !pool.busy, 2000);
    const before = descriptors();
    // Left early, in a worker and on this thread: maxFiles and a loop left after the first file.
    for await (const _file of readTree('.', { windowBytes: 100 }, { pool })) break;
    await waitUntil(() => !pool.busy, 2000);
    expect(await collect(readTree('.', { windowBytes: 100, maxFiles: 150 }, { pool }))).toHaveLength(150);
    await waitUntil(() => !pool.busy, 2000);
    for await (const _file of readTree('.', { windowBytes: 100 }, { mode: 'in-thread' })) break;
    expect(reader.nextBatch({ bytes: 1 << 20, files: 5 }, () => false)).not.toBeNull();
    expect(descriptors()).toBeGreaterThan(before); // the root and d00 are open now
    reader.close();
    expect(descriptors()).toBe(before);
    // To the end.
    expect(await collect(readTree('.', { windowBytes: 100 }, { pool }))).toHaveLength(2000);
    await waitUntil(() => !pool.busy, 2000);
    expect(await collect(readTree('.', { windowBytes: 100 }, { mode: 'in-thread' }))).toHaveLength(2000);
    expect(descriptors()).toBe(before);
  });

  it('ends the iteration when the signal aborts, and stops the worker', async () => {
    manyFiles();
    const pool = newPool();
    const controller = new AbortController();
    let seen = 0;
    for await (const _file of readTree('.', { windowBytes: 100, signal: controller.signal }, { pool })) {
      if (++seen === 5) controller.abort();
    }
    expect(seen).toBe(5); // nothing more once aborted, though the batch in hand held more
    await waitUntil(() => !pool.busy, 2000);
  });

  it('goes on through time slices that find no file (in-thread reading)', async () => {
    // Listing 1,500 empty folders takes longer than one 4 ms slice; the file behind them counts.
    for (let i = 0; i < 1500; i++) mkdirSync(path.join(box.ws, `e${String(i).padStart(4, '0')}`));
    await put('z/last.txt', 'found');
    const files = await collect(readTree('.', { windowBytes: 100 }, { mode: 'in-thread' }));
    expect(files.map(text)).toEqual(['found']);
  });

  it('reads on this thread when no worker can start', async () => {
    for (let i = 0; i < 150; i++) await put(`f${String(i).padStart(3, '0')}.txt`, `${i}`);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const pool = newPool({ entry: new URL('./no-such-worker.js', import.meta.url) });
      const files = await collect(readTree('.', { windowBytes: 100 }, { pool }));
      expect(files.map(text)).toEqual(Array.from({ length: 150 }, (_, i) => String(i)));
      expect(pool.disabled).toBe(true);
      expect(warn).toHaveBeenCalledOnce();
    } finally {
      warn.mockRestore();
    }
  });
});
