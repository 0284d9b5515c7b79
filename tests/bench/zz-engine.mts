import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createFileAccess } from '../../electron/main/host/files';
import { compileQuery } from '../../tools/search/engine/query';
import { searchFiles, WINDOW_BYTES, type FileSource } from '../../tools/search/engine/search-files';
import { treeReaderPool } from '../../electron/main/host/files/tree-reader-pool';
import type { TreeFile } from '../../electron/common/file-access';
const root = '/tmp/baram-search-bench-v1';
const scratch = await mkdtemp(join(tmpdir(), 'zz-'));
const source = await createFileAccess({ roots: [root], trashDir: join(scratch, 'trash'), protectedPaths: [] });
const files: TreeFile[] = [];
for await (const file of source.readTree(process.env.ZZ_DIR ?? '.', { respectIgnoreFiles: true, includeHidden: false, windowBytes: WINDOW_BYTES })) {
  files.push(file.ok ? { ok: true, path: file.path, size: file.size, complete: file.complete, utf8: file.utf8, ascii: file.ascii, bytes: Buffer.from(file.bytes) } : file);
}
const mem: FileSource = {
  async *readTree() { for (const f of files) yield f; },
  readBytes: () => Promise.reject(new Error('no')),
  display: (p) => source.display(p),
};
const N = Number(process.argv[2] ?? 30);
const pattern = process.argv[3] ?? '개인정보';
const ignoreCase = process.argv[4] === 'i';
const compiled = compileQuery({ pattern, ignoreCase, fixedString: true });
if (!compiled.ok) throw new Error('bad');
const times: number[] = [];
let count = 0;
for (let i = 0; i < N; i++) {
  const t = performance.now();
  const r = await searchFiles(mem, { path: '.', query: compiled.query, include: null, maxResults: Number.MAX_SAFE_INTEGER, maxChars: Infinity, signal: new AbortController().signal });
  count = r.lines.length;
  times.push(performance.now() - t);
}
console.log(count, times.map((t) => t.toFixed(0)).join(' '));
await treeReaderPool.close();
const tail2 = times.slice(8).sort((a, b) => a - b);
console.log('median after 8:', tail2[Math.floor(tail2.length / 2)]?.toFixed(1));
