import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TreeFile } from '../../electron/common/file-access';
import { Confiner } from '../../electron/main/host/files/confine';
import { proveByIdentity } from '../../electron/main/host/files/open-verified';
import { readOneSync, readTreeConfined } from '../../electron/main/host/files/read-tree';
import { collect, confinerOf, makeSandbox, type Sandbox } from '../unit/host/sandbox';

/**
 * FileAccess.readTree reads thousands of files per call with synchronous calls: confinement must
 * hold exactly as in readBytes. The invariant, whatever happens to the tree during the read:
 *   1. nothing outside the roots (or protected) is ever handed out, and
 *   2. every file handed out as read has the content of the inside file it names.
 * Links are never followed; each file is opened without following a link and proven, before a
 * byte of it is read, to be the listed file inside the roots. The folder swaps and moves below are
 * made at fixed points of the read, through the reader's beforeOpen seam: no timing, no sleeps.
 */

const SECRET = 'TOP SECRET';
let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
  await writeFile(path.join(box.ws, 'a.txt'), inside('a.txt'));
  await symlink(box.secret, path.join(box.ws, 'leak.txt'));
  await symlink(box.outside, path.join(box.ws, 'outdir'));
  await symlink(box.protectedInside, path.join(box.ws, 'sneaky'));
  await symlink(box.auditDir, path.join(box.ws, 'audit-link'));
  await writeFile(path.join(box.auditDir, 'ledger.db'), SECRET);
  await writeFile(path.join(box.protectedInside, 'ledger.db'), SECRET);
});
afterEach(async () => {
  await box.cleanup();
});

/** What the inside file at `rel` (relative to the workspace, '/'-separated) holds. */
function inside(rel: string): string {
  return `inside:${rel}`;
}

const rel = (p: string): string => path.relative(box.ws, p).split(path.sep).join('/');

/** Whether the reads reuse the memory of files handed out before (ReadTreeOptions.reuseBuffers, as search.text reads). */
let reuseBuffers = false;

/**
 * The tree read with `beforeOpen` run just before each file is opened; each file's bytes copied
 * as it is handed out (with reuseBuffers they are valid until the next one is asked for).
 */
async function readHooked(beforeOpen: (p: string) => void, confiner: Confiner = confinerOf(box)): Promise<TreeFile[]> {
  const options = { windowBytes: 1 << 16, includeHidden: true, respectIgnoreFiles: false, reuseBuffers };
  const out: TreeFile[] = [];
  for await (const f of readTreeConfined(confiner, '.', options, { ignoreCase: false, maxReadBytes: 1 << 20 }, { beforeOpen })) {
    out.push(f.ok ? { ...f, utf8: f.utf8, ascii: f.ascii, bytes: Uint8Array.from(f.bytes) } : f);
  }
  return out;
}

/**
 * The invariant: every file handed out lies inside the root, outside the protected folder, and
 * every one handed out as read holds exactly what the inside file of its name held.
 */
function expectInvariant(files: readonly TreeFile[]): void {
  for (const f of files) {
    expect(f.path.startsWith(`${box.ws}${path.sep}`)).toBe(true);
    expect(f.path.startsWith(box.protectedInside)).toBe(false);
    if (f.ok) expect(Buffer.from(f.bytes).toString('utf8')).toBe(inside(rel(f.path)));
  }
}

function outcomes(files: readonly TreeFile[]): [string, string][] {
  return files.map((f) => [rel(f.path), f.ok ? 'read' : f.code]);
}

/** ws/d with files, and outside/d with files of the same names holding the secret. */
function twinFolders(names: readonly string[], sub = ''): { readonly inside: string; readonly outside: string } {
  const ins = path.join(box.ws, 'd');
  const out = path.join(box.outside, 'd');
  for (const dir of [path.join(ins, sub), path.join(out, sub)]) mkdirSync(dir, { recursive: true });
  for (const name of names) {
    const r = path.posix.join('d', sub, name);
    writeFileSync(path.join(ins, sub, name), inside(r));
    writeFileSync(path.join(out, sub, name), `${SECRET} ${r}`);
  }
  return { inside: ins, outside: out };
}

function swapForLink(dir: string, target: string, aside: string): void {
  renameSync(dir, aside);
  symlinkSync(target, dir);
}

