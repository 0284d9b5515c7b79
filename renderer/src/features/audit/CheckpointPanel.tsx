import { useEffect } from 'react';
import type { Lang } from '../../../../electron/common/i18n';
import type { BaramApi, IpcRequest } from '../../../../electron/common/ipc-contract';
import { ipcErrorMessage, t } from '../../i18n';
import { useIpcAction } from '../../lib/use-ipc';

/** The latest checkpoint as text and QR code (the same text and code `baram audit checkpoint` prints). */
export function CheckpointPanel({ bridge, lang }: { readonly bridge: BaramApi; readonly lang: Lang }) {
  const { busy, value: view, error, run } = useIpcAction((args: IpcRequest<'audit:checkpoint'>) => bridge['audit:checkpoint'](args));
  const load = (take: boolean) => run({ take });
  useEffect(() => load(false), [bridge]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <section className="audit-checkpoint" aria-labelledby="audit-checkpoint-heading">
      <h3 id="audit-checkpoint-heading">{t('auditCheckpoint', lang)}</h3>
      {error && <p className="notice">{ipcErrorMessage(error, lang)}</p>}
      {view && !view.text && <p className="muted">{t('auditCheckpointNone', lang)}</p>}
      {view?.text && (
        <div className="checkpoint-body">
          <pre className="checkpoint-text" tabIndex={0} aria-label={t('auditCheckpoint', lang)}>
            {view.text}
          </pre>
          {view.qr && (
            <svg className="checkpoint-qr" viewBox={`0 0 ${view.qr.size} ${view.qr.size}`} role="img" aria-label={t('auditCheckpointQr', lang)} shapeRendering="crispEdges">
              <rect width={view.qr.size} height={view.qr.size} fill="#fff" />
              <path fill="#000" d={view.qr.path} />
            </svg>
          )}
        </div>
      )}
      <p className="muted">{t('auditCheckpointHint', lang)}</p>
      <button type="button" onClick={() => load(true)} disabled={busy}>
        {t('auditCheckpointTake', lang)}
      </button>
    </section>
  );
}
