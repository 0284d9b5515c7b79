import type { Lang } from '../../../../electron/common/i18n';
import type { BaramApi, IpcErrorCode } from '../../../../electron/common/ipc-contract';
import { useState } from 'react';
import { ipcErrorMessage, t } from '../../i18n';
import { useIpcValue } from '../../lib/use-ipc';

/** The session's "allow for this session" grants, each revocable (the next such call asks again). */
export function GrantsSection({ bridge, lang }: { readonly bridge: BaramApi; readonly lang: Lang }) {
  const grants = useIpcValue(() => bridge['grants:list']({}), [bridge]);
  const [failed, setFailed] = useState<IpcErrorCode | null>(null);
  const revoke = (id: string) => {
    setFailed(null);
    bridge['grants:revoke']({ id }).then(
      (r) => {
        if (!r.ok) setFailed(r.error.code);
        grants.reload();
      },
      () => setFailed('INTERNAL'),
    );
  };
  const error = failed ?? grants.error;
  return (
    <section className="settings-block" aria-labelledby="grants-heading">
      <h3 id="grants-heading">{t('settingsGrants', lang)}</h3>
      <p className="muted">{t('settingsGrantsHint', lang)}</p>
      {error && (
        <p className="notice" role="alert">
          {ipcErrorMessage(error, lang)}
        </p>
      )}
      {grants.value && grants.value.length === 0 && <p>{t('settingsGrantsNone', lang)}</p>}
      {grants.value && grants.value.length > 0 && (
        <ul className="grants" aria-labelledby="grants-heading">
          {grants.value.map((g) => (
            <li key={g.id} className="grant" data-tool={g.tool}>
              <span>
                <code>{g.tool}</code>{' '}
                {g.kind === null ? t('settingsGrantAll', lang) : g.values.map((v) => <code key={v} className="grant-value">{v}</code>)}
              </span>
              <button type="button" onClick={() => revoke(g.id)} aria-label={`${t('settingsRevoke', lang)}: ${g.tool} ${g.values.join(', ')}`}>
                {t('settingsRevoke', lang)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
