import type { Lang } from '../../../../electron/common/i18n';
import type { BaramApi } from '../../../../electron/common/ipc-contract';
import { t } from '../../i18n';
import { GrantsSection } from './GrantsSection';
import { LanguageSection } from './LanguageSection';
import { ModelSection } from './ModelSection';
import { PolicySection } from './PolicySection';

export interface SettingsScreenProps {
  readonly bridge: BaramApi;
  readonly lang: Lang;
  readonly onLang: (lang: Lang) => void;
  /** A model was put in use (the chat's status line asks again). */
  readonly onModelChanged: () => void;
}

/** Settings (issue 17 scope 5): language, model, session grants, and the policy in force, read-only. */
export function SettingsScreen({ bridge, lang, onLang, onModelChanged }: SettingsScreenProps) {
  return (
    <section className="settings" aria-labelledby="settings-heading">
      <h2 id="settings-heading">{t('settingsHeading', lang)}</h2>
      <LanguageSection lang={lang} onLang={onLang} />
      <ModelSection bridge={bridge} lang={lang} onModelChanged={onModelChanged} />
      <GrantsSection bridge={bridge} lang={lang} />
      <PolicySection bridge={bridge} lang={lang} />
    </section>
  );
}
