import { cellText, type CellRef, type CellValue } from './cells';
import { parseRows } from './csv';
import type { CellEdit } from './edits';

/** A CSV file as a grid of text, changed cell by cell and written out again. */
export class CsvGrid {
  private constructor(readonly rows: CellValue[][]) {}

  static parse(text: string, delimiter: string): CsvGrid {
    return new CsvGrid([...parseRows(text, delimiter)]);
  }

  static empty(): CsvGrid {
    return new CsvGrid([]);
  }

  value(ref: CellRef): CellValue {
    return this.rows[ref.row - 1]?.[ref.col - 1] ?? null;
  }

  filledCells(): CellRef[] {
    return this.rows.flatMap((row, r) => row.flatMap((v, c) => (v === null || v === '' ? [] : [{ row: r + 1, col: c + 1 }])));
  }

  apply(edits: readonly CellEdit[]): void {
    for (const e of edits) {
      while (this.rows.length < e.ref.row) this.rows.push([]);
      const row = this.rows[e.ref.row - 1]!;
      while (row.length < e.ref.col) row.push('');
      row[e.ref.col - 1] = e.value;
    }
  }

  clear(): void {
    this.rows.length = 0;
  }

  /** RFC 4180 text: fields with the delimiter, quotes, line breaks or edge spaces are quoted. */
  serialize(delimiter: string, crlf: boolean): string {
    const eol = crlf ? '\r\n' : '\n';
    const width = Math.max(0, ...this.rows.map((r) => r.length));
    const quote = (v: CellValue): string => {
      const s = cellText(v);
      return s.includes(delimiter) || /["\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
    };
    return this.rows.map((r) => Array.from({ length: width }, (_, i) => quote(r[i] ?? null)).join(delimiter)).join(eol) + (this.rows.length ? eol : '');
  }
}
