import type { Lang } from '../../../../electron/common/i18n';
import { pick } from '../../../../electron/common/i18n';
import type { AuditRowView } from '../../../../electron/common/ipc-contract';
import { t } from '../../i18n';

export interface AuditDetailProps {
  readonly row: AuditRowView | null;
  readonly lang: Lang;
  /** Narrow the list to the events carrying this id (a tool call's or a request's). */
  readonly onFollow: (id: string) => void;
}

/** The full stored event, exactly as the ledger holds it (canonical fields, sorted by the ledger). */
export function AuditDetail({ row, lang, onFollow }: AuditDetailProps) {
  return (
    <section className="audit-detail" aria-labelledby="audit-detail-heading">
      <h3 id="audit-detail-heading">{t('auditDetail', lang)}</h3>
      {row === null ? (
        <p className="muted">{t('auditDetailEmpty', lang)}</p>
      ) : (
        <>
          <p className="audit-detail-title">
            #{row.seq} · {pick(row.typeLabel, lang)} · {row.localTime} {row.utcOffset}
          </p>
          <div className="audit-follow">
            {row.callId !== '' && (
              <button type="button" onClick={() => onFollow(row.callId)}>
                {t('auditThisCall', lang)}
              </button>
            )}
            {row.requestId !== '' && (
              <button type="button" onClick={() => onFollow(row.requestId)}>
                {t('auditThisRequest', lang)}
              </button>
            )}
          </div>
          <pre className="audit-event" tabIndex={0} aria-label={t('auditDetail', lang)}>
            {JSON.stringify(row.event, null, 2)}
          </pre>
        </>
      )}
    </section>
  );
}
