import type { Workbook, Worksheet } from 'exceljs';
import { plainValue, type CellRef, type CellValue } from './cells';
import type { CellEdit } from './edits';
import { loadExcelJs } from './exceljs';

/**
 * Writing xlsx with exceljs: a new workbook, or an existing one loaded whole, changed cell by
 * cell and written back. Only workbooks without parts exceljs would drop (charts, pivot tables,
 * macros, …; XlsxBook.extras) get here: the caller refuses the others.
 */

/** Existing workbooks up to this size are updated (loaded whole; ~30x the file size in memory). */
export const MAX_UPDATE_BYTES = 20 * 1024 * 1024;

export async function newWorkbook(sheetName: string): Promise<{ workbook: Workbook; sheet: Worksheet }> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Baram';
  return { workbook, sheet: workbook.addWorksheet(sheetName) };
}

export async function loadWorkbook(bytes: Uint8Array): Promise<Workbook> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  return workbook;
}

export function findWorksheet(workbook: Workbook, name: string): Worksheet | undefined {
  const wanted = name.normalize('NFC').trim().toLowerCase();
  return workbook.worksheets.find((w) => w.name === name) ?? workbook.worksheets.find((w) => w.name.normalize('NFC').trim().toLowerCase() === wanted);
}

export function valueReader(sheet: Worksheet): (ref: CellRef) => CellValue {
  return (ref) => plainValue(sheet.getCell(ref.row, ref.col).value);
}

/** Every cell with a value, for a sheet replaced whole by new rows. */
export function filledCells(sheet: Worksheet): CellRef[] {
  const out: CellRef[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, r) => row.eachCell({ includeEmpty: false }, (_cell, c) => out.push({ row: r, col: c })));
  return out;
}

export function applyEdits(sheet: Worksheet, edits: readonly CellEdit[]): void {
  for (const e of edits) {
    const cell = sheet.getCell(e.ref.row, e.ref.col);
    cell.value = e.value;
    // A date without a date format would show as a serial number (45296) in Excel.
    if (e.value instanceof Date && !/[dmy]/i.test(cell.numFmt ?? '')) cell.numFmt = 'yyyy-mm-dd';
  }
}

export async function workbookBytes(workbook: Workbook): Promise<Uint8Array> {
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}
