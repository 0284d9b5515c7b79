import type { Readable } from 'node:stream';
import type { ReadOnlyFileAccess } from './define-tool';
import { readZipIndex, type ZipEntry } from './zip-index';
import { entryText, entryTextChunks, zipEntriesStream } from './zip-stream';
import { plainValue, type RowData } from './xlsx-cells';
import { loadExcelJs } from './exceljs';

export type SheetState = 'visible' | 'hidden' | 'veryHidden';

/** Why a file cannot be read as a workbook; tools/excel/book/problems.ts has a signpost text for each. */
export type BookProblem =
  | { readonly problem: 'too-large'; readonly limit: number }
  | { readonly problem: 'ole' }
  | { readonly problem: 'damaged'; readonly limit?: number }
  | { readonly problem: 'encrypted' }
  | { readonly problem: 'format'; readonly ext: string };

/**
 * xlsx through exceljs's streaming reader, fed from ranged reads of the file (ctx.files) with the
 * zip entries in the order the reader needs (kit/zip-stream.ts): memory stays bounded by one
 * chunk, the shared strings and the rows in flight, whatever the sheet's length.
 */

export interface XlsxSheet {
  readonly name: string;
  readonly state: SheetState;
  readonly entry: ZipEntry;
}

export interface XlsxBook {
  readonly kind: 'xlsx';
  readonly path: string;
  readonly sheets: readonly XlsxSheet[];
  /** Entries exceljs takes before any sheet: relationships, workbook, styles, shared strings. */
  readonly prelude: readonly ZipEntry[];
  /** Parts that show the workbook holds more than cells (charts, pivot tables, macros, …). */
  readonly extras: readonly string[];
}

/** Declared sizes (uncompressed) beyond which a part is not parsed: these bound memory and time. */
export const XLSX_LIMITS = {
  /** The file itself; larger workbooks are split or exported as CSV in the office anyway. */
  fileBytes: 200 * 1024 * 1024,
  /** One sheet's XML (~120 bytes per cell): about 8 million cells. */
  sheetXmlBytes: 1024 * 1024 * 1024,
  /** Shared strings are held in memory for the whole read. */
  sharedStringsBytes: 256 * 1024 * 1024,
  /** workbook.xml, relationships and styles are read whole. */
  smallPartChars: 32 * 1024 * 1024,
} as const;

function xmlDecode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e] ?? '';
  });
}

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(/([\w:]+)\s*=\s*"([^"]*)"/g)) out.set(m[1]!, xmlDecode(m[2]!));
  return out;
}

function tags(xml: string, name: string): Map<string, string>[] {
  return [...xml.matchAll(new RegExp(`<(?:\\w+:)?${name}\\b[^>]*>`, 'g'))].map((m) => attributes(m[0]));
}

