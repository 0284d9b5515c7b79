import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileAccessError } from '../../electron/common/file-access';
import { createFileAccess, createPathRules } from '../../electron/main/host/files';
import { commitTemp, createTemp } from '../../electron/main/host/files/atomic';
import { Confiner } from '../../electron/main/host/files/confine';
import { verifyByIdentity } from '../../electron/main/host/files/open-verified';
import { allNames, codeOf, makeSandbox, type Sandbox } from '../unit/host/sandbox';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

describe('atomic writes', () => {
  it('overwrite:false under a race: exactly one writer wins, the rest get EXISTS, no temp files remain', async () => {
    const writers = Array.from({ length: 24 }, (_, i) => box.files.writeAtomic('경쟁.txt', `writer ${i}\n`.repeat(1000), { overwrite: false }));
    const results = await Promise.allSettled(writers);
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(won).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'EXISTS', path: '경쟁.txt' });
    }
    expect(await readFile(path.join(box.ws, '경쟁.txt'), 'utf8')).toBe(`writer ${won[0]}\n`.repeat(1000));
    expect(await allNames(box.ws)).toEqual(['.baram-audit', '.baram-audit/ledger.db', '경쟁.txt']);
  });

  it('a file that appears between the check and the commit is never clobbered', async () => {
    const temp = await createTemp(box.ws, 'target.txt', path);
    await temp.handle.writeFile('ours');
    await temp.handle.close();
    // Another program creates the target after our existence check…
    await writeFile(path.join(box.ws, 'target.txt'), 'theirs');
    // …so the no-overwrite commit must fail instead of renaming over it.
    await expect(commitTemp(temp.path, path.join(box.ws, 'target.txt'), false)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(path.join(box.ws, 'target.txt'), 'utf8')).toBe('theirs');
    await rm(temp.path);
  });

  it('a concurrent reader sees the old or the new content, never a mix or a short file', async () => {
    const size = 512 * 1024;
    const versions = ['A', 'B', 'C', 'D'].map((c) => c.repeat(size));
    await box.files.writeAtomic('big.txt', versions[0] as string, { overwrite: false });
    let stop = false;
    const seen = new Set<string>();
    const reader = (async () => {
      while (!stop) {
        const text = await readFile(path.join(box.ws, 'big.txt'), 'utf8');
        seen.add(text.length === size && new Set(text).size === 1 ? (text[0] as string) : `torn:${text.length}`);
      }
    })();
    for (let round = 0; round < 12; round++) {
      await box.files.writeAtomic('big.txt', versions[round % versions.length] as string, { overwrite: true });
    }
    stop = true;
    await reader;
    expect([...seen].filter((s) => s.startsWith('torn'))).toEqual([]);
    expect(seen.size).toBeGreaterThan(0);
    expect(await allNames(box.ws)).toEqual(['.baram-audit', '.baram-audit/ledger.db', 'big.txt']);
  });

  it('failed writes leave nothing behind', async () => {
    await writeFile(path.join(box.ws, 'exists.txt'), 'keep');
    expect(await codeOf(box.files.writeAtomic('exists.txt', 'x', { overwrite: false }))).toBe('EXISTS');
    expect(await codeOf(box.files.writeAtomic('no/such/dir.txt', 'x', { overwrite: false }))).toBe('NOT_FOUND');
    expect(await readFile(path.join(box.ws, 'exists.txt'), 'utf8')).toBe('keep');
    expect(await allNames(box.ws)).toEqual(['.baram-audit', '.baram-audit/ledger.db', 'exists.txt']);
  });
});

