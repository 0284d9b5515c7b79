import { cellText, columnLetters, isEmptyValue, type CellValue, type RowData } from './cells';

/**
 * Rows as a Markdown table the model can use: a column of sheet row numbers and column letters in
 * the header, so a cell it wants to change is named exactly as excel.write takes it ("C7").
 */

/** A cell longer than this is cut in the table; the full text is one narrower range away. */
export const MAX_CELL_CHARS = 200;
/** Rows looked at from the top of the range to find the header row. */
const HEADER_SCAN_ROWS = 10;

function looksNumeric(s: string): boolean {
  return /^[-+]?[0-9][0-9,]*(\.[0-9]+)?%?$/.test(s.trim());
}

function isLabel(v: CellValue | undefined): boolean {
  return typeof v === 'string' && v.trim() !== '' && !looksNumeric(v);
}

/**
 * The header row among the first rows: the first with at least two filled cells, all of them
 * labels (text, not numbers or dates), followed by another row. A one-cell title above it
 * ("2024년 1분기 매출 보고서", often merged across the table) is not a header.
 */
export function detectHeader(rows: readonly RowData[]): RowData | undefined {
  const top = rows.slice(0, HEADER_SCAN_ROWS);
  for (const [i, row] of top.entries()) {
    const filled = row.cells.filter((c) => !isEmptyValue(c));
    if (filled.length === 0) continue;
    if (filled.length >= 2 && filled.every(isLabel) && i + 1 < rows.length) return row;
    if (filled.length >= 2) return undefined; // the first real row holds data: no header
  }
  return undefined;
}

function escapeCell(s: string): string {
  const one = s.replace(/\r?\n/g, ' ↵ ').replace(/\|/g, '\\|');
  return one.length > MAX_CELL_CHARS ? `${one.slice(0, MAX_CELL_CHARS)}…` : one;
}

export interface TableColumns {
  /** 1-based sheet columns shown, left to right. */
  readonly first: number;
  readonly last: number;
}

export function headerLine(columns: TableColumns, header: RowData | undefined, rowLabel: string): string {
  const cells: string[] = [rowLabel];
  for (let c = columns.first; c <= columns.last; c++) {
    const label = header ? cellText(header.cells[c - 1] ?? null) : '';
    cells.push(label ? `${columnLetters(c)} ${escapeCell(label)}` : columnLetters(c));
  }
  return `| ${cells.join(' | ')} |\n|${' --- |'.repeat(cells.length)}`;
}

export function rowLine(columns: TableColumns, row: RowData): string {
  const cells: string[] = [String(row.index)];
  for (let c = columns.first; c <= columns.last; c++) cells.push(escapeCell(cellText(row.cells[c - 1] ?? null)));
  return `| ${cells.join(' | ')} |`;
}

/** Last column with a value in any of the rows (0 when all are empty). */
export function lastFilledColumn(rows: readonly RowData[]): number {
  let last = 0;
  for (const row of rows) {
    for (let c = row.cells.length; c > last; c--) {
      if (!isEmptyValue(row.cells[c - 1])) {
        last = c;
        break;
      }
    }
  }
  return last;
}
