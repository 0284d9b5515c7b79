/**
 * Small, generic helpers for benchmarks: timing, percentiles, an aligned table, ratio lines.
 * Benchmarks print; they do not assert (a slow CI machine must not fail the build), but they say
 * plainly whether each target holds.
 */

/** Runs `fn` `warmup` times untimed, then `runs` times; returns the timings in milliseconds. */
export async function timeRuns(runs: number, fn: () => unknown | Promise<unknown>, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

/** Percentile by linear interpolation between closest ranks (p in [0, 100]). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (rank - lo);
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/** Terminal columns a string takes: Hangul and other wide characters take two. */
export function displayWidth(s: string): number {
  let width = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    const wide =
      (cp >= 0x1100 && cp <= 0x115f) ||
      (cp >= 0x2e80 && cp <= 0xa4cf) ||
      (cp >= 0xac00 && cp <= 0xd7a3) ||
      (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xfe30 && cp <= 0xfe4f) ||
      (cp >= 0xff00 && cp <= 0xff60) ||
      (cp >= 0xffe0 && cp <= 0xffe6);
    width += wide ? 2 : 1;
  }
  return width;
}

function pad(s: string, width: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return right ? fill + s : s + fill;
}

/**
 * An aligned text table. Columns whose every body cell looks numeric are right-aligned.
 */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,]+\s*[%a-zA-Z×x]*$|^—$/.test((r[i] ?? '').trim())));
  const line = (cells: readonly string[]): string => cells.map((c, i) => pad(c, widths[i] as number, numeric[i] === true)).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

export interface RatioCheck {
  /** What is compared, e.g. "ours/grep". */
  readonly label: string;
  readonly ours: number;
  readonly theirs: number;
  /** The target holds when ours/theirs is at most this. */
  readonly maxRatio: number;
}

export function ratio(check: RatioCheck): number {
  return check.ours / check.theirs;
}

/** "ours/grep = 0.71 (target ≤ 1.00) MET". */
export function ratioLine(check: RatioCheck): string {
  const r = ratio(check);
  const verdict = Number.isFinite(r) && r <= check.maxRatio ? 'MET' : 'NOT MET';
  return `${check.label} = ${Number.isFinite(r) ? r.toFixed(2) : '—'} (target ≤ ${check.maxRatio.toFixed(2)}) ${verdict}`;
}

export type Cell = string | number;

function formatCell(value: Cell): string {
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return '—';
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) < 10 ? value.toFixed(3) : value.toFixed(1);
}

/**
 * Prints a titled table from row objects (columns = the first row's keys, in order). Numbers get
 * three decimals below 10 (sub-millisecond overheads stay visible), one above.
 */
export function printRows(title: string, rows: readonly Readonly<Record<string, Cell>>[]): void {
  const headers = rows.length > 0 ? Object.keys(rows[0] as Record<string, Cell>) : [];
  console.log(title);
  console.log(table(headers, rows.map((row) => headers.map((h) => formatCell(row[h] ?? '')))));
}
