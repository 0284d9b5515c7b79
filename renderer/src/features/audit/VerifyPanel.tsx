import type { Lang } from '../../../../electron/common/i18n';
import { pick } from '../../../../electron/common/i18n';
import type { BaramApi, IpcRequest } from '../../../../electron/common/ipc-contract';
import { ipcErrorMessage, t } from '../../i18n';
import { useIpcAction } from '../../lib/use-ipc';

/** The verify button and its answer: the CLI's verdict (first bad seq and why) and its whole report. */
export function VerifyPanel({ bridge, lang }: { readonly bridge: BaramApi; readonly lang: Lang }) {
  const { busy, value: result, error, run } = useIpcAction((args: IpcRequest<'audit:verify'>) => bridge['audit:verify'](args));
  const verify = () => run({});
  return (
    <section className="audit-verify" aria-labelledby="audit-verify-heading">
      <h3 id="audit-verify-heading">{t('auditVerify', lang)}</h3>
      <button type="button" onClick={verify} disabled={busy}>
        {busy ? t('auditVerifying', lang) : t('auditVerify', lang)}
      </button>
      <div role="status" className="audit-verdict" data-verdict={result ? (result.ok ? 'ok' : 'failed') : undefined}>
        {error && <p className="notice">{ipcErrorMessage(error, lang)}</p>}
        {result &&
          (result.ok ? (
            <p className="verdict-ok">
              {t('auditVerifyOk', lang)} ({t('auditRows', lang)} {result.rows})
            </p>
          ) : (
            <p className="verdict-failed">
              {t('auditVerifyFailed', lang)}
              {result.firstBadSeq !== undefined && ` — ${t('auditFirstBadSeq', lang)} ${result.firstBadSeq}`}
              {result.reason && `: ${pick(result.reason, lang)}`}
            </p>
          ))}
      </div>
      {result && (
        <details>
          <summary>{t('auditReport', lang)}</summary>
          <pre className="audit-report" tabIndex={0} aria-label={t('auditReport', lang)}>
            {pick(result.report, lang)}
          </pre>
        </details>
      )}
    </section>
  );
}
