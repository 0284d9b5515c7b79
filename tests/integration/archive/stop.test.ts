import { randomBytes } from 'node:crypto';
import { watch } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileAccess } from '../../../electron/common/file-access';
import { createFileAccess } from '../../../electron/main/host/files';
import { openArchive, readEntryBytes, type OpenArchive } from '../../../tools/archive/zip-reader';
import { rawZip } from '../../helpers/archive-zips';
import { useTestGate } from '../../helpers/gate-harness';

/**
 * Stop (ctx.signal) during an extraction: between entries and inside a large one. Nothing of the
 * entry in progress is left behind (it is written only once wholly inflated and checked), and the
 * result says what was done.
 */

const open = useTestGate();
/** 24 MiB that does not compress: read in 24 ranged reads of 1 MiB. */
const big = randomBytes(24 * 1024 * 1024);

describe('Stop during archive.unzip', () => {
  it('through the gate: stopped after the first file, the big entry in progress leaves no file', async () => {
    const zip = rawZip([
      { name: 'first.txt', content: 'done before Stop' },
      { name: 'big.bin', content: big, method: 0 },
      { name: 'last.txt', content: 'never reached' },
    ]);
    const g = await open({ files: { 'big.zip': zip } });
    await mkdir(join(g.workspace, 'out'));
    const controller = new AbortController();
    // Stop the moment the first file appears: an event, not a delay.
    const watcher = watch(join(g.workspace, 'out'), (_event, name) => {
      if (name === 'first.txt') controller.abort();
    });
    try {
      const r = await g.call('archive.unzip', { path: 'big.zip', to: 'out' }, controller.signal);
      expect(r.outcome).toBe('cancelled');
      expect(r.text).toContain('Stopped by the user. 1 file extracted');
      expect(r.details).toMatchObject({ written: 1, files: ['out/first.txt'] });
    } finally {
      watcher.close();
    }
    // No big.bin, no temp file of it, nothing after it.
    expect((await readdir(join(g.workspace, 'out'))).sort()).toEqual(['first.txt']);
  });
});

describe('readEntryBytes inside a large entry', () => {
  let base: string | undefined;
  let archive: OpenArchive | undefined;
  afterEach(async () => {
    archive?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('returns cancelled at the first chunk after Stop, not at the end of the entry', async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'baram-archive-')));
    const ws = join(base, 'ws');
    await mkdir(ws);
    const bytes = rawZip([{ name: 'big.bin', content: big, method: 0 }]);
    await writeFile(join(ws, 'big.zip'), bytes);
    const host = await createFileAccess({ roots: [ws], trashDir: join(base, 'trash'), protectedPaths: [] });
    const controller = new AbortController();
    let reads = 0;
    let readsAtStop = 0;
    const counted: FileAccess = {
      ...host,
      roots: host.roots,
      resolve: (p) => host.resolve(p),
      display: (p) => host.display(p),
      check: (p) => host.check(p),
      stat: (p) => host.stat(p),
      fingerprint: (p, o) => host.fingerprint(p, o),
      async readBytes(p, o) {
        const bytes = await host.readBytes(p, o);
        // The 4th ranged read of entry data (after head, end record and directory reads).
        if (++reads === 8) {
          controller.abort();
          readsAtStop = reads;
        }
        return bytes;
      },
    };
    const opened = await openArchive(counted, join(ws, 'big.zip'), bytes.length, 10);
    if ('problem' in opened) throw new Error(opened.problem);
    archive = opened;
    const result = await readEntryBytes(opened, opened.entries[0]!, big.length, controller.signal);
    expect(result.kind).toBe('cancelled');
    expect(readsAtStop).toBe(8);
    // Far fewer reads than the 24 the whole entry takes.
    expect(reads).toBeLessThan(8 + 4);
  });
});
