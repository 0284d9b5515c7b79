import { useId, useState } from 'react';
import type { Lang } from '../../../../electron/common/i18n';
import { pick } from '../../../../electron/common/i18n';
import type { BaramApi, IpcRequest } from '../../../../electron/common/ipc-contract';
import { ipcErrorMessage, t } from '../../i18n';
import { useIpcAction } from '../../lib/use-ipc';
import type { AuditFilter } from './audit-pages';

type Format = IpcRequest<'audit:export'>['format'];
const FORMATS: readonly { readonly value: Format; readonly label: string }[] = [
  { value: 'csv', label: 'CSV' },
  { value: 'jsonl', label: 'JSONL' },
  { value: 'syslog', label: 'syslog' },
  { value: 'cef', label: 'CEF' },
];

/** Export: the page names the format and the period; where the file goes is main's save dialog. */
export function ExportPanel({ bridge, lang, filter }: { readonly bridge: BaramApi; readonly lang: Lang; readonly filter: AuditFilter }) {
  const id = useId();
  const [format, setFormat] = useState<Format>('csv');
  const { busy, value: result, error, run: send } = useIpcAction((args: IpcRequest<'audit:export'>) => bridge['audit:export'](args), { clearOnRun: true });
  const run = () => {
    const range = { ...(filter.fromTime ? { fromTime: filter.fromTime } : {}), ...(filter.toTime ? { toTime: filter.toTime } : {}) };
    send({ format, lang, ...range });
  };
  return (
    <section className="audit-export" aria-labelledby="audit-export-heading">
      <h3 id="audit-export-heading">{t('auditExport', lang)}</h3>
      <div className="row">
        <label htmlFor={`${id}-format`}>{t('auditExportFormat', lang)}</label>
        <select id={`${id}-format`} name="format" value={format} onChange={(e) => setFormat(e.currentTarget.value as Format)}>
            {FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
        </select>
        <button type="button" onClick={run} disabled={busy}>
          {busy ? t('auditExporting', lang) : `${t('auditExport', lang)}…`}
        </button>
      </div>
      <p className="muted">{t('auditExportRange', lang)}</p>
      <div role="status" className="audit-export-result">
        {error && <p className="notice">{ipcErrorMessage(error, lang)}</p>}
        {result?.saved === true && (
          <p data-exported={result.file}>
            {t('auditExported', lang)}: <code>{result.file}</code> ({t('auditRows', lang)} {result.rows}, SHA-256 <code>{result.sha256.slice(0, 16)}…</code>)
          </p>
        )}
        {result?.saved === false && (result.cancelled ? <p>{t('auditExportCancelled', lang)}</p> : <p className="notice">{pick(result.problem, lang)}</p>)}
      </div>
    </section>
  );
}
