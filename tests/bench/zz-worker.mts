import { Confiner } from '../../electron/main/host/files/confine';
import { createPathRules } from '../../electron/main/host/files/path-rules';
import { TreeReader } from '../../electron/main/host/files/tree-reader';
import { FolderOpener } from '../../electron/main/host/files/tree-reader-openat';
import { treeIo } from '../../electron/main/host/files/tree-io';
import { Claims, PartReader, PlanFiles, planOf, Slabs } from '../../electron/main/host/files/tree-reader-plan';
const root = '/tmp/baram-search-bench-v1';
const confiner = new Confiner({ rules: createPathRules({ platform: process.platform, home: root }), realRoots: [root], lexicalRoots: [root], protectedPaths: [] });
const folders = new FolderOpener(treeIo()!);
const spare: Uint8Array<ArrayBuffer>[] = [];
const N = Number(process.argv[2] ?? 20);
const walkOnly = process.argv[3] === 'walk';
const ts: number[] = [];
for (let r = 0; r < N; r++) {
  const t = performance.now();
  const reader = new TreeReader(confiner, root, { respectIgnoreFiles: true, includeHidden: false, maxFiles: Infinity, windowBytes: 8 << 20, ignoreCase: false });
  let id = 0; let n = 0;
  for (;;) {
    const w = reader.nextPlan(96, () => false);
    if (w === null) break;
    const plan = planOf(id++, w);
    if (!walkOnly) {
      const files = new PlanFiles(plan); const claims = new Claims(plan.claims);
      const slabs = new Slabs(256 * 1024, () => spare.pop() ?? null);
      const part = new PartReader(files, folders, confiner, 8 << 20, { relative: 0, byPath: 0 });
      for (let i = claims.front(); i >= 0; i = claims.front()) { part.read(i, slabs); n++; }
      part.proveFolders();
      for (const s of slabs.used) if (s.length === 256 * 1024) spare.push(s);
    }
    reader.closeFolders(w.closeAfter);
  }
  reader.close();
  ts.push(performance.now() - t);
}
const out = ts.map((t) => t.toFixed(0)).join(" "); console.log(out); (await import("node:worker_threads")).parentPort?.postMessage(out);
