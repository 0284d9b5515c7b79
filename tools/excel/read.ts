import { Type } from '@sinclair/typebox';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure } from '../kit/define-tool';
import { cancelledText } from '../kit/document-files';
import { fail, ok } from '../kit/results';
import { checkExisting } from '../kit/targets';
import { openBook, pickSheet, type Book, type SheetRef } from './book/book';
import { cellText, columnLetters, parseRange, type CellRange, type RowData } from './book/cells';
import { delimiterName } from './book/csv';
import { readFailure } from './book/failures';
import { detectHeader, headerLine, lastFilledColumn, MAX_CELL_CHARS, rowLine, type TableColumns } from './book/table';
import { readWindow, type SheetWindow } from './book/window';
import { declaredDimension, mergedRanges } from './book/xlsx';
import { encodingLabel } from '../kit/text-file';
import type { ReadOnlyFileAccess } from '../kit/define-tool';

/** Rows returned when the model gives no limit; the output budget usually cuts earlier. */
const DEFAULT_LIMIT = 200;
/** limit is clamped to [1, MAX_LIMIT] (SPEC G-SCHEMA: ranges are the tool's business). */
const MAX_LIMIT = 5000;
/** Columns shown without a range: a wider table is a few narrower reads (the marker says which). */
const MAX_COLUMNS = 40;
/** Rows from the top of the range looked at for a header row. */
const HEAD_ROWS = 10;
/** Merged ranges listed under the table; more are counted. */
const LISTED_MERGES = 20;
/** Characters kept free of table rows for the notes that tell the model how to go on. */
const NOTE_RESERVE = 800;

const input = Type.Object(
  {
    path: Type.String({ description: 'Excel (.xlsx) or CSV file, relative to the workspace (e.g. "reports/2024.xlsx").' }),
    sheet: Type.Optional(Type.String({ description: 'Sheet name (default: the first visible sheet). excel.sheets lists them.' })),
    range: Type.Optional(Type.String({ description: 'Cells to read in A1 notation: "A1:F50", "B:D" (whole columns), "10:200" (whole rows). Default: the whole sheet.' })),
    offset: Type.Optional(Type.Integer({ description: 'First sheet row to return, 1-based (for paging; default: the top of the range).' })),
    limit: Type.Optional(Type.Integer({ description: `Number of rows to return (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).` })),
  },
  { additionalProperties: false },
);

function badRange(range: string): Failure {
  return failure(
    text(
      `range '${range}'을(를) 알 수 없습니다. "A1:F50"(칸 범위), "B:D"(열 전체), "10:200"(행 전체)처럼 주세요.`,
      `range '${range}' is not understood. Give it like "A1:F50" (a block of cells), "B:D" (whole columns) or "10:200" (whole rows).`,
    ),
  );
}

function stateLabel(sheet: SheetRef): Text {
  return sheet.state === 'visible' ? text('', '') : sheet.state === 'hidden' ? text(' (숨김 시트)', ' (hidden sheet)') : text(' (매우 숨김 시트)', ' (very hidden sheet)');
}

function describeSource(book: Book, shown: string, sheet: SheetRef, dimension: string | null): Text {
  if (book.kind === 'csv') {
    return text(
      `'${shown}' (CSV, ${encodingLabel(book.encoding)}, 구분자 ${delimiterName(book.delimiter)})`,
      `'${shown}' (CSV, ${encodingLabel(book.encoding)}, delimiter ${delimiterName(book.delimiter)})`,
    );
  }
  const state = stateLabel(sheet);
  const used = dimension ? text(`, 사용 범위 ${dimension}`, `, used range ${dimension}`) : text('', '');
  return text(`'${shown}' › 시트 '${sheet.name}'${state.ko}${used.ko}`, `'${shown}' › sheet '${sheet.name}'${state.en}${used.en}`);
}

/** The rows of the table: those after the header (or all, without one). */
function bodyRows(window: SheetWindow, header: RowData | undefined): { titles: RowData[]; body: RowData[] } {
  if (!header) return { titles: [], body: window.rows };
  return { titles: window.rows.filter((r) => r.index < header.index), body: window.rows.filter((r) => r.index > header.index) };
}

function overlapsRows(merge: string, from: number, to: number): boolean {
  const r = parseRange(merge);
  return r !== null && r.top <= to && (r.bottom ?? r.top) >= from;
}

interface Rendered {
  readonly lines: string[];
  /** First row not shown because the budget ran out, if any. */
  readonly cutAt: number | undefined;
  readonly lastShown: number;
  readonly longCell: boolean;
}

