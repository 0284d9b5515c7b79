// Worker entry when Baram runs from its TypeScript sources (tests, the `baram` CLI, benchmarks):
// a new thread has no TypeScript loader, so register tsx here, then load the real entry. The
// desktop bundle starts out/main/audit-verify-worker.js instead (see verify-parallel.ts).
import { register } from 'tsx/esm/api';

register();
await import('./verify-worker.ts');
