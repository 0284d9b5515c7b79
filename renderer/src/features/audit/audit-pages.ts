import type { AuditFilterProblem, AuditPage, AuditRowView, BaramApi, IpcErrorCode, IpcRequest } from '../../../../electron/common/ipc-contract';

export type AuditFilter = IpcRequest<'audit:page'>['filter'];

/**
 * The viewer's window onto the ledger: pages fetched from main (keyset paging on seq, newest
 * first), of which the page keeps only the ones near what is on screen. A page far from view keeps
 * its bounds and its row count (so the scroll height stays) and drops its rows; scrolling back
 * fetches it again between the same bounds. So a 100k-event ledger scrolls without the page ever
 * holding more than MAX_HELD_PAGES × PAGE_ROWS rows.
 */
export const PAGE_ROWS = 100;
export const MAX_HELD_PAGES = 12;

export interface PageSlot {
  /** The request's beforeSeq (undefined: the newest). */
  readonly before: number | undefined;
  /** nextBeforeSeq: this page holds the matching rows with next ≤ seq < before; undefined → all below before. */
  readonly next: number | undefined;
  readonly count: number;
  /** null: dropped to save memory (or being fetched again). */
  readonly rows: readonly AuditRowView[] | null;
}

/** A row position whose page was dropped: drawn as an empty row until it is fetched again. */
export interface RowPlaceholder {
  readonly placeholder: number;
}

export type RowSlot = AuditRowView | RowPlaceholder;

export function isPlaceholder(slot: RowSlot): slot is RowPlaceholder {
  return 'placeholder' in slot;
}

export type Fetched = { readonly ok: true; readonly page: Extract<AuditPage, { events: unknown }> } | { readonly ok: false; readonly problem?: AuditFilterProblem; readonly code?: IpcErrorCode };

export async function fetchPage(bridge: BaramApi, filter: AuditFilter, beforeSeq: number | undefined, limit = PAGE_ROWS): Promise<Fetched> {
  const r = await bridge['audit:page']({ filter, limit, ...(beforeSeq !== undefined ? { beforeSeq } : {}) });
  if (!r.ok) return { ok: false, code: r.error.code };
  if ('problem' in r.value) return { ok: false, problem: r.value.problem };
  return { ok: true, page: r.value };
}

/**
 * The rows of a dropped page again: asks from its `before` until it reaches its `next`. A call may
 * stop early (the engine's scan time, event-query.ts), so this keeps asking from where it stopped.
 */
export async function refetchSlot(bridge: BaramApi, filter: AuditFilter, slot: PageSlot): Promise<readonly AuditRowView[] | null> {
  const rows: AuditRowView[] = [];
  let cursor = slot.before;
  for (let calls = 0; calls < 1000; calls++) {
    const got = await fetchPage(bridge, filter, cursor, Math.min(200, Math.max(1, slot.count - rows.length + 1)));
    if (!got.ok) return null;
    for (const row of got.page.events) if (slot.next === undefined || row.seq >= slot.next) rows.push(row);
    const next = got.page.nextBeforeSeq;
    if (rows.length >= slot.count || next === undefined || (slot.next !== undefined && next <= slot.next)) break;
    cursor = next;
  }
  return rows.slice(0, slot.count);
}

/** Every row position, loaded or not: one shared placeholder object per dropped page. */
export function rowSlots(pages: readonly PageSlot[]): RowSlot[] {
  const out: RowSlot[] = [];
  pages.forEach((page, index) => {
    if (page.rows) out.push(...page.rows);
    else {
      const placeholder: RowPlaceholder = { placeholder: index };
      for (let i = 0; i < page.count; i++) out.push(placeholder);
    }
  });
  return out;
}

/** The page a row position belongs to. */
export function pageOfRow(pages: readonly PageSlot[], row: number): number {
  let start = 0;
  for (const [index, page] of pages.entries()) {
    if (row < start + page.count) return index;
    start += page.count;
  }
  return Math.max(0, pages.length - 1);
}

/** Drops the rows of the pages farthest from `around` until at most MAX_HELD_PAGES hold rows. */
export function dropFarPages(pages: readonly PageSlot[], around: number): PageSlot[] {
  const held = pages.map((p, i) => ({ p, i })).filter(({ p }) => p.rows !== null && p.count > 0);
  if (held.length <= MAX_HELD_PAGES) return [...pages];
  const far = held.sort((a, b) => Math.abs(b.i - around) - Math.abs(a.i - around)).slice(0, held.length - MAX_HELD_PAGES);
  const drop = new Set(far.map(({ i }) => i));
  return pages.map((p, i) => (drop.has(i) ? { ...p, rows: null } : p));
}

export function heldRows(pages: readonly PageSlot[]): number {
  return pages.reduce((n, p) => n + (p.rows?.length ?? 0), 0);
}