function renderTable(window: SheetWindow, header: RowData | undefined, columns: TableColumns, budget: number): Rendered {
  const { titles, body } = bodyRows(window, header);
  const lines: string[] = [];
  let used = 0;
  const add = (line: string): boolean => {
    if (used + line.length + 1 > budget && lines.length > 0) return false;
    lines.push(line);
    used += line.length + 1;
    return true;
  };
  let lastShown = 0;
  for (const t of titles) {
    const filled = t.cells.slice(columns.first - 1, columns.last).map((c) => cellText(c)).filter((c) => c.trim() !== '');
    if (!add(`[${t.index}] ${filled.join(' · ')}`)) return { lines, cutAt: t.index, lastShown, longCell: false };
    lastShown = t.index;
  }
  add(headerLine(columns, header, '#'));
  if (header) lastShown = Math.max(lastShown, header.index);
  let longCell = false;
  for (const row of body) {
    const line = rowLine(columns, row);
    if (!add(line)) return { lines, cutAt: row.index, lastShown, longCell };
    if (line.includes('…')) longCell ||= row.cells.some((c) => typeof c === 'string' && c.length > MAX_CELL_CHARS);
    lastShown = row.index;
  }
  return { lines, cutAt: undefined, lastShown, longCell };
}

async function mergesNote(files: ReadOnlyFileAccess, book: Book, sheet: SheetRef, from: number, to: number, signal: AbortSignal, lang: Lang): Promise<string | undefined> {
  if (book.kind !== 'xlsx') return undefined;
  const all = (await mergedRanges(files, book, book.sheets[sheet.position]!, signal)).filter((m) => overlapsRows(m, from, to));
  if (all.length === 0) return undefined;
  const listed = all.slice(0, LISTED_MERGES).join(', ') + (all.length > LISTED_MERGES ? ` … (+${all.length - LISTED_MERGES})` : '');
  return pick(
    text(`[병합된 셀: ${listed} — 값은 각 범위의 첫 칸에 있습니다]`, `[merged cells: ${listed} — each value is in the range's first cell]`),
    lang,
  );
}

function pagingNote(from: number, to: number, next: number | undefined, total: number | undefined, lang: Lang): string {
  const of = total !== undefined ? text(` / 전체 ${total}행`, ` of ${total}`) : text('', '');
  const go = next !== undefined ? text(` 다음 부분: offset=${next}`, ` Read on with offset=${next}.`) : text(' (끝)', ' (end)');
  return pick(text(`[행 ${from}–${to}${of.ko}.${go.ko}]`, `[rows ${from}–${to}${of.en}.${go.en}]`), lang);
}