// Each file is proven by the kernel's name for its descriptor (Linux) or, where there is none
// (Windows, macOS), by realpath + device and inode: both proofs are held to the invariant.
// Both with fresh memory for each batch and with memory reused (as search.text reads).
const proofs = [
  { proof: 'the platform\'s proof', identity: false, reuse: false },
  { proof: 'realpath + identity (as on Windows)', identity: true, reuse: false },
  { proof: 'the platform\'s proof, buffers reused', identity: false, reuse: true },
  { proof: 'realpath + identity, buffers reused', identity: true, reuse: true },
] as const;

describe.each(proofs)('readTree confinement ($proof)', ({ identity, reuse }) => {
  beforeAll(() => {
    proveByIdentity(identity);
    reuseBuffers = reuse;
  });
  afterAll(() => {
    proveByIdentity(false);
    reuseBuffers = false;
  });

  it('never follows links and never reads protected folders', async () => {
    const files = await collect(box.files.readTree('.', { windowBytes: 1 << 16, includeHidden: true, respectIgnoreFiles: false }));
    expect(outcomes(files)).toEqual([['a.txt', 'read']]);
    expectInvariant(files);
  });

  it('reads nothing outside when a folder is swapped for a link between its listing and the open of its files', async () => {
    const { inside: d, outside } = twinFolders(['1.txt', '2.txt', '3.txt']);
    const files = await readHooked((p) => {
      if (p === path.join(d, '2.txt')) swapForLink(d, outside, `${d}-old`);
    });
    // 1.txt was read before the swap; 2.txt and 3.txt, opened through the link, are refused unread.
    expect(outcomes(files)).toEqual([
      ['a.txt', 'read'],
      ['d/1.txt', 'read'],
      ['d/2.txt', 'OUTSIDE_ROOTS'],
      ['d/3.txt', 'OUTSIDE_ROOTS'],
    ]);
    expectInvariant(files);
  });

  it('hands out nothing of a folder moved out of the roots while its files are read', async () => {
    const { inside: d } = twinFolders(['1.txt', '2.txt', '3.txt']);
    const files = await readHooked((p) => {
      if (p === path.join(d, '2.txt')) renameSync(d, path.join(box.outside, 'moved'));
    });
    // Gone from the roots: what was not yet opened is passed over (as walk passes over a vanished file).
    expect(outcomes(files)).toEqual([
      ['a.txt', 'read'],
      ['d/1.txt', 'read'],
    ]);
    expectInvariant(files);
  });

  it('reads nothing outside when a folder is moved out and a link to it put in its place', async () => {
    const { inside: d } = twinFolders(['1.txt', '2.txt', '3.txt']);
    const moved = path.join(box.outside, 'moved');
    const files = await readHooked((p) => {
      if (p === path.join(d, '2.txt')) swapForLink(d, moved, moved);
    });
    // The content is still the inside content, but it now lies outside the roots: refused.
    expect(outcomes(files)).toEqual([
      ['a.txt', 'read'],
      ['d/1.txt', 'read'],
      ['d/2.txt', 'OUTSIDE_ROOTS'],
      ['d/3.txt', 'OUTSIDE_ROOTS'],
    ]);
    expectInvariant(files);
  });

  it('refuses the files of a folder renamed inside the roots with a link put in its place', async () => {
    const { inside: d } = twinFolders(['1.txt', '2.txt', '3.txt']);
    const files = await readHooked((p) => {
      if (p === path.join(d, '2.txt')) swapForLink(d, path.join(box.ws, 'z'), path.join(box.ws, 'z'));
    });
    // d/ is a link to z/ (inside, listed after the root was: not in this read): a file opened
    // through it is proven not to be d/… and refused, though its content is the inside one.
    expect(outcomes(files)).toEqual([
      ['a.txt', 'read'],
      ['d/1.txt', 'read'],
      ['d/2.txt', 'CHANGED'],
      ['d/3.txt', 'CHANGED'],
    ]);
    expectInvariant(files);
  });

  it('does not enter a folder swapped for a link before it is listed, nor the folders below a swapped one', async () => {
    const { inside: d, outside } = twinFolders(['1.txt'], 'sub');
    writeFileSync(path.join(d, 'a-top.txt'), inside('d/a-top.txt'));
    writeFileSync(path.join(outside, 'a-top.txt'), SECRET);
    // d is listed (a-top.txt, sub/); before a-top.txt is opened, d becomes a link to outside/d, whose
    // sub/ holds the secret under the same names: a-top.txt is refused, sub/ is not entered.
    const files = await readHooked((p) => {
      if (p === path.join(d, 'a-top.txt')) swapForLink(d, outside, path.join(box.ws, 'old'));
    });
    expect(outcomes(files).filter(([r]) => r.startsWith('d/'))).toEqual([['d/a-top.txt', 'OUTSIDE_ROOTS']]);
    expectInvariant(files);

    // The root listed, then d swapped before anything of it is listed: not entered at all.
    rmSync(path.join(box.ws, 'd'));
    renameSync(path.join(box.ws, 'old'), d);
    const again = await readHooked((p) => {
      if (p === path.join(box.ws, 'a.txt')) swapForLink(d, outside, path.join(box.ws, 'zz'));
    });
    expect(outcomes(again)).toEqual([['a.txt', 'read']]);
    expectInvariant(again);
  });

  it('passes over a file swapped for a link between the listing and the open (O_NOFOLLOW)', async () => {
    await writeFile(path.join(box.ws, 'b.txt'), inside('b.txt'));
    const files = await readHooked((p) => {
      if (p === path.join(box.ws, 'b.txt')) {
        rmSync(p);
        symlinkSync(box.secret, p);
      }
    });
    expect(outcomes(files)).toEqual([['a.txt', 'read']]);
    expectInvariant(files);
  });

  it('holds at every file when a folder flips between itself and a link to outside at each open', async () => {
    const names = Array.from({ length: 200 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`); // several batches
    const { inside: d, outside } = twinFolders(names);
    const real = `${d}-real`;
    let linked = false;
    let flips = 0;
    const files = await readHooked((p) => {
      if (path.dirname(p) !== d && path.dirname(p) !== real) return;
      // Before each open in d: d becomes a link to outside, or back to the real folder, in turn.
      if (linked) {
        unlinkSync(d);
        renameSync(real, d);
      } else swapForLink(d, outside, real);
      linked = !linked;
      flips++;
    });
    expect(flips).toBe(200);
    // Each file opened while d was the real folder is read; each opened through the link is refused.
    const inD = files.filter((f) => rel(f.path).startsWith('d/'));
    expect(inD.map((f) => (f.ok ? 'read' : f.code))).toEqual(names.map((_, i) => (i % 2 === 0 ? 'OUTSIDE_ROOTS' : 'read')));
    expectInvariant(files);
  });

  it('reads no protected file, even one inside the roots, listed or named', async () => {
    const keyFile = path.join(box.ws, 'keys', 'seal.key');
    mkdirSync(path.dirname(keyFile));
    writeFileSync(keyFile, SECRET);
    writeFileSync(path.join(box.ws, 'keys', 'other.txt'), inside('keys/other.txt'));
    const base = confinerOf(box);
    const confiner = new Confiner({ rules: base.rules, realRoots: [box.ws], lexicalRoots: [box.ws], protectedPaths: [box.auditDir, box.protectedInside, keyFile] });
    const files = await readHooked(() => undefined, confiner);
    expect(outcomes(files)).toEqual([
      ['a.txt', 'read'],
      ['keys/other.txt', 'read'],
    ]);
    expectInvariant(files);
    // The per-file proof on its own refuses such paths, however they reach it.
    const place = (n: number): Uint8Array => new Uint8Array(n);
    expect(readOneSync(box.secret, confiner, 100, place)).toEqual({ kind: 'failed', code: 'OUTSIDE_ROOTS' });
    expect(readOneSync(path.join(box.protectedInside, 'ledger.db'), confiner, 100, place)).toEqual({ kind: 'failed', code: 'FORBIDDEN' });
    expect(readOneSync(keyFile, confiner, 100, place)).toEqual({ kind: 'failed', code: 'FORBIDDEN' });
    expect(readOneSync(path.join(box.ws, 'leak.txt'), confiner, 100, place)).toEqual({ kind: 'skipped' }); // a link: not followed
    expect(readOneSync(path.join(box.ws, 'a.txt'), confiner, 100, place)).toMatchObject({ kind: 'read', size: inside('a.txt').length });
  });
});
