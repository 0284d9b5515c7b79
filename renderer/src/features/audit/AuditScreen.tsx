import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Lang } from '../../../../electron/common/i18n';
import { pick } from '../../../../electron/common/i18n';
import type { AuditFilterProblem, AuditRowView, BaramApi, IpcErrorCode } from '../../../../electron/common/ipc-contract';
import { ipcErrorMessage, t } from '../../i18n';
import { dropFarPages, fetchPage, heldRows, pageOfRow, refetchSlot, rowSlots, type PageSlot } from './audit-pages';
import { AuditDetail } from './AuditDetail';
import { AuditFilters, EMPTY_FORM, filterOf, type FilterForm } from './AuditFilters';
import { AuditTable, type TableItem } from './AuditTable';
import { CheckpointPanel } from './CheckpointPanel';
import { ExportPanel } from './ExportPanel';
import { VerifyPanel } from './VerifyPanel';

interface Listing {
  /** Bumped on every filter change: answers for an older filter are dropped. */
  readonly generation: number;
  readonly pages: readonly PageSlot[];
  readonly done: boolean;
  readonly loading: boolean;
  /** The last call stopped at the engine's scan time: more matches may lie further down. */
  readonly searching: boolean;
  readonly problem?: AuditFilterProblem;
  readonly error?: IpcErrorCode;
}

const FRESH: Listing = { generation: 0, pages: [], done: false, loading: true, searching: false };
/** Rows that fill the table's view: fewer loaded than this, and the next page is asked for at once. */
const SCREEN_ROWS = 20;
const TABLE_HEIGHT = 440;

/**
 * The audit viewer for security staff (issue 17 scope 4): filters, a virtualised table over the
 * ledger fetched page by page from main, the full event, verify, export and the latest checkpoint.
 */
