import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The native tree-io module (native/tree-io/tree_io.c): folders and files opened relative to an
 * open folder (openat, never following a link), for the TreeReader. Linux only; null elsewhere,
 * when the module is missing, or when the kernel cannot name a descriptor (no /proc) — the reader
 * then uses node:fs with its per-file proof. Why: docs/2026-12-02-search-openat.md.
 *
 * Every call answers a number: >= 0 success, < 0 a negated errno or one of the NOT_* codes.
 */
export interface TreeIo {
  /** openat(parentFd, name) (or open(path) with parentFd -1) as a folder, without following a link, proven to be `path`. */
  openFolder(parentFd: number, name: string, path: string): number;
  /** The entries of an open folder: type letter (f, d, l, o, u), name, NUL; each folder listed once. */
  listFolder(fd: number): string | number;
  /** openat(folderFd, name) as a regular file, without following a link; its size into sizeOut[0]. */
  openFile(folderFd: number, name: string, sizeOut: Float64Array): number;
  /** Reads the file's start into view[offset, offset + length) and closes it, whatever happens. */
  readClose(fd: number, view: Uint8Array, offset: number, length: number): number;
  /** The kernel's name for an open descriptor, now (NO_PROOF when it cannot say). */
  nameOf(fd: number): string | number;
  closeFd(fd: number): number;
  readonly NOT_PROVEN: number;
  readonly NO_PROOF: number;
  readonly NOT_REGULAR: number;
}

const ADDON = join('native', 'tree-io', 'build', 'Release', 'tree_io.node');
// From electron/main/host/files (sources: tests, CLI) or out/main (the bundle), up to the project.
const LEVELS_UP = 5;

/** Where the module lies: the first `native/…` above this file; inside app.asar, its unpacked twin. */
function addonPath(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i <= LEVELS_UP; i++) {
    const candidate = join(dir, ADDON).replace(/([/\\])app\.asar([/\\])/, '$1app.asar.unpacked$2');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return null;
}

/** Linux, and not turned off: where the module should load, and its absence is worth a warning. */
function wanted(): boolean {
  return process.platform === 'linux' && process.env.BARAM_TREE_IO !== 'off';
}

function load(): TreeIo | null {
  const path = addonPath();
  if (path === null) return null;
  try {
    const loaded = createRequire(import.meta.url)(path) as Partial<TreeIo> & { supported?: boolean };
    if (loaded.supported !== true) return null;
    return loaded as TreeIo;
  } catch {
    return null;
  }
}

let loaded: TreeIo | null | undefined;

/** The module for this thread (loaded once), or null: see TreeIo. `BARAM_TREE_IO=off` turns it off. */
export function treeIo(): TreeIo | null {
  if (loaded === undefined) {
    loaded = wanted() ? load() : null;
    if (loaded === null && wanted()) {
      console.warn('baram: native/tree-io did not load (build it: npm run build:native); searches read through node:fs, more slowly');
    }
  }
  return loaded;
}
