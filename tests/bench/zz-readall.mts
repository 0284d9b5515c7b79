import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createFileAccess } from '../../electron/main/host/files';
import { WINDOW_BYTES } from '../../tools/search/engine/search-files';
const root = '/tmp/baram-search-bench-v1';
const scratch = await mkdtemp(join(tmpdir(), 'zz-'));
const files = await createFileAccess({ roots: [root], trashDir: join(scratch, 'trash'), protectedPaths: [] });
const N = Number(process.argv[2] ?? 30);
const times: number[] = [];
for (let i = 0; i < N; i++) {
  const t = performance.now();
  let n = 0;
  for await (const f of files.readTree('.', { respectIgnoreFiles: true, includeHidden: false, windowBytes: WINDOW_BYTES, reuseBuffers: true })) if (f.ok) n++;
  times.push(performance.now() - t);
}
console.log(times.map((t) => t.toFixed(0)).join(' '));
const { treeReaderPool } = await import("../../electron/main/host/files/tree-reader-pool");
await (treeReaderPool as any).close();