describe('identity check where the kernel cannot name an open file (macOS/Windows path)', () => {
  function confinerFor(b: Sandbox): Confiner {
    return new Confiner({
      rules: createPathRules({ platform: process.platform, home: b.base }),
      realRoots: [b.ws],
      lexicalRoots: [b.ws],
      protectedPaths: [],
    });
  }

  it('accepts the checked file, refuses one reached through a swapped-in folder link or replaced', async () => {
    const confiner = confinerFor(box);
    const dir = path.join(box.ws, 'd');
    await mkdir(dir);
    await writeFile(path.join(dir, 'f.txt'), 'inside');
    const checked = path.join(dir, 'f.txt');
    const held = await open(checked, 'r');
    const heldStat = await held.stat();
    await verifyByIdentity(heldStat, checked, confiner, 'd/f.txt');

    await writeFile(path.join(box.ws, 'g.txt'), 'other');
    await rename(path.join(box.ws, 'g.txt'), checked);
    await expect(verifyByIdentity(heldStat, checked, confiner, 'd/f.txt')).rejects.toMatchObject({ code: 'CHANGED' });

    await rename(dir, path.join(box.ws, 'd-old'));
    await symlink(box.outside, dir);
    await writeFile(path.join(box.outside, 'f.txt'), 'outside');
    await expect(verifyByIdentity(heldStat, checked, confiner, 'd/f.txt')).rejects.toMatchObject({ code: 'OUTSIDE_ROOTS' });
    await held.close();
  });
});

// /dev/shm is a separate tmpfs on Linux: a trash on another drive than the workspace (D: vs C:).
async function otherDeviceDir(): Promise<string | null> {
  try {
    const dir = await mkdtemp('/dev/shm/baram-trash-');
    if ((await stat(dir)).dev === (await stat(os.tmpdir())).dev) {
      await rm(dir, { recursive: true });
      return null;
    }
    return dir;
  } catch {
    return null;
  }
}
const crossDevice = await otherDeviceDir();

describe.skipIf(crossDevice === null)('trash on another device (copy + remove instead of rename)', () => {
  afterEach(async () => {
    if (crossDevice !== null) await rm(crossDevice, { recursive: true, force: true });
  });

  it('round-trips a folder with Korean names and links across devices', async () => {
    const files = await createFileAccess({ roots: [box.ws], trashDir: path.join(crossDevice as string, 'trash'), protectedPaths: [] });
    await mkdir(path.join(box.ws, '보고서', '2024'), { recursive: true });
    await writeFile(path.join(box.ws, '보고서', '2024', '보고서 2024.xlsx'), 'xlsx');
    await symlink('보고서 2024.xlsx', path.join(box.ws, '보고서', '2024', '바로가기'));
    await symlink(box.outside, path.join(box.ws, '보고서', 'outside-link')); // kept verbatim in the trash
    const before = await allNames(path.join(box.ws, '보고서'));
    const entry = await files.trash('보고서');
    expect((await readdir(box.ws)).includes('보고서')).toBe(false);
    expect(await allNames(path.join(crossDevice as string, 'trash', entry.trashId, 'item'))).toEqual(before);
    await files.restore(entry.trashId);
    expect(await allNames(path.join(box.ws, '보고서'))).toEqual(before);
    expect(await readFile(path.join(box.ws, '보고서', '2024', '바로가기'), 'utf8')).toBe('xlsx');
    expect(await files.trashList()).toEqual([]);

    const single = await files.trash('보고서/2024/보고서 2024.xlsx');
    expect(await readdir(path.join(box.ws, '보고서', '2024'))).toEqual(['바로가기']);
    await files.restore(single.trashId);
    expect(await readFile(path.join(box.ws, '보고서', '2024', '보고서 2024.xlsx'), 'utf8')).toBe('xlsx');
  });
});

describe('error hygiene', () => {
  it('never carries OS messages or resolved host paths in the error path', async () => {
    try {
      await box.files.readBytes('nope/없음.txt');
    } catch (e) {
      expect(e).toBeInstanceOf(FileAccessError);
      expect((e as FileAccessError).path).toBe('nope/없음.txt');
      expect((e as FileAccessError).message).not.toContain(box.base);
      expect((e as FileAccessError).message).not.toMatch(/ENOENT: no such file/);
      return;
    }
    throw new Error('expected a rejection');
  });
});
