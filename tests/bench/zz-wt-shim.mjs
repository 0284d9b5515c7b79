import { register } from 'tsx/esm/api';
register();
const { parentPort } = await import('node:worker_threads');
const t = performance.now();
await import('./zz-worker.mts?x');
