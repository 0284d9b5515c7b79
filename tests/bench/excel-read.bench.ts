import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { createFileAccess } from '../../electron/main/host/files';
import { openBook, pickSheet } from '../../tools/excel/book/book';
import { readWindow } from '../../tools/excel/book/window';
import { formatBytes, formatMs, printRows } from './lib/stats';

/**
 * excel.read on a 100k-row xlsx (issue 18, Must show): peak RSS growth under 200 MB. Ours = the
 * tool's engine (openBook + readWindow, what excel.read's execute runs) through the real host
 * FileAccess, asked for the LAST page, so every row streams through. Baseline, same run, same
 * file: exceljs's own whole-workbook load (`workbook.xlsx.readFile`), what a tool that does not
 * stream would do. Each measurement runs in a fresh child process (one heap, one RSS), sampling
 * RSS every 10 ms; growth = peak − RSS just before the read. The workbook is written by exceljs's
 * streaming writer with shared strings, as Excel saves them (one unique string per row).
 *
 *   npx tsx tests/bench/excel-read.bench.ts [rows]
 */
const ROWS = Number(process.argv[2] ?? 100_000);
const TARGET_GROWTH_BYTES = 200 * 1024 * 1024;
const COLUMNS = ['번호', '날짜', '거래처', '품목', '수량', '단가', '금액', '담당', '비고', '확인'];

interface Measure {
  readonly growth: number;
  readonly ms: number;
  readonly rows: number;
}

async function writeWorkbook(path: string, rows: number): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: true });
  const ws = wb.addWorksheet('거래내역');
  ws.addRow(COLUMNS).commit();
  for (let i = 1; i <= rows; i++) {
    const qty = (i % 17) + 1;
    const price = 1000 + (i % 97) * 250;
    ws.addRow([i, new Date(Date.UTC(2024, 0, 1 + (i % 365))), `거래처 ${i}호 주식회사`, `품목-${i % 500}`, qty, price, qty * price, `담당자${i % 40}`, i % 3 === 0 ? '긴급 처리 요망' : '', i % 2 === 0]).commit();
  }
  ws.commit();
  await wb.commit();
}

/** Child: one measurement, printed as JSON on stdout. */
async function child(mode: string, dir: string, file: string): Promise<void> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  let rows = 0;
  // The modules are loaded before the "before" sample, so growth is the read's, not the code's.
  const files = await createFileAccess({ roots: [dir], trashDir: join(dir, '..', 'trash'), protectedPaths: [] });
  await import('exceljs');
  global.gc?.();
  const before = process.memoryUsage.rss();
  peak = before;
  const start = performance.now();
  if (mode === 'ours') {
    const opened = await openBook(files, file);
    if ('failure' in opened) throw new Error(opened.failure.en);
    const sheet = pickSheet(opened.book, undefined, file);
    if ('failure' in sheet) throw new Error(sheet.failure.en);
    const w = await readWindow(files, opened.book, sheet, { top: 1, bottom: undefined, offset: ROWS - 48, limit: 200, headRows: 10 }, new AbortController().signal);
    rows = w.lastSeen;
    if (w.rows.length === 0 || w.stopped) throw new Error(`read incomplete: ${w.rows.length} rows, stopped ${w.stopped}`);
  } else {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(dir, file));
    rows = wb.worksheets[0]!.rowCount;
  }
  const ms = performance.now() - start;
  peak = Math.max(peak, process.memoryUsage.rss());
  clearInterval(timer);
  const result: Measure = { growth: peak - before, ms, rows };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function measure(mode: string, dir: string, file: string): Measure {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, String(ROWS), '--child', mode, dir, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${mode} child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measure;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--child');
  if (at >= 0) return child(process.argv[at + 1]!, process.argv[at + 2]!, process.argv[at + 3]!);
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on this machine`);
  const base = await mkdtemp(join(tmpdir(), 'baram-excel-bench-'));
  const dir = join(base, 'workspace');
  try {
    await import('node:fs/promises').then((fs) => fs.mkdir(dir));
    const file = 'big.xlsx';
    const t = performance.now();
    await writeWorkbook(join(dir, file), ROWS);
    const size = (await stat(join(dir, file))).size;
    console.log(`workbook: ${ROWS} rows × ${COLUMNS.length} columns, ${formatBytes(size)} (written by exceljs's streaming writer in ${formatMs(performance.now() - t)})`);
    const ours = measure('ours', dir, file);
    const whole = measure('load', dir, file);
    printRows('excel.read of the last page (every row streamed) vs a whole-workbook load', [
      { measure: 'ours: peak RSS growth', value: formatBytes(ours.growth) },
      { measure: 'ours: time', value: formatMs(ours.ms) },
      { measure: 'ours: rows seen', value: ours.rows },
      { measure: 'baseline exceljs readFile: peak RSS growth', value: formatBytes(whole.growth) },
      { measure: 'baseline exceljs readFile: time', value: formatMs(whole.ms) },
      { measure: 'baseline / ours, memory', value: `${(whole.growth / Math.max(1, ours.growth)).toFixed(1)}x` },
    ]);
    console.log(`100k-row xlsx read, peak RSS growth ${formatBytes(ours.growth)} (target < ${formatBytes(TARGET_GROWTH_BYTES)}): ${ours.growth < TARGET_GROWTH_BYTES ? 'MET' : 'NOT MET'}`);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

await main();
