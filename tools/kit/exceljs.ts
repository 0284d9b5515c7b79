import type ExcelJSModule from 'exceljs';

export type ExcelJS = typeof ExcelJSModule;

let loaded: Promise<ExcelJS> | undefined;

/**
 * exceljs is loaded when an excel tool first runs, not when the registry loads: it is ~1 MB of
 * JavaScript that a session which never opens a workbook should not pay for at start.
 */
export function loadExcelJs(): Promise<ExcelJS> {
  loaded ??= import('exceljs').then((m) => ((m as unknown as { default?: ExcelJS }).default ?? (m as unknown as ExcelJS)));
  return loaded;
}
