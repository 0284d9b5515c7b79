import { text, type Text } from '../../../electron/common/i18n';
import type { ReadOnlyFileAccess } from '../../kit/define-tool';
import { extensionOf } from '../../kit/document-files';
import { baseName } from '../../kit/paths';
import { refusal } from '../../kit/targets';
import { failure, type Failure } from '../../kit/define-tool';
import type { RowData } from './cells';
import { csvRows, openCsv, type CsvBook } from './csv';
import { isBookProblem, problemText, type BookProblem, type SheetState } from './problems';
import { isFileAccessError } from '../../../electron/common/file-access';
import { openXlsx, xlsxRows, type XlsxBook } from './xlsx';

/** An opened workbook or CSV file: what the three tools read through. */
export type Book = XlsxBook | CsvBook;

export interface SheetRef {
  /** 0-based position in the workbook. */
  readonly position: number;
  readonly name: string;
  readonly state: SheetState;
}

/** Extensions the excel tools read. Macro-enabled ones are read too: reading runs no macro. */
const XLSX_EXTENSIONS = ['xlsx', 'xlsm', 'xltx', 'xltm'];
const CSV_EXTENSIONS = ['csv', 'tsv'];

/**
 * Opens `path` (as the model gave it) for reading: existence, a regular file, a known format and
 * the size caps are checked before any parsing. Host errors (outside the roots, …) propagate as
 * FileAccessErrors for the caller's fromHostError.
 */
export async function openBook(files: ReadOnlyFileAccess, path: string): Promise<{ readonly book: Book; readonly shown: string } | Failure> {
  const info = await files.stat(path);
  if (info === null) return refusal('NOT_FOUND', path, files);
  if (info.type === 'directory') return refusal('IS_DIRECTORY', path);
  const shown = files.display(info.path);
  const ext = extensionOf(info.path);
  let opened: Book | BookProblem;
  try {
    opened = XLSX_EXTENSIONS.includes(ext)
      ? await openXlsx(files, info.path, info.size)
      : CSV_EXTENSIONS.includes(ext)
        ? await openCsv(files, info.path, info.size, ext)
        : { problem: 'format', ext };
  } catch (e) {
    // zlib on a damaged workbook.xml; host errors (outside the roots, vanished) stay what they are.
    if (isFileAccessError(e)) throw e;
    opened = { problem: 'damaged' };
  }
  if (isBookProblem(opened)) return failure(problemText(opened, shown));
  return { book: opened, shown };
}

export function sheetsOf(book: Book): SheetRef[] {
  if (book.kind === 'csv') return [{ position: 0, name: baseName(book.path).replace(/\.[^.]+$/, ''), state: 'visible' }];
  return book.sheets.map((s, position) => ({ position, name: s.name, state: s.state }));
}

export function rowsOf(files: ReadOnlyFileAccess, book: Book, sheet: SheetRef, signal: AbortSignal): AsyncIterable<RowData> | Iterable<RowData> {
  if (book.kind === 'csv') return csvRows(book);
  return xlsxRows(files, book, book.sheets[sheet.position]!, signal);
}

function sameName(a: string, b: string): boolean {
  return a.normalize('NFC').trim().toLowerCase() === b.normalize('NFC').trim().toLowerCase();
}

/**
 * The sheet a call names: by exact name, then ignoring case and spacing around it, then (when no
 * sheet has that name) as a 1-based position ("2"). Without a name, the first visible sheet.
 */
export function pickSheet(book: Book, wanted: string | undefined, shown: string): SheetRef | Failure {
  const sheets = sheetsOf(book);
  if (sheets.length === 0) {
    return failure(text(`'${shown}'에 셀이 있는 시트가 없습니다 (차트 시트만 있을 수 있습니다).`, `'${shown}' has no sheet with cells (it may hold chart sheets only).`));
  }
  if (wanted === undefined || wanted.trim() === '') return sheets.find((s) => s.state === 'visible') ?? sheets[0]!;
  const found = sheets.find((s) => s.name === wanted) ?? sheets.find((s) => sameName(s.name, wanted));
  if (found) return found;
  if (/^[0-9]+$/.test(wanted.trim())) {
    const byPosition = sheets[Number(wanted.trim()) - 1];
    if (byPosition) return byPosition;
  }
  return failure(unknownSheetText(shown, wanted, sheets));
}

export function unknownSheetText(shown: string, wanted: string, sheets: readonly SheetRef[]): Text {
  const names = sheets.slice(0, 20).map((s) => `'${s.name}'`).join(', ');
  return text(
    `'${shown}'에 '${wanted}' 시트가 없습니다. 있는 시트: ${names}. sheet에 이 중 하나를 주세요 (excel.sheets로 목록을 볼 수 있습니다).`,
    `'${shown}' has no sheet '${wanted}'. Its sheets: ${names}. Give one of them as sheet (excel.sheets lists them).`,
  );
}
