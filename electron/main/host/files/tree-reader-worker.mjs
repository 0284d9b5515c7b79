// Worker entry when Baram runs from its TypeScript sources (tests, the `baram` CLI, benchmarks):
// a new thread has no TypeScript loader, so register tsx here, then load the real entry. The
// desktop bundle starts out/main/tree-reader-worker.js instead (see tree-reader-pool.ts).
import { register } from 'tsx/esm/api';

register();
await import('./tree-reader-worker.ts');
