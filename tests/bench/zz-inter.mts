import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createFileAccess } from '../../electron/main/host/files';
import { compileQuery } from '../../tools/search/engine/query';
import { searchFiles } from '../../tools/search/engine/search-files';
import { treeReaderPool } from '../../electron/main/host/files/tree-reader-pool';
const root = '/tmp/baram-search-bench-v1';
const scratch = await mkdtemp(join(tmpdir(), 'zz-'));
const source = await createFileAccess({ roots: [root], trashDir: join(scratch, 'trash'), protectedPaths: [] });
const pattern = process.argv[2] ?? '개인정보';
const ic = process.argv[3] === 'i';
const c = compileQuery({ pattern, ignoreCase: ic, fixedString: true });
if (!c.ok) throw new Error('bad');
const run = async () => { const t = performance.now(); await searchFiles(source, { path: '.', query: c.query, include: null, maxResults: Number.MAX_SAFE_INTEGER, maxChars: Infinity, signal: new AbortController().signal }); return performance.now() - t; };
for (let i = 0; i < 10; i++) await run();
const after: Record<string, number[]> = { none: [], grep: [], sleep: [] };
const grepT: number[] = [];
for (let r = 0; r < 8; r++) {
  for (const k of ['none', 'grep', 'sleep']) {
    if (k === 'grep') { const t = performance.now(); spawnSync('grep', ['-rnI', '-F', ...(ic ? ['-i'] : []), '-e', pattern, '.'], { cwd: root, maxBuffer: 1 << 30, env: { ...process.env, LC_ALL: 'C' } }); grepT.push(performance.now() - t); }
    if (k === 'sleep') spawnSync('sleep', ['0.1']);
    after[k]!.push(await run());
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!.toFixed(1);
for (const k of Object.keys(after)) console.log(k, med(after[k]!), after[k]!.map((t) => t.toFixed(0)).join(' '));
console.log('grep', med(grepT), grepT.map((t) => t.toFixed(0)).join(' '));
await treeReaderPool.close();
