import { LANGS, type Lang } from '../../../../electron/common/i18n';
import { LANG_NAMES, t } from '../../i18n';

export function LanguageSection({ lang, onLang }: { readonly lang: Lang; readonly onLang: (lang: Lang) => void }) {
  return (
    <fieldset className="settings-block">
      <legend>{t('settingsLanguage', lang)}</legend>
      {LANGS.map((l) => (
        <label key={l} className="radio" lang={l}>
          <input type="radio" name="settings-lang" value={l} checked={l === lang} onChange={() => onLang(l)} />
          {LANG_NAMES[l]}
        </label>
      ))}
      <p className="muted">{t('settingsLanguageHint', lang)}</p>
    </fieldset>
  );
}
