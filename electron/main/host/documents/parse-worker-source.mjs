// The parse thread run from the TypeScript sources (vitest, `baram` under tsx): a worker thread
// does not inherit the parent's loader, so it registers tsx itself before loading the entry. The
// built app and CLI start parse-worker.js instead (parse-client.ts workerEntry()).
//
// The format libraries are loaded first, by Node itself: through tsx's hooks pdf.js alone took
// seconds to load in every new thread (tsx transforms each file it loads), and the entry's own
// imports of them then find them loaded. pdf.js's own worker half (which it would import at the
// first PDF) is handed to it the documented way, globalThis.pdfjsWorker.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import 'mammoth';
import 'kordoc';
import 'pdf-parse';
import { register } from 'tsx/esm/api';

const pdfjsWorker = createRequire(import.meta.resolve('pdf-parse')).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
globalThis.pdfjsWorker = await import(pathToFileURL(pdfjsWorker).href);

register();
await import('./parse-worker.ts');
