import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
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
for await (const file of source.readTree('.', { respectIgnoreFiles: true, includeHidden: false, windowBytes: WINDOW_BYTES })) {
  files.push(file.ok ? { ok: true, path: file.path, size: file.size, complete: file.complete, utf8: file.utf8, ascii: file.ascii, bytes: Buffer.from(file.bytes) } : file);
}
const mem: FileSource = { async *readTree() { for (const f of files) yield f; }, readBytes: () => Promise.reject(new Error('no')), display: (p) => source.display(p) };
const useMem = process.argv[2] !== 'disk';
const order = process.argv.slice(3);
const cases: Record<string, { pattern: string; ignoreCase: boolean; fixedString: boolean }> = {
  lit: { pattern: 'readFileSync', ignoreCase: false, fixedString: true },
  ic: { pattern: 'deprecated', ignoreCase: true, fixedString: true },
  re: { pattern: 'function\\s+\\w+Sync', ignoreCase: false, fixedString: false },
  ko: { pattern: '개인정보', ignoreCase: false, fixedString: true },
};
for (const name of order) {
  const c = compileQuery(cases[name]!);
  if (!c.ok) throw new Error('bad');
  const ts: number[] = [];
  for (let i = 0; i < 18; i++) {
    const t = performance.now();
    await searchFiles(useMem ? mem : source, { path: '.', query: c.query, include: null, maxResults: Number.MAX_SAFE_INTEGER, maxChars: Infinity, signal: new AbortController().signal });
    ts.push(performance.now() - t);
    if (process.env.ZZ_BETWEEN === 'grep') spawnSync('grep', ['-rnI', '-F', cases[name]!.pattern, '.'], { cwd: root, maxBuffer: 1 << 30, env: { ...process.env, LC_ALL: 'C' } });
    if (process.env.ZZ_BETWEEN === 'sleep') spawnSync('sleep', ['0.15']);
    if (process.env.ZZ_BETWEEN === 'spin') { const e = performance.now() + 150; while (performance.now() < e); }
  }
  const tail = ts.slice(8).sort((a, b) => a - b);
  console.log(name, 'median', tail[5]!.toFixed(1), ts.map((t) => t.toFixed(0)).join(' '));
}
await treeReaderPool.close();
