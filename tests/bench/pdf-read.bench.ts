import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPdf } from '../../electron/main/host/documents/pdf-open';
import { formatMs, median, ratioLine, table } from './lib/stats';

/**
 * PDF text extraction of document.pdf.read (electron/main/host/documents/pdf-open.ts, run in the parse thread: pdf.js through
 * pdf-parse, page by page, exactly what the tool runs) against poppler's pdftotext on the same 20
 * Korean PDFs (tests/fixtures/documents/bench, 2 to 21 pages each, written by LibreOffice), in the
 * same run. Ours runs on this thread with the library already loaded (as in the app after the
 * first PDF); pdftotext is started once per file, as a person or a script would run it.
 * Target (issue 18): ours ≤ 3x pdftotext over the 20 files.
 *
 *   npx tsx tests/bench/pdf-read.bench.ts [repetitions]
 */
const REPETITIONS = Number(process.argv[2] ?? 5);
const TARGET = 3;
const dir = join(import.meta.dirname, '..', 'fixtures', 'documents', 'bench');
const files = readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort().map((f) => join(dir, f));

if (spawnSync('pdftotext', ['-v']).error) {
  console.log('pdf-read: SKIPPED — pdftotext is not installed (apt-get install -y poppler-utils); no comparison made.');
  process.exit(0);
}

async function ours(): Promise<{ ms: number; chars: number; pages: number }> {
  const start = performance.now();
  let chars = 0;
  let pages = 0;
  for (const file of files) {
    const pdf = await openPdf(new Uint8Array(readFileSync(file)));
    if (typeof pdf === 'string') throw new Error(`${file}: ${pdf}`);
    for (let n = 1; n <= pdf.pages; n++) chars += (await pdf.pageText(n)).length;
    pages += pdf.pages;
    await pdf.close();
  }
  return { ms: performance.now() - start, chars, pages };
}

function poppler(): { ms: number; chars: number } {
  const start = performance.now();
  let chars = 0;
  for (const file of files) {
    const r = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pdftotext failed on ${file}`);
    chars += r.stdout.length;
  }
  return { ms: performance.now() - start, chars };
}

// One warm-up round each: the app has pdf.js loaded and JIT-compiled after its first PDF.
const warm = await ours();
poppler();
const oursMs: number[] = [];
const popplerMs: number[] = [];
let popplerChars = 0;
for (let i = 0; i < REPETITIONS; i++) {
  oursMs.push((await ours()).ms);
  const p = poppler();
  popplerMs.push(p.ms);
  popplerChars = p.chars;
}
console.log(`${files.length} PDFs, ${warm.pages} pages; ${REPETITIONS} repetitions, medians.`);
console.log(
  table(
    ['extractor', 'median', 'min', 'characters'],
    [
      ['document.pdf.read (pdf.js)', formatMs(median(oursMs)), formatMs(Math.min(...oursMs)), String(warm.chars)],
      ['pdftotext', formatMs(median(popplerMs)), formatMs(Math.min(...popplerMs)), String(popplerChars)],
    ],
  ),
);
console.log(ratioLine({ label: 'ours/pdftotext', ours: median(oursMs), theirs: median(popplerMs), maxRatio: TARGET }));
