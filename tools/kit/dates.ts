import { text } from '../../electron/common/i18n';
import { failure, type Failure } from './define-tool';

/**
 * Date bounds for listings (modifiedAfter / modifiedBefore, issue 15 item 2), in the machine's
 * local time — what the office worker's clock and Explorer show. "2022", "2022-05", "2022-05-03"
 * or "2022-05-03T14:00": the start of that year, month, day or minute. After is inclusive, before
 * exclusive, so `modifiedAfter: "2022", modifiedBefore: "2023"` is exactly the year 2022.
 */
const FORM = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?)?)?$/;

export function parseDateBound(value: string, field: string): number | Failure {
  const m = FORM.exec(value.trim());
  if (m) {
    const [y, mo, d, h, mi, s] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v)));
    const date = new Date(y!, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0);
    const valid = date.getFullYear() === y && date.getMonth() === (mo ?? 1) - 1 && date.getDate() === (d ?? 1);
    if (valid) return date.getTime();
  }
  return failure(
    text(
      `${field} '${value}'은(는) 날짜로 읽을 수 없습니다. "2022", "2022-05" 또는 "2022-05-03"처럼 쓰세요 (이 컴퓨터의 시간 기준).`,
      `${field} '${value}' is not a date. Write it like "2022", "2022-05" or "2022-05-03" (this computer's local time).`,
    ),
  );
}

export interface DateRange {
  readonly after?: number;
  readonly before?: number;
}

/** Both bounds parsed (blank = none), or the first one that is not a date. */
export function dateRange(args: { modifiedAfter?: string | undefined; modifiedBefore?: string | undefined }): DateRange | Failure | null {
  const range: { after?: number; before?: number } = {};
  for (const [field, key] of [['modifiedAfter', 'after'], ['modifiedBefore', 'before']] as const) {
    const value = args[field];
    if (value === undefined || value.trim() === '') continue;
    const parsed = parseDateBound(value, field);
    if (typeof parsed !== 'number') return parsed;
    range[key] = parsed;
  }
  return range.after === undefined && range.before === undefined ? null : range;
}

export function inRange(mtimeMs: number, range: DateRange | null): boolean {
  if (!range) return true;
  return (range.after === undefined || mtimeMs >= range.after) && (range.before === undefined || mtimeMs < range.before);
}

/** "2022-05-03 14:22": local, minute precision — short enough for a listing line. */
export function shortLocalTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export const DATE_FIELDS_DESCRIPTION = {
  after: 'Only files modified on or after this local date/time ("2022", "2022-05", "2022-05-03"). Empty = no bound.',
  before: 'Only files modified before this local date/time (exclusive: "2023" ends 2022). Empty = no bound.',
} as const;
