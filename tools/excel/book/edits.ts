import { pick, text, type Lang } from '../../../electron/common/i18n';
import { failure, type Failure } from '../../kit/define-tool';
import { cellName, cellText, parseCellRef, type CellRef, type CellValue } from './cells';

/**
 * What excel.write changes, as a list of cells with their old and new values: the same list
 * drives the approval's cell-level diff and the write, so what is shown is what is written.
 */

/** A value as the model sends it. */
export type InputValue = string | number | boolean | null;

export interface CellEdit {
  readonly ref: CellRef;
  readonly value: CellValue;
}

/** Most cells one call may write: a model writes a table of this size in several calls at most. */
export const MAX_WRITE_CELLS = 50_000;
/** Diff lines in the approval dialog; the count of further changes follows. */
const MAX_DIFF_LINES = 200;

const ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

/**
 * The stored value: "2024-01-05" becomes a date (what an office worker means by it), every other
 * string stays text; a string starting with "=" is stored as text, never as a formula.
 */
export function storedValue(v: InputValue): CellValue {
  if (typeof v === 'string') {
    const m = ISO_DATE.exec(v);
    if (m) {
      const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      if (d.getUTCMonth() === Number(m[2]) - 1) return d;
    }
    return v;
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}

/** Edits for `rows` placed with their first cell at A1. */
export function editsFromRows(rows: readonly (readonly InputValue[])[]): CellEdit[] {
  const out: CellEdit[] = [];
  rows.forEach((row, r) => row.forEach((v, c) => out.push({ ref: { row: r + 1, col: c + 1 }, value: storedValue(v) })));
  return out;
}

export function editsFromCells(cells: readonly { readonly ref: string; readonly value: InputValue }[]): CellEdit[] | Failure {
  const out = new Map<string, CellEdit>();
  for (const c of cells) {
    const ref = parseCellRef(c.ref);
    if (!ref) {
      return failure(
        text(
          `'${c.ref}'은(는) 칸 주소가 아닙니다. cells의 ref는 "B3"처럼 열 문자와 행 번호로 주세요 (excel.read가 보여 주는 행 번호와 열 문자).`,
          `'${c.ref}' is not a cell address. Give each ref in cells as a column letter and row number like "B3" (as excel.read shows them).`,
        ),
      );
    }
    out.set(cellName(ref), { ref, value: storedValue(c.value) });
  }
  return [...out.values()];
}

/** Excel's rules for sheet names; a name it would refuse is refused here, before approval. */
export function badSheetName(name: string): Failure | null {
  if (name.trim() !== '' && name.length <= 31 && !/[[\]:*?/\\]/.test(name) && !/^'|'$/.test(name)) return null;
  return failure(
    text(
      `시트 이름 '${name}'은(는) 쓸 수 없습니다. 1–31자로, [ ] : * ? / \\ 없이 주세요.`,
      `The sheet name '${name}' cannot be used. Use 1–31 characters without [ ] : * ? / \\.`,
    ),
  );
}

/**
 * CSV injection: Excel runs a CSV field that starts with = + - @ as a formula (DDE can start
 * programs). xlsx stores text as text, so only CSV output is guarded; "+82-10-…" and "-5" stay.
 */
export function formulaLike(value: CellValue): boolean {
  return typeof value === 'string' && /^(=|@|\+(?![0-9])|-(?![0-9 ]))/.test(value);
}

export interface CellChange {
  readonly ref: CellRef;
  readonly before: CellValue;
  readonly after: CellValue;
}

function same(a: CellValue, b: CellValue): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if ((a === null || a === '') && (b === null || b === '')) return true;
  return a === b;
}

/** The edits that change something, with the value each replaces. */
export function changesOf(edits: readonly CellEdit[], oldValue: (ref: CellRef) => CellValue): CellChange[] {
  return edits.flatMap((e) => {
    const before = oldValue(e.ref);
    return same(before, e.value) ? [] : [{ ref: e.ref, before, after: e.value }];
  });
}

function shownValue(v: CellValue, lang: Lang): string {
  if (v === null || v === '') return pick(text('(빈 칸)', '(empty)'), lang);
  const s = cellText(v).replace(/\r?\n/g, '↵');
  const clipped = s.length > 80 ? `${s.slice(0, 80)}…` : s;
  return typeof v === 'string' ? `"${clipped}"` : clipped;
}

/** The approval's cell-level diff: "C3: 1200000 → 1300000", row by row, capped. */
export function renderChanges(sheet: string, changes: readonly CellChange[], lang: Lang): string {
  const sorted = [...changes].sort((a, b) => a.ref.row - b.ref.row || a.ref.col - b.ref.col);
  const lines = [pick(text(`시트 '${sheet}': 칸 ${changes.length}개 변경`, `sheet '${sheet}': ${changes.length} cell(s) changed`), lang)];
  for (const c of sorted.slice(0, MAX_DIFF_LINES)) lines.push(`  ${cellName(c.ref)}: ${shownValue(c.before, lang)} → ${shownValue(c.after, lang)}`);
  if (sorted.length > MAX_DIFF_LINES) lines.push(pick(text(`  … 외 ${sorted.length - MAX_DIFF_LINES}개 더`, `  … and ${sorted.length - MAX_DIFF_LINES} more`), lang));
  return lines.join('\n');
}
