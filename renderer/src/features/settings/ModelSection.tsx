import { useEffect, useState } from 'react';
import { pick, type Lang } from '../../../../electron/common/i18n';
import type { BaramApi, IpcErrorCode } from '../../../../electron/common/ipc-contract';
import type { ModelCheckView, ModelUseResult } from '../../../../electron/common/settings-view';
import { ipcErrorMessage, t } from '../../i18n';
import { useIpcValue } from '../../lib/use-ipc';

const LOOPBACK = 'loopback';

/**
 * The model: which one is in use, what the administrator allows, a connection check (no prompt
 * is sent), and "use this model". Main refuses a model the policy does not list; the page only
 * shows what main answers.
 */
export function ModelSection({ bridge, lang, onModelChanged }: { readonly bridge: BaramApi; readonly lang: Lang; readonly onModelChanged: () => void }) {
  const settings = useIpcValue(() => bridge['settings:get']({}), [bridge]);
  const [target, setTarget] = useState('');
  const [checking, setChecking] = useState(false);
  const [check, setCheck] = useState<ModelCheckView | null>(null);
  const [used, setUsed] = useState<ModelUseResult | null>(null);
  const [error, setError] = useState<IpcErrorCode | null>(null);

  const current = settings.value?.modelTarget ?? null;
  // The model in use fills the box once; after that the box is the person's (not refilled on each edit).
  useEffect(() => {
    if (current) setTarget((typed) => (typed === '' ? current : typed));
  }, [current]);

  const run = (what: 'check' | 'use') => {
    const value = target.trim();
    if (!value) return;
    setError(null);
    setUsed(null);
    setChecking(true);
    const done = () => setChecking(false);
    if (what === 'check') {
      bridge['model:check']({ target: value }).then(
        (r) => {
          done();
          if (r.ok) setCheck(r.value);
          else setError(r.error.code);
        },
        () => (done(), setError('INTERNAL')),
      );
    } else {
      bridge['model:use']({ target: value }).then(
        (r) => {
          done();
          if (!r.ok) return setError(r.error.code);
          setUsed(r.value);
          if (!r.value.used) return;
          settings.reload();
          onModelChanged();
        },
        () => (done(), setError('INTERNAL')),
      );
    }
  };

  const allowed = settings.value?.allowed;
  return (
    <section className="settings-block" aria-labelledby="model-heading">
      <h3 id="model-heading">{t('settingsModel', lang)}</h3>
      <p>
        {t('settingsModelCurrent', lang)}: <code className="model-current">{current ?? t('settingsModelNone', lang)}</code>
      </p>
      {allowed && (
        <div className="model-allowed">
          <h4>{t('settingsModelAllowed', lang)}</h4>
          <ul>
            {allowed.endpoints.map((e) => (
              <li key={e}>{e === LOOPBACK ? t('settingsModelLoopback', lang) : <code>{e}</code>}</li>
            ))}
            {allowed.files.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
          {allowed.files.length === 0 && <p className="muted">{t('settingsModelNoFiles', lang)}</p>}
          {allowed.ggufFiles.length > 0 && (
            <ul className="gguf-files">
              {allowed.ggufFiles.map((f) => (
                <li key={f}>
                  <button type="button" className="link" onClick={() => setTarget(f)} aria-label={`${t('settingsModelPick', lang)}: ${f}`}>
                    <code>{f}</code>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <label htmlFor="model-target">{t('settingsModelTarget', lang)}</label>
      <div className="model-row">
        <input id="model-target" type="text" value={target} spellCheck={false} onChange={(e) => setTarget(e.target.value)} />
        <button type="button" disabled={checking || target.trim() === ''} onClick={() => run('check')}>
          {checking ? t('settingsModelChecking', lang) : t('settingsModelCheck', lang)}
        </button>
        <button type="button" disabled={checking || target.trim() === ''} onClick={() => run('use')}>
          {t('settingsModelUse', lang)}
        </button>
      </div>
      <p className="muted">{t('settingsModelCheckHint', lang)}</p>
      <div role="status" className="model-check-result">
        {check && (
          <div className={`check ${check.reachable ? 'check-ok' : 'check-bad'}`} data-reachable={check.reachable} data-allowed={check.allowed}>
            <p className="check-message">{pick(check.message, lang)}</p>
            {check.problems.length > 0 && (
              <ul>
                {check.problems.map((p, i) => (
                  <li key={i}>{pick(p, lang)}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {used?.used === true && <p className="check-ok">{t('settingsModelUsed', lang)}</p>}
        {used?.used === false && <p className="check-bad model-refused">{pick(used.message, lang)}</p>}
      </div>
      {error && (
        <p className="notice" role="alert">
          {ipcErrorMessage(error, lang)}
        </p>
      )}
    </section>
  );
}
