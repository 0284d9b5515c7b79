import { Type } from '@sinclair/typebox';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, isFailure, type ReadOnlyFileAccess } from '../kit/define-tool';
import { cappedLines } from '../kit/format';
import { cancelledText } from '../kit/document-files';
import { fail, ok } from '../kit/results';
import { checkExisting } from '../kit/targets';
import { encodingLabel } from '../kit/text-file';
import { openBook, sheetsOf, type Book, type SheetRef } from './book/book';
import { cellText, columnLetters, isEmptyValue, parseRange, rangeName } from './book/cells';
import { delimiterName } from './book/csv';
import { readFailure } from './book/failures';
import { extrasText } from './book/problems';
import { detectHeader } from './book/table';
import { measureSheet, readWindow } from './book/window';
import { declaredDimension } from './book/xlsx';

/** Sheets described in full; a workbook with more is listed by name beyond this. */
const DESCRIBED_SHEETS = 50;
/** Column names shown per sheet. */
const SHOWN_HEADERS = 12;

const input = Type.Object(
  {
    path: Type.String({ description: 'Excel (.xlsx) or CSV file, relative to the workspace (e.g. "reports/2024.xlsx").' }),
  },
  { additionalProperties: false },
);


interface Extent {
  readonly range: string | null;
  readonly rows: number;
  readonly columns: number;
  readonly timedOut: boolean;
}

/** The used range: as the sheet declares it, or (when it does not) by reading the sheet through. */
async function extentOf(files: ReadOnlyFileAccess, book: Book, sheet: SheetRef, signal: AbortSignal): Promise<Extent> {
  if (book.kind === 'xlsx') {
    const declared = await declaredDimension(files, book, book.sheets[sheet.position]!);
    const r = declared ? parseRange(declared) : null;
    if (declared && r && r.bottom !== undefined && r.right !== undefined) return { range: declared, rows: r.bottom - r.top + 1, columns: r.right - r.left + 1, timedOut: false };
  }
  const m = await measureSheet(files, book, sheet, signal);
  const range = m.rows === 0 ? null : rangeName({ top: m.firstRow, left: 1, bottom: m.rows, right: Math.max(1, m.columns) });
  return { range, rows: m.rows === 0 ? 0 : m.rows - m.firstRow + 1, columns: m.columns, timedOut: m.stopped === 'time' };
}

async function headersOf(files: ReadOnlyFileAccess, book: Book, sheet: SheetRef, signal: AbortSignal): Promise<string[]> {
  const w = await readWindow(files, book, sheet, { top: 1, bottom: undefined, offset: 1, limit: 10, headRows: 10 }, signal);
  const header = detectHeader(w.head);
  if (!header) return [];
  return header.cells.flatMap((c, i) => (isEmptyValue(c) ? [] : [`${columnLetters(i + 1)} ${cellText(c)}`]));
}

function stateText(sheet: SheetRef): Text {
  return sheet.state === 'hidden' ? text(' (숨김)', ' (hidden)') : sheet.state === 'veryHidden' ? text(' (매우 숨김)', ' (very hidden)') : text('', '');
}

async function sheetLine(files: ReadOnlyFileAccess, book: Book, sheet: SheetRef, signal: AbortSignal, lang: Lang): Promise<string> {
  const extent = await extentOf(files, book, sheet, signal);
  const state = pick(stateText(sheet), lang);
  const name = book.kind === 'csv' ? '' : `${sheet.position + 1}. '${sheet.name}'${state} — `;
  if (extent.range === null) return name + pick(text('빈 시트', 'empty sheet'), lang);
  const headers = await headersOf(files, book, sheet, signal);
  const shownHeaders = headers.slice(0, SHOWN_HEADERS).join(', ') + (headers.length > SHOWN_HEADERS ? ', …' : '');
  const size = text(`${extent.range} (${extent.rows}행 × ${extent.columns}열)`, `${extent.range} (${extent.rows} rows × ${extent.columns} columns)`);
  const head = headers.length > 0 ? text(`; 머리글: ${shownHeaders}`, `; header: ${shownHeaders}`) : text('', '');
  const timed = extent.timedOut ? text(' [시간 한도로 일부만 셈]', ' [partly counted: time limit]') : text('', '');
  return name + pick(text(`${size.ko}${head.ko}${timed.ko}`, `${size.en}${head.en}${timed.en}`), lang);
}

export const excelSheets = defineTool({
  name: 'excel.sheets',
  description: {
    ko: '엑셀(.xlsx)·CSV 파일의 시트 목록을 봅니다: 이름, 숨김 여부, 사용 범위, 머리글. 내용은 excel.read로 읽습니다.',
    en: 'List the sheets of an Excel (.xlsx) or CSV file: names, hidden or not, used range, header. Read the content with excel.read.',
  },
  keywords: ['엑셀', '시트 목록', '시트', '탭', '통합 문서', 'excel', 'xlsx', 'csv', 'sheets', 'worksheets', 'workbook', 'tabs'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files'],

  precheck: (args, ctx) => checkExisting(args.path, 'path', ctx, 'file'),

  summarize: (args) => text(`'${args.path}'의 시트 목록을 봅니다`, `Lists the sheets of '${args.path}'`),

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const refused = await checkExisting(args.path, 'path', ctx, 'file');
    if (refused) return fail(lang, refused.failure);
    let shown = args.path;
    try {
      const opened = await openBook(files, args.path);
      if (isFailure(opened)) return fail(lang, opened.failure);
      const { book } = opened;
      shown = opened.shown;
      const sheets = sheetsOf(book);
      const lines: string[] = [];
      if (book.kind === 'csv') {
        const kind = text(`CSV, ${encodingLabel(book.encoding)}, 구분자 ${delimiterName(book.delimiter)}`, `CSV, ${encodingLabel(book.encoding)}, delimiter ${delimiterName(book.delimiter)}`);
        lines.push(`'${shown}' (${pick(kind, lang)}): ${await sheetLine(files, book, sheets[0]!, ctx.signal, lang)}`);
      } else {
        lines.push(pick(text(`'${shown}': 시트 ${sheets.length}개`, `'${shown}': ${sheets.length} sheet(s)`), lang));
        const described: string[] = [];
        for (const sheet of sheets.slice(0, DESCRIBED_SHEETS)) {
          if (ctx.signal.aborted) return fail(lang, cancelledText, {}, 'cancelled');
          described.push(await sheetLine(files, book, sheet, ctx.signal, lang));
        }
        const rest = sheets.slice(DESCRIBED_SHEETS).map((s) => `${s.position + 1}. '${s.name}'${pick(stateText(s), lang)}`);
        lines.push(...cappedLines([...described, ...rest], lang));
        if (book.extras.length > 0) {
          const names = pick(extrasText(book.extras), lang);
          lines.push(pick(text(`[이 통합 문서에는 ${names}도 있습니다. excel.read는 셀 값만 읽습니다(매크로는 실행하지 않음).]`, `[The workbook also holds ${names}. excel.read reads cell values only (no macro is run).]`), lang));
        }
      }
      return ok(lines.join('\n'), { sheets: sheets.map((s) => ({ name: s.name, state: s.state })) });
    } catch (e) {
      return readFailure(lang, e, files, shown);
    }
  },
});
