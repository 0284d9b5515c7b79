import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { treeIo, type TreeIo } from '../../../electron/main/host/files/tree-io';

/**
 * native/tree-io: the openat calls the tree reader builds its confinement on. Each refusal the
 * reader relies on is checked against the real kernel: links never followed (folder or file),
 * names that could leave a folder refused, FIFOs not blocked on, a folder not proven to be the
 * expected path refused, and every descriptor closed again.
 */

const linux = process.platform === 'linux';
const { ELOOP, ENOTDIR, EINVAL } = os.constants.errno;
let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'baram-tree-io-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function openFds(): number {
  return readdirSync('/proc/self/fd').length;
}

function loaded(): TreeIo {
  const io = treeIo();
  if (io === null) throw new Error('native/tree-io did not load: run npm run build:native');
  return io;
}

describe.runIf(linux)('tree-io (Linux)', () => {
  it('is built and loads: on Linux the reader never silently falls back to node:fs', () => {
    expect(treeIo()).not.toBeNull();
  });

  it('opens a folder by its checked path and then its subfolder relative to it, each proven', () => {
    const io = loaded();
    mkdirSync(path.join(base, 'sub'));
    const before = openFds();
    const root = io.openFolder(-1, '', base);
    expect(root).toBeGreaterThanOrEqual(0);
    const sub = io.openFolder(root, 'sub', path.join(base, 'sub'));
    expect(sub).toBeGreaterThanOrEqual(0);
    // A folder that is not the path it is claimed to be is refused and closed.
    expect(io.openFolder(root, 'sub', path.join(base, 'elsewhere'))).toBe(io.NOT_PROVEN);
    io.closeFd(sub);
    io.closeFd(root);
    expect(openFds()).toBe(before);
  });

  it('never follows a link to a folder, and refuses names that could leave the folder', () => {
    const io = loaded();
    mkdirSync(path.join(base, 'real'));
    symlinkSync(path.join(base, 'real'), path.join(base, 'link'));
    const root = io.openFolder(-1, '', base);
    try {
      expect([-ELOOP, -ENOTDIR]).toContain(io.openFolder(root, 'link', path.join(base, 'link')));
      for (const name of ['..', '.', '', 'real/..', '../x']) expect(io.openFolder(root, name, base)).toBe(-EINVAL);
      expect(io.openFolder(root, 'a\0b', path.join(base, 'a'))).toBe(-EINVAL);
      // The start must be absolute: a relative path would depend on the process's cwd.
      expect(io.openFolder(-1, '', 'relative/path')).toBe(-EINVAL);
    } finally {
      io.closeFd(root);
    }
  });

  it('lists a folder with each entry typed: file, folder, link, other', () => {
    const io = loaded();
    writeFileSync(path.join(base, 'a.txt'), 'a');
    mkdirSync(path.join(base, '한글 폴더'));
    symlinkSync('/etc/passwd', path.join(base, 'link'));
    execFileSync('mkfifo', [path.join(base, 'pipe')]);
    const root = io.openFolder(-1, '', base);
    try {
      const listing = io.listFolder(root);
      expect(typeof listing).toBe('string');
      const entries = (listing as string).split('\0').filter((e) => e !== '').sort();
      expect(entries).toEqual(['fa.txt', 'd한글 폴더', 'llink', 'opipe'].sort());
    } finally {
      io.closeFd(root);
    }
  });

  it('reads a file relative to its folder and closes it; refuses links, FIFOs and folders without blocking', () => {
    const io = loaded();
    writeFileSync(path.join(base, 'a.txt'), 'hello world');
    symlinkSync(path.join(base, 'a.txt'), path.join(base, 'link.txt'));
    execFileSync('mkfifo', [path.join(base, 'pipe')]);
    mkdirSync(path.join(base, 'dir'));
    const root = io.openFolder(-1, '', base);
    const before = openFds();
    try {
      const size = new Float64Array(1);
      const fd = io.openFile(root, 'a.txt', size);
      expect(fd).toBeGreaterThanOrEqual(0);
      expect(size[0]).toBe(11);
      const view = new Uint8Array(16);
      expect(io.readClose(fd, view, 2, 5)).toBe(5);
      expect(Buffer.from(view.subarray(2, 7)).toString()).toBe('hello');
      expect(openFds()).toBe(before);
      expect(io.openFile(root, 'link.txt', size)).toBe(-ELOOP);
      expect(io.openFile(root, 'pipe', size)).toBe(io.NOT_REGULAR); // would block for ever without O_NONBLOCK
      expect(io.openFile(root, 'dir', size)).toBe(io.NOT_REGULAR);
      expect(io.openFile(root, '../a.txt', size)).toBe(-EINVAL);
      expect(openFds()).toBe(before);
    } finally {
      io.closeFd(root);
    }
  });

  it('refuses a window outside the view, and still closes the file', () => {
    const io = loaded();
    writeFileSync(path.join(base, 'a.txt'), 'hello');
    const root = io.openFolder(-1, '', base);
    const before = openFds();
    try {
      const fd = io.openFile(root, 'a.txt', new Float64Array(1));
      expect(() => io.readClose(fd, new Uint8Array(4), 2, 5)).toThrow(RangeError);
      expect(openFds()).toBe(before);
    } finally {
      io.closeFd(root);
    }
  });

  it('names an open folder where it is now, after a rename', () => {
    const io = loaded();
    mkdirSync(path.join(base, 'd'));
    const fd = io.openFolder(-1, '', path.join(base, 'd'));
    try {
      expect(io.nameOf(fd)).toBe(path.join(base, 'd'));
      renameSync(path.join(base, 'd'), path.join(base, 'moved'));
      expect(io.nameOf(fd)).toBe(path.join(base, 'moved'));
    } finally {
      io.closeFd(fd);
    }
  });
});

describe('tree-io elsewhere', () => {
  it('is absent off Linux, or when turned off, so the reader goes by path', () => {
    if (!linux) expect(treeIo()).toBeNull();
    // Loaded once per thread: the switch is read by a fresh load, in a new process here.
    const entry = path.resolve('electron/main/host/files/tree-io.ts');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', `import('${entry}').then((m) => console.log(m.treeIo() === null))`], {
      env: { ...process.env, BARAM_TREE_IO: 'off' },
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('true');
  });
});