export const excelRead = defineTool({
  name: 'excel.read',
  description: {
    ko: '엑셀(.xlsx)·CSV 시트를 표로 읽습니다(행 번호와 열 문자 포함, 날짜·수식은 값으로). sheet, range("A1:F50"), offset/limit으로 나눠 읽습니다.',
    en: 'Read an Excel (.xlsx) or CSV sheet as a table (row numbers and column letters; dates and formulas as values). Page with sheet, range ("A1:F50"), offset/limit.',
  },
  keywords: ['엑셀', '엑셀 읽기', '시트', '표', '스프레드시트', 'CSV', '셀', 'excel', 'xlsx', 'spreadsheet', 'read sheet', 'table', 'cells'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files'],

  async precheck(args, ctx) {
    if (args.range !== undefined && args.range.trim() !== '' && parseRange(args.range) === null) return badRange(args.range);
    return checkExisting(args.path, 'path', ctx, 'file');
  },

  summarize: (args) => {
    const where = [args.sheet ? `'${args.sheet}'` : undefined, args.range].filter(Boolean).join(' ');
    return where ? text(`'${args.path}'의 ${where}을(를) 읽습니다`, `Reads ${where} of '${args.path}'`) : text(`'${args.path}'을(를) 읽습니다`, `Reads '${args.path}'`);
  },

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const refused = await checkExisting(args.path, 'path', ctx, 'file');
    if (refused) return fail(lang, refused.failure);
    let range: CellRange = { top: 1, left: 1, bottom: undefined, right: undefined };
    if (args.range !== undefined && args.range.trim() !== '') {
      const parsed = parseRange(args.range);
      if (!parsed) return fail(lang, badRange(args.range).failure);
      range = parsed;
    }
    let shown = args.path;
    try {
      const opened = await openBook(files, args.path);
      if (isFailure(opened)) return fail(lang, opened.failure);
      const { book } = opened;
      shown = opened.shown;
      const sheet = pickSheet(book, args.sheet, shown);
      if (isFailure(sheet)) return fail(lang, sheet.failure);

      const offset = Math.max(range.top, Math.trunc(args.offset ?? range.top));
      const limit = Math.min(MAX_LIMIT, Math.max(1, Math.trunc(args.limit ?? DEFAULT_LIMIT)));
      const window = await readWindow(files, book, sheet, { top: range.top, bottom: range.bottom, offset, limit, headRows: HEAD_ROWS }, ctx.signal, book.kind === 'csv');
      const dimension = book.kind === 'xlsx' ? await declaredDimension(files, book, book.sheets[sheet.position]!) : null;
      const source = pick(describeSource(book, shown, sheet, dimension), lang);
      if (window.stopped === 'cancelled') return fail(lang, cancelledText, {}, 'cancelled');

      const timeNote = text(
        `[시간 한도에 닿아 ${window.lastSeen}행까지만 읽었습니다. range나 offset으로 나눠 읽으세요.]`,
        `[The time limit was reached after row ${window.lastSeen}. Read in parts with range or offset.]`,
      );
      if (window.stopped === 'time' && window.rows.length === 0) return fail(lang, text(`${source}: ${timeNote.ko}`, `${source}: ${timeNote.en}`), { lastRow: window.lastSeen }, 'timeout');
      const header = detectHeader(window.head);
      if (window.rows.length === 0) {
        const emptyText = window.lastSeen === 0
          ? text(`${source}: 빈 시트입니다. 다른 시트는 excel.sheets로 보세요.`, `${source}: the sheet is empty. excel.sheets lists the other sheets.`)
          : text(
              `${source}: 행 ${offset}부터 ${offset + limit - 1} 사이(범위 안)에 내용이 없습니다. 내용은 ${window.lastSeen}행까지 있습니다. offset을 더 작게 주세요.`,
              `${source}: no content in rows ${offset}–${offset + limit - 1} (within the range). The sheet's content ends at row ${window.lastSeen}; give a smaller offset.`,
            );
        return ok(pick(emptyText, lang), { rows: 0, lastRow: window.lastSeen });
      }

      if (range.bottom === range.top && range.right === range.left) {
        // One cell: its whole text (the table cuts long cells), within the budget.
        const value = cellText(window.rows[0]?.cells[range.left - 1] ?? null);
        const name = `${columnLetters(range.left)}${range.top}`;
        const room = Math.max(500, ctx.outputBudget - NOTE_RESERVE);
        const cut = value.length > room ? pick(text(`\n[${room}자에서 잘렸습니다 (전체 ${value.length}자)]`, `\n[cut at ${room} of ${value.length} characters]`), lang) : '';
        return ok(`${source} › ${name}:\n${value.slice(0, room)}${cut}`, { sheet: sheet.name, cell: name });
      }
      const widest = lastFilledColumn(header ? [header, ...window.rows] : window.rows);
      const right = range.right ?? widest;
      const last = Math.min(right, range.left + MAX_COLUMNS - 1);
      const columns: TableColumns = { first: range.left, last: Math.max(range.left, last) };
      const windowEnd = Math.min(offset + limit - 1, range.bottom ?? Number.MAX_SAFE_INTEGER);
      // A header below the window (limit: 1 over a title row) heads nothing shown.
      const headerShown = header && header.index <= windowEnd ? header : undefined;
      const budget = Math.max(500, ctx.outputBudget - NOTE_RESERVE - source.length);
      const table = renderTable(window, headerShown, columns, budget);

      const next = table.cutAt ?? (window.more ? windowEnd + 1 : undefined);
      const total = window.reachedEnd ? window.lastSeen : dimension ? (parseRange(dimension)?.bottom ?? undefined) : undefined;
      const notes: string[] = [pagingNote(offset, table.cutAt !== undefined ? table.cutAt - 1 : Math.max(table.lastShown, offset), next, total, lang)];
      if (window.stopped === 'time') notes.push(pick(timeNote, lang));
      if (right > columns.last) {
        const from = columnLetters(columns.last + 1);
        notes.push(
          pick(
            text(
              `[열 ${columnLetters(columns.first)}–${columnLetters(columns.last)}만 보였습니다 (내용은 ${columnLetters(right)}열까지). 나머지 열: range="${from}${offset}:${columnLetters(right)}${windowEnd}"]`,
              `[Only columns ${columnLetters(columns.first)}–${columnLetters(columns.last)} shown (content goes to column ${columnLetters(right)}). The rest: range="${from}${offset}:${columnLetters(right)}${windowEnd}"]`,
            ),
            lang,
          ),
        );
      }
      if (table.longCell) {
        notes.push(pick(text(`[${MAX_CELL_CHARS}자가 넘는 칸은 잘렸습니다. 한 칸 전체는 range="C7"처럼 그 칸만 주어 읽으세요.]`, `[Cells longer than ${MAX_CELL_CHARS} characters were cut. Read one whole cell with a range of just that cell, e.g. range="C7".]`), lang));
      }
      const merges = await mergesNote(files, book, sheet, offset, table.lastShown, ctx.signal, lang);
      if (merges) notes.push(merges);
      return ok([source, ...table.lines, ...notes].join('\n'), {
        sheet: sheet.name,
        firstRow: offset,
        lastRow: table.lastShown,
        ...(header ? { headerRow: header.index } : {}),
        ...(total !== undefined ? { totalRows: total } : {}),
        ...(next !== undefined ? { nextOffset: next } : {}),
      });
    } catch (e) {
      return readFailure(lang, e, files, shown);
    }
  },
});
