import { useEffect, useState } from 'react';
import { pick, type Lang } from '../../../../electron/common/i18n';
import type { BaramApi } from '../../../../electron/common/ipc-contract';
import type { ModelStatus } from '../../../../electron/common/settings-view';
import { t } from '../../i18n';

const STATE_KEYS = { connected: 'modelConnected', unreachable: 'modelUnreachable', none: 'modelNone' } as const;

/**
 * Which model the chat talks to and whether it answers (asked when the chat opens, after each
 * request and when settings change the model). An unreachable model says what to do in words.
 */
export function ModelStatusLine({ bridge, lang, refresh }: { readonly bridge: BaramApi; readonly lang: Lang; readonly refresh: unknown }) {
  const [status, setStatus] = useState<ModelStatus | null>(null);
  useEffect(() => {
    let current = true;
    bridge['model:status']({}).then(
      (r) => current && r.ok && setStatus(r.value),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [bridge, refresh]);
  if (!status) return null;
  return (
    <p className={`model-status model-${status.state}`} data-state={status.state} aria-label={t('modelStatusLabel', lang)}>
      <span className={`badge model-badge-${status.state}`}>{t(STATE_KEYS[status.state], lang)}</span>{' '}
      {status.state === 'connected' ? <code>{status.model ?? status.target}</code> : <span>{pick(status.message, lang)}</span>}
    </p>
  );
}
