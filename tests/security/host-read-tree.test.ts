import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TreeFile } from '../../electron/common/file-access';
import { Confiner } from '../../electron/main/host/files/confine';
import { readTreeConfined } from '../../electron/main/host/files/read-tree';
import { OWN_BUFFER } from '../../electron/main/host/files/read-outcome';
import { readOneSync } from '../../electron/main/host/files/tree-reader';
import { treeIo, type TreeIo } from '../../electron/main/host/files/tree-io';
import { FolderOpener } from '../../electron/main/host/files/tree-reader-openat';
import { PartReader, PlanFiles, planOf, Slabs } from '../../electron/main/host/files/tree-reader-plan';
import { PAUSED, RESUMED } from '../../electron/main/host/files/tree-reader-protocol';
import { ECHO_SCAN } from '../fixtures/tree-scan/echo-scan';
import { collect, confinerOf, makeSandbox, type Sandbox } from '../unit/host/sandbox';

/**
 * FileAccess.readTree reads thousands of files per call, synchronously, on a worker thread and on
 * the main thread: confinement must hold exactly as in readBytes. Links are never followed, the
 * protected folders never read, and a folder swapped for a link while the tree is being read
 * never leads outside. Both ways of reading are held to it: by path, where every opened file is
 * proven (readlink of /proc/self/fd on Linux) to be the listed one before a byte of it is read;
 * and relative to open folders (native/tree-io, openat without following links), where every
 * folder is proven when opened and again before the files read from it are handed out.
 */

const SECRET = 'TOP SECRET';
let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
  await writeFile(path.join(box.ws, 'a.txt'), 'inside');
  await symlink(box.secret, path.join(box.ws, 'leak.txt'));
  await symlink(box.outside, path.join(box.ws, 'outdir'));
  await symlink(box.protectedInside, path.join(box.ws, 'sneaky'));
  await symlink(box.auditDir, path.join(box.ws, 'audit-link'));
  await writeFile(path.join(box.auditDir, 'ledger.db'), SECRET);
});
afterEach(async () => {
  await box.cleanup();
});

/** The tree read on this thread, with `beforeOpen` run just before each file is opened. */
function readHooked(b: Sandbox, beforeOpen: (p: string) => void, openat: boolean): Promise<TreeFile[]> {
  const options = { windowBytes: 1 << 16, includeHidden: true, respectIgnoreFiles: false };
  return collect(readTreeConfined(confinerOf(b), '.', options, { ignoreCase: false, maxReadBytes: 1 << 20 }, { mode: 'in-thread', beforeOpen, openat }));
}

const readings = [
  { name: 'by path', openat: false },
  // Off Linux there is no tree-io and this reads by path too: the expectations below still hold.
  { name: 'relative to open folders (tree-io)', openat: true },
] as const;
const relative = process.platform === 'linux';

function content(files: readonly TreeFile[]): string {
  return files.map((f) => (f.ok ? Buffer.from(f.bytes).toString('utf8') : '')).join('\n');
}

/** A scan that echoes each file's text (tests/fixtures/tree-scan), prefixed with the thread that scanned it. */
const echo = { module: ECHO_SCAN, input: {} };

/** What the scans found, without the thread's name. */
function findings(files: readonly TreeFile[]): string[] {
  return files.flatMap((f) => (f.ok ? (f.scanned ?? []).map((s) => s.replace(/^(worker|main):/, '')) : []));
}

/** a.txt read; all three files of d (twinFolders), moved out of the roots, refused with nothing of them handed out. */
function expectMovedOut(files: readonly TreeFile[]): void {
  expect(files.map((f) => [path.relative(box.ws, f.path), f.ok ? 'read' : f.code])).toEqual([
    ['a.txt', 'read'],
    ['d/1.txt', 'OUTSIDE_ROOTS'],
    ['d/2.txt', 'OUTSIDE_ROOTS'],
    ['d/3.txt', 'OUTSIDE_ROOTS'],
  ]);
  expect(content(files)).toBe('inside\n\n\n');
}