export function AuditScreen({ bridge, lang }: { readonly bridge: BaramApi; readonly lang: Lang }) {
  const [form, setForm] = useState<FilterForm>(EMPTY_FORM);
  const [refreshes, setRefreshes] = useState(0);
  const filter = useMemo(() => filterOf(form), [form]);
  const [listing, setListing] = useState<Listing>(FRESH);
  const [selected, setSelected] = useState<AuditRowView | null>(null);
  const [tools, setTools] = useState<readonly string[]>([]);
  const current = useRef(listing);
  current.current = listing;
  const inFlight = useRef(new Set<string>());
  const around = useRef(0);

  useEffect(() => {
    bridge['tools:list']({}).then(
      (r) => r.ok && setTools(r.value.map((tool) => tool.name).sort()),
      () => undefined,
    );
  }, [bridge]);

  const update = useCallback((generation: number, change: (l: Listing) => Listing) => {
    if (current.current.generation !== generation) return;
    const next = change(current.current);
    current.current = next;
    setListing(next);
  }, []);

  const loadNext = useCallback(
    (generation: number) => {
      const l = current.current;
      if (l.generation !== generation || l.done || inFlight.current.has('next')) return;
      inFlight.current.add('next');
      const before = l.pages.length === 0 ? undefined : l.pages[l.pages.length - 1]?.next;
      update(generation, (s) => ({ ...s, loading: true }));
      fetchPage(bridge, filter, before).then(
        (got) => {
          if (current.current.generation !== generation) return;
          inFlight.current.delete('next');
          if (!got.ok) {
            update(generation, (s) => ({ ...s, done: true, loading: false, searching: false, ...(got.problem ? { problem: got.problem } : {}), ...(got.code ? { error: got.code } : {}) }));
            return;
          }
          const slot: PageSlot = { before, next: got.page.nextBeforeSeq, count: got.page.events.length, rows: got.page.events };
          update(generation, (s) => ({
            ...s,
            pages: dropFarPages([...s.pages, slot], around.current),
            done: got.page.nextBeforeSeq === undefined,
            loading: false,
            searching: got.page.scanLimitReached === true,
          }));
          const now = current.current;
          if (!now.done && heldRows(now.pages) < SCREEN_ROWS) loadNext(generation);
        },
        () => {
          inFlight.current.delete('next');
          update(generation, (s) => ({ ...s, done: true, loading: false, error: 'INTERNAL' }));
        },
      );
    },
    [bridge, filter, update],
  );

  // A new filter (or Refresh) starts a new listing from the newest event.
  useEffect(() => {
    const generation = current.current.generation + 1;
    inFlight.current = new Set();
    around.current = 0;
    const fresh: Listing = { ...FRESH, generation };
    current.current = fresh;
    setListing(fresh);
    loadNext(generation);
  }, [filter, refreshes, loadNext]);

  const slots = useMemo(() => rowSlots(listing.pages), [listing.pages]);
  const items = useMemo<readonly TableItem[]>(() => (listing.done ? slots : [...slots, { sentinel: true } as const]), [slots, listing.done]);

  const onShown = useCallback(
    (index: number) => {
      const l = current.current;
      const generation = l.generation;
      const total = l.pages.reduce((n, p) => n + p.count, 0);
      if (index >= total - SCREEN_ROWS && !l.done) loadNext(generation);
      if (index >= total) return;
      const pageIndex = pageOfRow(l.pages, index);
      around.current = pageIndex;
      const page = l.pages[pageIndex];
      if (!page || page.rows !== null || inFlight.current.has(`page${pageIndex}`)) return;
      // A page dropped to save memory scrolled back into view: fetch it again between its bounds.
      inFlight.current.add(`page${pageIndex}`);
      refetchSlot(bridge, filter, page).then(
        (rows) => {
          inFlight.current.delete(`page${pageIndex}`);
          if (!rows) return;
          update(generation, (s) => ({ ...s, pages: dropFarPages(s.pages.map((p, i) => (i === pageIndex ? { ...p, rows, count: rows.length } : p)), pageIndex) }));
        },
        () => inFlight.current.delete(`page${pageIndex}`),
      );
    },
    [bridge, filter, loadNext, update],
  );

  const total = slots.length;
  const held = heldRows(listing.pages);
  const status = listing.problem
    ? pick(listing.problem.message, lang)
    : listing.error
      ? ipcErrorMessage(listing.error, lang)
      : listing.loading && total === 0
        ? t('auditLoading', lang)
        : total === 0 && listing.done
          ? t('auditNoEvents', lang)
          : `${t('auditShown', lang)} ${total}${listing.done ? '' : ` · ${listing.searching ? t('auditSearching', lang) : t('auditMore', lang)}`}`;

  return (
    <section className="audit" aria-labelledby="audit-heading">
      <div className="audit-title">
        <h2 id="audit-heading">{t('auditHeading', lang)}</h2>
        <button type="button" onClick={() => setRefreshes((n) => n + 1)}>
          {t('auditRefresh', lang)}
        </button>
      </div>
      <AuditFilters form={form} lang={lang} tools={tools} onChange={setForm} />
      <div className="audit-layout">
        <div
          className="audit-list"
          data-generation={listing.generation}
          data-state={listing.loading ? 'loading' : 'ready'}
          data-rows={total}
          data-held={held}
        >
          <p className={listing.problem || listing.error ? 'notice' : 'audit-status'} role="status">
            {status}
          </p>
          <AuditTable items={items} lang={lang} selectedSeq={selected?.seq ?? null} onSelect={setSelected} onShown={onShown} height={TABLE_HEIGHT} />
        </div>
        <div className="audit-side">
          <AuditDetail row={selected} lang={lang} onFollow={(id) => setForm({ ...EMPTY_FORM, text: id })} />
          <VerifyPanel bridge={bridge} lang={lang} />
          <ExportPanel bridge={bridge} lang={lang} filter={filter} />
          <CheckpointPanel bridge={bridge} lang={lang} />
        </div>
      </div>
    </section>
  );
}


