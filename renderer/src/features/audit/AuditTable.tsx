import { useEffect, type KeyboardEvent } from 'react';
import type { Lang } from '../../../../electron/common/i18n';
import { pick } from '../../../../electron/common/i18n';
import type { AuditRowView } from '../../../../electron/common/ipc-contract';
import { OUTCOMES, type Outcome } from '../../../../electron/common/domain';
import { VirtualList } from '../../lib/virtual-list';
import { outcomeLabel, t } from '../../i18n';
import { isPlaceholder, type RowSlot } from './audit-pages';

export const ROW_HEIGHT = 34;

export type TableItem = RowSlot | { readonly sentinel: true };

export interface AuditTableProps {
  readonly items: readonly TableItem[];
  readonly lang: Lang;
  readonly selectedSeq: number | null;
  readonly onSelect: (row: AuditRowView) => void;
  /** A row position came into view (more pages are fetched, dropped ones fetched again). */
  readonly onShown: (index: number) => void;
  readonly height: number;
}

/** Mounts with its row, so the table learns which positions are on screen without measuring. */
function Shown({ index, onShown }: { readonly index: number; readonly onShown: (index: number) => void }) {
  useEffect(() => onShown(index), [index, onShown]);
  return null;
}

function isOutcome(value: string): value is Outcome {
  return (OUTCOMES as readonly string[]).includes(value);
}

export function AuditTable({ items, lang, selectedSeq, onSelect, onShown, height }: AuditTableProps) {
  const header = (
    <div className="audit-row audit-head" aria-hidden="true">
      <span>{t('auditColSeq', lang)}</span>
      <span>{t('auditColTime', lang)}</span>
      <span>{t('auditColEvent', lang)}</span>
      <span>{t('auditColUser', lang)}</span>
      <span>{t('auditColTool', lang)}</span>
      <span>{t('auditColTarget', lang)}</span>
      <span>{t('auditColResult', lang)}</span>
    </div>
  );
  return (
    <div className="audit-table">
      {header}
      <VirtualList
        items={items}
        rowHeight={ROW_HEIGHT}
        height={height}
        label={t('auditTable', lang)}
        keyOf={(item, i) => ('sentinel' in item ? 'more' : isPlaceholder(item) ? `p${i}` : `s${item.seq}`)}
        renderRow={(item, i) => {
          if ('sentinel' in item) {
            return (
              <div className="audit-row audit-pending">
                <Shown index={i} onShown={onShown} />
                {t('auditLoading', lang)}
              </div>
            );
          }
          if (isPlaceholder(item)) {
            return (
              <div className="audit-row audit-pending" aria-busy="true">
                <Shown index={i} onShown={onShown} />
                {t('auditLoading', lang)}
              </div>
            );
          }
          const user = item.appUser !== '' && item.appUser !== item.osUser ? `${item.osUser} (${item.appUser})` : item.osUser;
          const result = item.outcome !== '' ? (isOutcome(item.outcome) ? outcomeLabel(item.outcome, lang) : item.outcome) : item.decision !== '' ? decisionWord(item.decision, lang) : '';
          return (
            <button
              type="button"
              className="audit-row"
              data-seq={item.seq}
              data-type={item.type}
              data-call={item.callId}
              aria-current={item.seq === selectedSeq ? 'true' : undefined}
              // The header row is visual only: each row names its columns for a screen reader.
              aria-label={[
                `${t('auditColSeq', lang)} ${item.seq}`,
                pick(item.typeLabel, lang),
                `${t('auditColTime', lang)} ${item.localTime}`,
                `${t('auditColUser', lang)} ${user}`,
                item.tool !== '' ? `${t('auditColTool', lang)} ${item.tool}` : '',
                item.target !== '' ? `${t('auditColTarget', lang)} ${item.target}` : '',
                result !== '' ? `${t('auditColResult', lang)} ${result}` : '',
              ]
                .filter((part) => part !== '')
                .join(', ')}
              onClick={() => onSelect(item)}
              onKeyDown={moveFocus}
            >
              <Shown index={i} onShown={onShown} />
              <span className="seq">{item.seq}</span>
              <span>{item.localTime}</span>
              <span>{pick(item.typeLabel, lang)}</span>
              <span>{user}</span>
              <span>{item.tool}</span>
              <span className="target">{item.target}{item.moreTargets > 0 ? ` (+${item.moreTargets})` : ''}</span>
              <span className={item.outcome !== '' ? `badge outcome-${item.outcome}` : undefined}>{result}</span>
            </button>
          );
        }}
      />
    </div>
  );
}

/**
 * Arrow keys move between rows (Enter opens one), so the table is usable without a mouse. Rows are
 * in the DOM in order, with a few beyond the view (virtual-list overscan); focus scrolls the next
 * one into view, which renders the rows after it.
 */
function moveFocus(e: KeyboardEvent<HTMLButtonElement>): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  e.preventDefault();
  const item = e.currentTarget.closest('[role="listitem"]');
  const sibling = e.key === 'ArrowDown' ? item?.nextElementSibling : item?.previousElementSibling;
  sibling?.querySelector<HTMLButtonElement>('button.audit-row')?.focus();
}

export function decisionWord(decision: string, lang: Lang): string {
  if (decision === 'allow') return t('allow', lang);
  if (decision === 'ask') return t('ask', lang);
  if (decision === 'deny') return t('denyDecision', lang);
  return decision;
}
