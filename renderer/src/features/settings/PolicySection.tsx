import { pick, type Lang } from '../../../../electron/common/i18n';
import type { BaramApi } from '../../../../electron/common/ipc-contract';
import type { PolicyView } from '../../../../electron/common/settings-view';
import { decisionLabel, ipcErrorMessage, riskLabel, ruleSourceLabel, t } from '../../i18n';
import { useIpcValue } from '../../lib/use-ipc';

/** The effective policy, read-only, each item saying where it came from and whether the admin locked it. */
export function PolicySection({ bridge, lang }: { readonly bridge: BaramApi; readonly lang: Lang }) {
  const policy = useIpcValue(() => bridge['policy:view']({}), [bridge]);
  return (
    <section className="settings-block" aria-labelledby="policy-heading">
      <h3 id="policy-heading">{t('settingsPolicy', lang)}</h3>
      {policy.error && (
        <p className="notice" role="alert">
          {ipcErrorMessage(policy.error, lang)}
        </p>
      )}
      {policy.value && <PolicyDetails policy={policy.value} lang={lang} />}
    </section>
  );
}

function Locked({ locked, lang }: { readonly locked: boolean; readonly lang: Lang }) {
  return locked ? <span className="badge locked">{t('settingsPolicyLocked', lang)}</span> : null;
}

function List({ items, lang }: { readonly items: readonly string[]; readonly lang: Lang }) {
  if (items.length === 0) return <>{t('settingsPolicyNone', lang)}</>;
  return (
    <ul className="plain-list">
      {items.map((i) => (
        <li key={i}>
          <code>{i}</code>
        </li>
      ))}
    </ul>
  );
}

function PolicyDetails({ policy, lang }: { readonly policy: PolicyView; readonly lang: Lang }) {
  return (
    <>
      <p className="muted">{t('settingsPolicyLockedHint', lang)}</p>
      <dl className="policy-facts">
        <dt>{t('settingsPolicyFile', lang)}</dt>
        <dd>{policy.adminFile ? <code>{policy.adminFile}</code> : t('settingsPolicyBuiltin', lang)}</dd>
        <dt>{t('settingsPolicyDigest', lang)}</dt>
        <dd>
          <code className="digest">{policy.digest}</code>
        </dd>
        <dt>{t('settingsPolicyRoots', lang)}</dt>
        <dd>
          <List items={policy.workspaceRoots} lang={lang} />
        </dd>
        <dt>{t('settingsPolicyShell', lang)}</dt>
        <dd>
          <List items={policy.shellCommands} lang={lang} />
        </dd>
        <dt>{t('settingsPolicyHttp', lang)}</dt>
        <dd>
          <List items={policy.httpAllow} lang={lang} />
        </dd>
        <dt>{t('settingsPolicyModels', lang)}</dt>
        <dd>
          <List items={[...policy.modelEndpoints, ...policy.modelFiles]} lang={lang} />
        </dd>
        <dt>{t('settingsPolicyApproval', lang)}</dt>
        <dd>
          {policy.approvalTimeoutSeconds}
          {t('seconds', lang)}
        </dd>
        <dt>{t('settingsPolicyRetention', lang)}</dt>
        <dd>
          {policy.auditRetentionDays} {t('settingsPolicyDays', lang)}
        </dd>
      </dl>
      <h4 id="policy-defaults">{t('settingsPolicyDefaults', lang)}</h4>
      <table className="policy-table" aria-labelledby="policy-defaults">
        <thead>
          <tr>
            <th scope="col">{t('approvalRisk', lang)}</th>
            <th scope="col">{t('settingsPolicyDecision', lang)}</th>
            <th scope="col">{t('settingsPolicySource', lang)}</th>
          </tr>
        </thead>
        <tbody>
          {policy.defaults.map((d) => (
            <tr key={d.risk} data-risk={d.risk} data-locked={d.locked}>
              <td>{riskLabel(d.risk, lang)}</td>
              <td>{decisionLabel(d.decision, lang)}</td>
              <td>
                {ruleSourceLabel(d.source, lang)} <Locked locked={d.locked} lang={lang} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4 id="policy-rules">{t('settingsPolicyRules', lang)}</h4>
      {policy.rules.length === 0 ? (
        <p>{t('settingsPolicyNoRules', lang)}</p>
      ) : (
        <table className="policy-table" aria-labelledby="policy-rules">
          <thead>
            <tr>
              <th scope="col">{t('settingsPolicyDecision', lang)}</th>
              <th scope="col">{t('settingsPolicyRule', lang)}</th>
              <th scope="col">{t('settingsPolicySource', lang)}</th>
            </tr>
          </thead>
          <tbody>
            {policy.rules.map((r, i) => (
              <tr key={`${r.decision}:${r.rule}:${i}`} data-locked={r.locked}>
                <td>{decisionLabel(r.decision, lang)}</td>
                <td>
                  <code>{r.rule}</code>
                </td>
                <td>
                  {ruleSourceLabel(r.source, lang)} <Locked locked={r.locked} lang={lang} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {policy.warnings.length > 0 && (
        <>
          <h4>{t('settingsPolicyWarnings', lang)}</h4>
          <ul>
            {policy.warnings.map((w, i) => (
              <li key={i}>{pick(w, lang)}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
