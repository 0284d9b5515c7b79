/**
 * Cell values and A1 references, shared by the three excel tools.
 */

/** A cell as the tools see it: formulas already replaced by their cached result, rich text flattened. */
export type CellValue = string | number | boolean | Date | null;

/** One sheet row: `cells[0]` is column A. `index` is the 1-based row number in the sheet. */
export interface RowData {
  readonly index: number;
  readonly cells: readonly CellValue[];
}

/** "A" → 1, "AB" → 28. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** 1 → "A", 28 → "AB". */
export function columnLetters(n: number): string {
  let s = '';
  for (let v = n; v > 0; v = Math.floor((v - 1) / 26)) s = String.fromCharCode(65 + ((v - 1) % 26)) + s;
  return s;
}

/** Excel's own limits: a reference beyond them is a typo, not a place. */
export const MAX_SHEET_ROWS = 1_048_576;
export const MAX_SHEET_COLUMNS = 16_384;

export interface CellRef {
  readonly row: number;
  readonly col: number;
}

/** "B3" → { row: 3, col: 2 }; `$` anchors allowed; null when it is not a cell reference. */
export function parseCellRef(ref: string): CellRef | null {
  const m = /^\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$/.exec(ref.trim());
  if (!m) return null;
  const col = columnNumber(m[1]!);
  const row = Number(m[2]);
  if (row < 1 || row > MAX_SHEET_ROWS || col < 1 || col > MAX_SHEET_COLUMNS) return null;
  return { row, col };
}

export function cellName(ref: CellRef): string {
  return `${columnLetters(ref.col)}${ref.row}`;
}

/** A rectangle, 1-based and inclusive; an open side (whole columns "B:D", whole rows "3:10") is undefined. */
export interface CellRange {
  readonly top: number;
  readonly left: number;
  readonly bottom: number | undefined;
  readonly right: number | undefined;
}

/** "A1:D20", "B3", "B:D", "3:10", "A5:C" (from A5 down). null when it is not a range. */
export function parseRange(spec: string): CellRange | null {
  const s = spec.trim().replace(/\$/g, '');
  const cell = parseCellRef(s);
  if (cell) return { top: cell.row, left: cell.col, bottom: cell.row, right: cell.col };
  let m = /^([A-Za-z]{1,3})([0-9]{1,7})?:([A-Za-z]{1,3})([0-9]{1,7})?$/.exec(s);
  if (m) {
    const left = columnNumber(m[1]!);
    const right = columnNumber(m[3]!);
    const top = m[2] ? Number(m[2]) : 1;
    const bottom = m[4] ? Number(m[4]) : undefined;
    if (left < 1 || right < left || right > MAX_SHEET_COLUMNS || top < 1 || (bottom !== undefined && (bottom < top || bottom > MAX_SHEET_ROWS))) return null;
    return { top, left, bottom, right };
  }
  m = /^([0-9]{1,7}):([0-9]{1,7})$/.exec(s);
  if (m) {
    const top = Number(m[1]);
    const bottom = Number(m[2]);
    if (top < 1 || bottom < top || bottom > MAX_SHEET_ROWS) return null;
    return { top, left: 1, bottom, right: undefined };
  }
  return null;
}

export function rangeName(r: { top: number; left: number; bottom: number; right: number }): string {
  const a = cellName({ row: r.top, col: r.left });
  const b = cellName({ row: r.bottom, col: r.right });
  return a === b ? a : `${a}:${b}`;
}

/**
 * The value exceljs gives for a cell, as one of ours: a formula becomes its cached result (the
 * value Excel showed when the file was saved; nothing is recalculated or executed), rich text and
 * hyperlinks their text, an error its code ("#DIV/0!").
 */
export function plainValue(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) return 'result' in o ? plainValue(o.result) : null;
    if (Array.isArray(o.richText)) return o.richText.map((part: { text?: unknown }) => String(part.text ?? '')).join('');
    if ('error' in o) return String(o.error);
    if ('text' in o) return plainValue(o.text);
  }
  return null;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * How a value is shown to the model. Dates as ISO dates (with the time when it is not midnight):
 * exceljs reads date cells as UTC instants of the serial number, so UTC fields are the sheet's own.
 * Numbers to 15 significant digits, which is all Excel stores (0.1+0.2 shows as 0.3, as in Excel).
 */
export function cellText(v: CellValue): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return String(Number(v.toPrecision(15)));
  const date = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
  const h = v.getUTCHours();
  const m = v.getUTCMinutes();
  const s = v.getUTCSeconds();
  if (h === 0 && m === 0 && s === 0) return date;
  return `${date} ${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ''}`;
}

export function isEmptyValue(v: CellValue | undefined): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}