/** ws/d with files, and outside/d with files of the same names holding the secret. */
function twinFolders(b: Sandbox, names: readonly string[]): { readonly inside: string; readonly outside: string } {
  const inside = path.join(b.ws, 'd');
  const outside = path.join(b.outside, 'd');
  mkdirSync(inside);
  mkdirSync(outside);
  for (const name of names) {
    writeFileSync(path.join(inside, name), `inside ${name}`);
    writeFileSync(path.join(outside, name), `${SECRET} ${name}`);
  }
  return { inside, outside };
}

describe('readTree confinement', () => {
  it('never follows links and never reads protected folders (worker thread)', async () => {
    const files = await collect(box.files.readTree('.', { windowBytes: 1 << 16, includeHidden: true, respectIgnoreFiles: false, scan: echo }));
    expect(files.map((f) => path.relative(box.ws, f.path))).toEqual(['a.txt']);
    expect(content(files)).toBe('inside');
    expect(findings(files)).toEqual(['inside']);
  });

  it.each(readings)('reads nothing outside when a folder is swapped for a link between its listing and the open of its files ($name)', async ({ openat }) => {
    const { inside, outside } = twinFolders(box, ['1.txt', '2.txt', '3.txt']);
    const files = await readHooked(
      box,
      (p) => {
        if (p === path.join(inside, '2.txt')) {
          renameSync(inside, `${inside}-old`);
          symlinkSync(outside, inside);
        }
      },
      openat,
    );
    expect(content(files)).not.toContain(SECRET);
    const outcomes = files.map((f) => [path.relative(box.ws, f.path), f.ok ? 'read' : f.code]);
    if (openat && relative) {
      // The open folder is d-old now: its files are still the inside ones, but none is reported
      // under d/, where the link leads outside. The folder is proven again before the batch is
      // handed out: d/ is not d-old any more, so every file read from it in the batch is refused.
      expect(outcomes).toEqual([
        ['a.txt', 'read'],
        ['d/1.txt', 'CHANGED'],
        ['d/2.txt', 'CHANGED'],
        ['d/3.txt', 'CHANGED'],
      ]);
      expect(content(files)).not.toContain('inside 2.txt');
    } else {
      // 1.txt was read before the swap; 2.txt opened through the link is refused, unread; 3.txt too.
      expect(outcomes).toEqual([
        ['a.txt', 'read'],
        ['d/1.txt', 'read'],
        ['d/2.txt', 'OUTSIDE_ROOTS'],
        ['d/3.txt', 'OUTSIDE_ROOTS'],
      ]);
    }
  });

  it.runIf(relative)('hands out nothing of a folder moved out of the roots while its files are read (tree-io)', async () => {
    const { inside } = twinFolders(box, ['1.txt', '2.txt', '3.txt']);
    const moved = path.join(box.outside, 'moved');
    const files = await readHooked(
      box,
      (p) => {
        if (p === path.join(inside, '2.txt')) renameSync(inside, moved);
      },
      true,
    );
    // 2.txt and 3.txt were opened relative to the folder after it left: refused with 1.txt, which
    // shares their batch; nothing read from it is handed out.
    expectMovedOut(files);
  });

  it.runIf(relative)('hands out nothing the worker read of a folder moved out of the roots between its reads and its proof', async () => {
    const { inside } = twinFolders(box, ['1.txt', '2.txt', '3.txt']);
    const moved = path.join(box.outside, 'moved');
    // The worker reads everything (this thread only searches); it stops after its second file
    // (d/1.txt, after a.txt), and the folder leaves the roots before it reads on and proves.
    const pause = new Int32Array(new SharedArrayBuffer(8));
    pause[0] = 2;
    const options = { windowBytes: 1 << 16, includeHidden: true, respectIgnoreFiles: false, scan: echo };
    const runtime = { readers: 'worker' as const, workerPause: pause.buffer as SharedArrayBuffer };
    const reading = collect(readTreeConfined(confinerOf(box), '.', options, { ignoreCase: false, maxReadBytes: 1 << 20 }, runtime));
    for (const started = Date.now(); Atomics.load(pause, 1) !== PAUSED; ) {
      if (Date.now() - started > 4000) throw new Error('the worker did not pause');
      await new Promise((r) => setTimeout(r, 5));
    }
    renameSync(inside, moved);
    Atomics.store(pause, 1, RESUMED);
    Atomics.notify(pause, 1);
    const files = await reading;
    expectMovedOut(files);
    // The worker scanned d/1.txt before the move: its findings are dropped with its bytes.
    expect(findings(files)).toEqual(['inside']);
  });

  it.each(readings)('refuses what this thread read from a folder swapped for a link while it read ($name)', async ({ openat }) => {
    const names = Array.from({ length: 40 }, (_, i) => `${String(i).padStart(2, '0')}.txt`);
    const { inside, outside } = twinFolders(box, names);
    let read = 0;
    let swappedAt = '';
    const options = { windowBytes: 1 << 16, includeHidden: true, respectIgnoreFiles: false, scan: echo };
    const runtime = {
      openat,
      readers: 'main' as const,
      // The worker only walks; this thread reads every file, relative to the folders the worker
      // opened: at the second one in d, d becomes a link to outside.
      beforeMainRead: (p: string) => {
        if (path.dirname(p) !== inside || ++read !== 2) return;
        renameSync(inside, `${inside}-old`);
        symlinkSync(outside, inside);
        swappedAt = p;
      },
    };
    const files = await collect(readTreeConfined(confinerOf(box), '.', options, { ignoreCase: false, maxReadBytes: 1 << 20 }, runtime));
    expect(swappedAt).not.toBe('');
    expect(content(files)).not.toContain(SECRET);
    expect(findings(files).join('\n')).not.toContain(SECRET);
    expect(findings(files).length).toBeGreaterThan(0);
    // Read after the swap (relative to d-old, or refused by path): never reported as read under d/.
    const at = files.find((f) => f.path === swappedAt);
    expect(at === undefined || !at.ok).toBe(true);
    if (at !== undefined && !at.ok) expect(['CHANGED', 'OUTSIDE_ROOTS']).toContain(at.code);
  });

  it.each(readings)('does not enter a folder swapped for a link before it is listed ($name)', async ({ openat }) => {
    const { inside, outside } = twinFolders(box, ['1.txt']);
    const files = await readHooked(
      box,
      (p) => {
        if (p === path.join(box.ws, 'a.txt')) {
          renameSync(inside, path.join(box.ws, 'z-old'));
          symlinkSync(outside, inside);
        }
      },
      openat,
    );
    // The root was listed before the swap (so z-old is not in it); d, now a link, is not entered.
    expect(files.map((f) => path.relative(box.ws, f.path))).toEqual(['a.txt']);
    expect(content(files)).not.toContain(SECRET);
  });

  it.each(readings)('passes over a file swapped for a link between the listing and the open (O_NOFOLLOW, $name)', async ({ openat }) => {
    await writeFile(path.join(box.ws, 'b.txt'), 'harmless');
    const files = await readHooked(
      box,
      (p) => {
        if (p === path.join(box.ws, 'b.txt')) {
          rmSync(p);
          symlinkSync(box.secret, p);
        }
      },
      openat,
    );
    expect(files.map((f) => path.relative(box.ws, f.path))).toEqual(['a.txt']);
    expect(content(files)).not.toContain(SECRET);
  });

  it('opens no path outside the roots or protected, even one handed over directly (as a plan\'s file is)', () => {
    const place = OWN_BUFFER;
    expect(readOneSync(box.secret, confinerOf(box), 100, place)).toEqual({ kind: 'failed', code: 'OUTSIDE_ROOTS' });
    expect(readOneSync(path.join(box.protectedInside, 'ledger.db'), confinerOf(box), 100, place)).toEqual({ kind: 'failed', code: 'FORBIDDEN' });
    expect(readOneSync(path.join(box.ws, 'a.txt'), confinerOf(box), 100, place)).toMatchObject({ kind: 'read', size: 6, length: 6 });
  });

  it.runIf(relative)('reads no protected or outside file a plan lists, relative or not (as if handed over by a worker)', () => {
    // box.protectedInside lies inside the workspace; its files may not be read even where the
    // folder descriptor came from elsewhere (a plan's folder, opened by the worker).
    const io = treeIo() as TreeIo;
    const folders = new FolderOpener(io);
    const ledger = path.join(box.protectedInside, 'ledger.db');
    writeFileSync(ledger, SECRET);
    // A protected file (not only folders): its folder as a whole is not plain.
    const keyFile = path.join(box.ws, 'keys', 'seal.key');
    mkdirSync(path.dirname(keyFile));
    writeFileSync(keyFile, SECRET);
    const base = confinerOf(box);
    const confiner = new Confiner({ rules: base.rules, realRoots: [box.ws], lexicalRoots: [box.ws], protectedPaths: [box.auditDir, box.protectedInside, keyFile] });
    const cases: readonly [string, string][] = [
      [path.join(box.ws, 'a.txt'), 'read'],
      [ledger, 'FORBIDDEN'],
      [keyFile, 'FORBIDDEN'],
      [box.secret, 'OUTSIDE_ROOTS'],
    ];
    for (const [file, expected] of cases) {
      const fd = io.openFolder(-1, '', path.dirname(file));
      const walked = { paths: [file], folders: [fd], closeAfter: [] };
      const reader = new PartReader(new PlanFiles(planOf(0, walked)), folders, confiner, 100, { relative: 0, byPath: 0 });
      const outcome = reader.read(0, new Slabs(1024, () => null));
      reader.proveFolders();
      io.closeFd(fd);
      expect(outcome.kind === 'failed' ? outcome.code : outcome.kind).toBe(expected);
    }
  });

  it.each(readings)('reads nothing outside while another thread keeps swapping a folder and a link (worker thread, $name)', async ({ openat }) => {
    const names = Array.from({ length: 200 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);
    const { inside, outside } = twinFolders(box, names);
    await mkdir(path.join(box.ws, 'e'));
    for (const name of names) writeFileSync(path.join(box.ws, 'e', name), `inside ${name}`); // more batches
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const swaps = new Int32Array(new SharedArrayBuffer(4));
    const swapper = new Worker(
      `const { workerData: w } = require('node:worker_threads');
       const fs = require('node:fs');
       while (Atomics.load(w.stop, 0) === 0) {
         try {
           fs.renameSync(w.inside, w.inside + '-real');
           fs.symlinkSync(w.outside, w.inside);
           fs.unlinkSync(w.inside);
           fs.renameSync(w.inside + '-real', w.inside);
           Atomics.add(w.swaps, 0, 1);
         } catch {}
       }`,
      { eval: true, workerData: { stop, swaps, inside, outside } },
    );
    const seen = new Set<string>();
    try {
      const until = Date.now() + 1500;
      for (let round = 0; Date.now() < until || round < 5; round++) {
        for await (const file of readTreeConfined(confinerOf(box), '.', { windowBytes: 1 << 16 }, { ignoreCase: false, maxReadBytes: 1 << 20 }, { openat })) {
          expect(file.path.startsWith(`${box.ws}${path.sep}`)).toBe(true);
          if (!file.ok) {
            seen.add(file.code);
            continue;
          }
          expect(Buffer.from(file.bytes).toString('utf8')).not.toContain(SECRET);
        }
      }
    } finally {
      Atomics.store(stop, 0, 1);
      await new Promise((resolve) => swapper.once('exit', resolve));
    }
    expect(Atomics.load(swaps, 0)).toBeGreaterThan(10);
    // Whatever the race produced, it was refused or passed over: never anything but these codes.
    expect([...seen].filter((code) => code !== 'OUTSIDE_ROOTS' && code !== 'CHANGED')).toEqual([]);
  });
});