/** A relationship target resolved against xl/ (or absolute from the package root). */
function partName(target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = ['xl'];
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

const EXTRA_PARTS: readonly [RegExp, string][] = [
  [/^xl\/vbaProject\.bin$/i, 'macros'],
  [/^xl\/charts\//i, 'charts'],
  [/^xl\/pivotTables\//i, 'pivot tables'],
  [/^xl\/drawings\//i, 'drawings'],
  [/^xl\/media\//i, 'images'],
  [/^xl\/externalLinks\//i, 'external links'],
  [/^xl\/connections\.xml$/i, 'data connections'],
  [/^xl\/slicers?\//i, 'slicers'],
];

export async function openXlsx(files: ReadOnlyFileAccess, path: string, size: number): Promise<XlsxBook | BookProblem> {
  if (size > XLSX_LIMITS.fileBytes) return { problem: 'too-large', limit: XLSX_LIMITS.fileBytes };
  const index = await readZipIndex(files, path, size);
  if (!index.ok) return { problem: index.reason === 'ole' ? 'ole' : index.reason === 'zip64' ? 'too-large' : 'damaged', limit: XLSX_LIMITS.fileBytes };
  const byName = new Map(index.entries.map((e) => [e.name, e]));
  if (index.entries.some((e) => (e.flags & 1) !== 0)) return { problem: 'encrypted' };
  const workbookEntry = byName.get('xl/workbook.xml');
  const relsEntry = byName.get('xl/_rels/workbook.xml.rels');
  if (!workbookEntry || !relsEntry) return { problem: 'damaged' };
  const workbookXml = await entryText(files, path, workbookEntry, XLSX_LIMITS.smallPartChars);
  const relsXml = await entryText(files, path, relsEntry, XLSX_LIMITS.smallPartChars);
  if (workbookXml === null || relsXml === null) return { problem: 'damaged' };
  const rels = new Map<string, { type: string; part: string }>();
  for (const r of tags(relsXml, 'Relationship')) {
    const id = r.get('Id');
    const target = r.get('Target');
    if (id && target && r.get('TargetMode') !== 'External') rels.set(id, { type: r.get('Type') ?? '', part: partName(target) });
  }
  const sheets: XlsxSheet[] = [];
  for (const s of tags(workbookXml, 'sheet')) {
    const rel = rels.get(s.get('r:id') ?? '');
    const entry = rel && /\/worksheet$/.test(rel.type) ? byName.get(rel.part) : undefined;
    // Chart sheets and dialog sheets have no cells; they are not listed.
    if (!entry) continue;
    const state = s.get('state');
    sheets.push({ name: s.get('name') ?? '', state: state === 'hidden' || state === 'veryHidden' ? state : 'visible', entry });
  }
  const byType = (suffix: string): ZipEntry | undefined => {
    for (const r of rels.values()) if (r.type.endsWith(suffix)) return byName.get(r.part);
    return undefined;
  };
  const styles = byType('/styles');
  const shared = byType('/sharedStrings');
  if (styles && styles.size > XLSX_LIMITS.smallPartChars) return { problem: 'too-large', limit: XLSX_LIMITS.smallPartChars };
  if (shared && shared.size > XLSX_LIMITS.sharedStringsBytes) return { problem: 'too-large', limit: XLSX_LIMITS.sharedStringsBytes };
  // exceljs recognises parts by their usual names only; other writers may choose others.
  const prelude: ZipEntry[] = [relsEntry, workbookEntry];
  if (styles) prelude.push({ ...styles, name: 'xl/styles.xml' });
  if (shared) prelude.push({ ...shared, name: 'xl/sharedStrings.xml' });
  const extras = [...new Set(index.entries.flatMap((e) => EXTRA_PARTS.filter(([re]) => re.test(e.name)).map(([, what]) => what)))];
  return { kind: 'xlsx', path, sheets, prelude, extras };
}

/** The used range the sheet declares at its start (`<dimension ref="A1:F1200"/>`), if it does. */
export async function declaredDimension(files: ReadOnlyFileAccess, book: XlsxBook, sheet: XlsxSheet): Promise<string | null> {
  let head = '';
  for await (const chunk of entryTextChunks(files, book.path, sheet.entry, { headBytes: 16 * 1024 })) {
    head += chunk;
    if (head.includes('<sheetData') || head.length > 64 * 1024) break;
  }
  const m = /<(?:\w+:)?dimension\b[^>]*\bref="([^"]+)"/.exec(head);
  return m ? m[1]!.replace(/\$/g, '') : null;
}

/** Merged ranges of the sheet (`<mergeCell ref="A1:C1"/>`, after the cells), in one streaming pass. */
export async function mergedRanges(files: ReadOnlyFileAccess, book: XlsxBook, sheet: XlsxSheet, signal?: AbortSignal): Promise<string[]> {
  const found: string[] = [];
  let carry = '';
  for await (const chunk of entryTextChunks(files, book.path, sheet.entry, signal ? { signal } : {})) {
    const text = carry + chunk;
    const re = /<(?:\w+:)?mergeCell\b[^>]*\bref="([^"]+)"/g;
    let last = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      found.push(m[1]!);
      last = re.lastIndex;
    }
    // Keep enough to finish a tag cut at the chunk's end, never one already counted.
    carry = text.slice(Math.max(last, text.length - 200));
  }
  return found;
}

interface RowLike {
  readonly number: number;
  readonly values: unknown;
}

/**
 * Rows of one sheet, in order, streamed. Errors of the underlying stream (the file vanished, a
 * damaged deflate stream) end the iteration with that error: exceljs pipes its input without
 * forwarding errors, so each step is failed by the input's failure instead of hanging.
 */
export async function* xlsxRows(files: ReadOnlyFileAccess, book: XlsxBook, sheet: XlsxSheet, signal: AbortSignal): AsyncGenerator<RowData> {
  if (sheet.entry.size > XLSX_LIMITS.sheetXmlBytes) throw new TooLargeSheet();
  const ExcelJS = await loadExcelJs();
  const source: Readable = zipEntriesStream(files, book.path, [...book.prelude, { ...sheet.entry, name: 'xl/worksheets/sheet1.xml' }], signal);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache', // number formats say which numbers are dates
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  // A workbook without shared strings (numbers only, inline strings) would otherwise make exceljs
  // wait for them and park the sheet in a temp file; the prelude comes first, so none are coming.
  (reader as unknown as { sharedStrings: unknown[] }).sharedStrings = [];
  // One pending step at a time, failed by the input's error or the signal. Not Promise.race with a
  // long-lived promise: every race leaves a reaction on it holding its row, 100k rows → 300 MB.
  let stop: unknown;
  let rejectStep: ((e: unknown) => void) | undefined;
  const fail = (e: unknown): void => {
    stop ??= e;
    rejectStep?.(stop);
  };
  const step = <T>(next: Promise<T>): Promise<T> =>
    stop !== undefined
      ? Promise.reject(stop)
      : new Promise<T>((resolve, reject) => {
          rejectStep = reject;
          next.then(resolve, reject);
        });
  source.on('error', fail);
  const onAbort = (): void => fail(new ReadStopped());
  signal.addEventListener('abort', onAbort, { once: true });
  const sheets = (reader as unknown as AsyncIterable<AsyncIterable<RowLike>>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const ws = await step(sheets.next());
      if (ws.done) return;
      const rows = ws.value[Symbol.asyncIterator]();
      for (;;) {
        const row = await step(rows.next());
        if (row.done) break;
        const values = row.value.values as unknown[];
        const cells = Array.from({ length: Math.max(0, values.length - 1) }, (_, i) => plainValue(values[i + 1]));
        yield { index: row.value.number, cells };
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    source.destroy();
  }
}

/** The read stopped because the caller's signal (Stop, time limit) fired. */
export class ReadStopped extends Error {
  override readonly name = 'ReadStopped';
}

export class TooLargeSheet extends Error {
  override readonly name = 'TooLargeSheet';
}
