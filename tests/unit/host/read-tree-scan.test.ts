import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReadTreeOptions, TreeFile, TreeScanRequest } from '../../../electron/common/file-access';
import type { ReadOutcome } from '../../../electron/main/host/files/read-outcome';
import { readTreeConfined, type ReadTreeRuntime } from '../../../electron/main/host/files/read-tree';
import { TreeReaderPool, type TreeJob } from '../../../electron/main/host/files/tree-reader-pool';
import { PartScans, scannedOf } from '../../../electron/main/host/files/tree-scan';
import { ECHO_SCAN } from '../../fixtures/tree-scan/echo-scan';
import { collect, confinerOf, makeSandbox, type Sandbox } from './sandbox';

/**
 * ReadTreeOptions.scan: the caller's scan runs on each file where it is read (the worker's part on
 * the worker, the main thread's on the main thread), its findings come with the file, and only a
 * module of the application itself is ever loaded.
 */

let box: Sandbox;
let pool: TreeReaderPool;
beforeAll(() => {
  pool = new TreeReaderPool();
});
afterAll(async () => {
  await pool.close();
});
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const echo: TreeScanRequest = { module: ECHO_SCAN, input: {} };

function readTree(options: ReadTreeOptions, runtime: ReadTreeRuntime = {}): AsyncGenerator<TreeFile> {
  return readTreeConfined(confinerOf(box), '.', options, { ignoreCase: false, maxReadBytes: 1 << 20 }, { pool, ...runtime });
}

/** 600 small files in 6 folders, each holding its own relative path. */
function files600(): string[] {
  const names: string[] = [];
  for (let d = 0; d < 6; d++) {
    mkdirSync(path.join(box.ws, `d${d}`));
    for (let i = 0; i < 100; i++) {
      const rel = `d${d}/f${String(i).padStart(2, '0')}.txt`;
      writeFileSync(path.join(box.ws, rel), rel);
      names.push(rel);
    }
  }
  return names;
}

async function waitIdle(): Promise<void> {
  for (const started = Date.now(); pool.busy; ) {
    if (Date.now() - started > 2000) throw new Error('the reader stayed busy');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('readTree with a scan', () => {
  it.each(['worker', 'main'] as const)('scans every file on the thread that reads it (%s) and hands the findings with the file', async (readers) => {
    const names = files600();
    let job: TreeJob | undefined;
    const files = await collect(readTree({ windowBytes: 1024, scan: echo }, { readers, onJob: (j) => (job = j) }));
    expect(files.map((f) => (f.ok ? f.scanned : f.code))).toEqual(names.map((rel) => [`${readers}:${rel}`]));
    await waitIdle();
    expect(job?.scanned).toBe(600);
  });

  it('shares the scanning between the threads when both read, each file scanned once', async () => {
    const names = files600();
    let job: TreeJob | undefined;
    const files = await collect(readTree({ windowBytes: 1024, scan: echo }, { onJob: (j) => (job = j) }));
    expect(files.map((f) => (f.ok ? f.scanned?.[0]?.replace(/^(worker|main):/, '') : f.code))).toEqual(names);
    await waitIdle();
    expect(job?.scanned).toBe(600);
  });

  it('hands a file the scanner leaves (null) or fails on without findings, and scans the rest', async () => {
    writeFileSync(path.join(box.ws, 'a.skip'), 'left to the caller');
    writeFileSync(path.join(box.ws, 'b.throw'), 'the scanner throws');
    writeFileSync(path.join(box.ws, 'c.txt'), 'scanned');
    for (const readers of ['worker', 'main'] as const) {
      const files = await collect(readTree({ windowBytes: 1024, scan: echo }, { readers }));
      expect(files.map((f) => [path.basename(f.path), f.ok ? f.scanned : f.code])).toEqual([
        ['a.skip', undefined],
        ['b.throw', undefined],
        ['c.txt', [`${readers}:scanned`]],
      ]);
    }
  });

  it('does not scan where it reads on the calling thread alone (an include filter)', async () => {
    writeFileSync(path.join(box.ws, 'a.txt'), 'a');
    const files = await collect(readTree({ windowBytes: 1024, scan: echo, include: () => true }));
    expect(files.map((f) => (f.ok ? f.scanned : f.code))).toEqual([undefined]);
  });

  it('loads no module from outside the application, and says why', async () => {
    writeFileSync(path.join(box.ws, 'a.txt'), 'a');
    // A module in the workspace that would leave a mark if it ever ran.
    const mark = path.join(box.outside, 'ran');
    const planted = path.join(box.ws, 'planted.mjs');
    writeFileSync(planted, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(mark)}, 'ran');\nexport function createTreeScanner() { return { scan: () => ['planted'] }; }\n`);
    const refusals: [string, RegExp][] = [
      [pathToFileURL(planted).href, /is not part of the application/],
      ['https://example.com/scan.js', /must be a file: URL/],
      ['not a url', /must be a file: URL/],
      [new URL('../../fixtures/tree-scan/no-entry.ts', import.meta.url).href, /exports no createTreeScanner/],
    ];
    for (const [module, message] of refusals) {
      await expect(collect(readTree({ windowBytes: 1024, scan: { module, input: {} } }))).rejects.toThrow(message);
    }
    await expect(collect(readTree({ windowBytes: 1024, scan: { module: ECHO_SCAN, input: { refuse: true } } }))).rejects.toThrow(/input refused/);
    expect(existsSync(mark)).toBe(false);
    // The reader still works after the refusals.
    expect((await collect(readTree({ windowBytes: 1024, scan: echo }))).map((f) => f.ok && f.scanned?.length)).toEqual([1, 1]);
  });
});

describe('PartScans', () => {
  const read = (length: number): ReadOutcome => ({ kind: 'read', size: length, slot: { view: new Uint8Array(8), offset: 0 }, length });
  const scanner = { scan: (file: { readonly path: string }) => (file.path === 'none' ? null : [`${file.path}-1`, `${file.path}-2`]) };
  const file = (p: string) => ({ ok: true as const, path: p, size: 1, bytes: new Uint8Array(1), complete: true, utf8: true, ascii: true });

  it("keeps each file's findings under its index, whatever order the files were read in", () => {
    const scans = new PartScans(scanner, 4);
    // Packed by index, not by the order of the reads.
    for (const [index, p] of [[3, 'd'], [2, 'none'], [1, 'b'], [0, 'a']] as const) scans.scan(index, file(p));
    const outcomes = new Map([0, 1, 2, 3].map((i) => [i, read(1)]));
    const packed = scans.pack(outcomes, 4);
    expect([0, 1, 2, 3].map((i) => scannedOf(packed, i))).toEqual([['a-1', 'a-2'], ['b-1', 'b-2'], undefined, ['d-1', 'd-2']]);
    expect(scans.scannedFiles).toBe(3);
  });

  it('leaves behind the findings of a file its folder proof refused', () => {
    const scans = new PartScans(scanner, 3);
    for (const [index, p] of [[0, 'a'], [1, 'moved'], [2, 'c']] as const) scans.scan(index, file(p));
    const outcomes = new Map<number, ReadOutcome>([
      [0, read(1)],
      [1, { kind: 'failed', code: 'OUTSIDE_ROOTS' }],
      [2, read(1)],
    ]);
    const packed = scans.pack(outcomes, 3);
    expect([0, 1, 2].map((i) => scannedOf(packed, i))).toEqual([['a-1', 'a-2'], undefined, ['c-1', 'c-2']]);
    // Nothing of the refused file crosses to the other thread.
    expect(packed.findings).toEqual(['a-1', 'a-2', 'c-1', 'c-2']);
  });
});
