import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm run bench`: runs every tests/bench/*.bench.ts in its own process (so one benchmark's heap and
 * JIT state cannot colour another's), one after another. Each prints its numbers next to a
 * baseline measured in the same run. `npm run bench -- search` runs only files containing "search".
 */
const dir = import.meta.dirname;
const filter = process.argv[2];
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter)))
  .sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
