import { Worker } from 'node:worker_threads';
const mode = process.argv[2] ?? 'idle';
const w = new Worker(new URL('./zz-wt-shim.mjs', import.meta.url), { execArgv: [] });
let spin = mode === 'spin';
w.on('message', (m) => { console.log('worker:', m); spin = false; });
w.on('exit', () => process.exit(0));
if (spin) { setTimeout(function loop() { const e = performance.now() + 50; while (performance.now() < e); if (spin) setImmediate(loop); }, 10); }
