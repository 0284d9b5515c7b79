import { useEffect, useState } from 'react';
import { LANGS, type Lang } from '../../../electron/common/i18n';
import type { AppInfo, BaramApi } from '../../../electron/common/ipc-contract';
import { ApprovalQueue } from '../features/approval/ApprovalQueue';
import { AuditScreen } from '../features/audit/AuditScreen';
import { ChatScreen } from '../features/chat/ChatScreen';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { Notices } from './Notices';
import { DEFAULT_LANG, LANG_NAMES, t } from '../i18n';
import type { MessageKey } from '../i18n/messages';

export interface AppProps {
  /** window.baram, or null when the page runs without the desktop bridge. */
  readonly bridge: BaramApi | null;
}

/**
 * The screens of the window. To add one: a name here, its label key in SCREENS, its element in
 * the switch below. Chat stays mounted while hidden (a running request keeps streaming into it);
 * approvals show over every screen.
 */
type Screen = 'chat' | 'audit' | 'settings';
const SCREENS: readonly { readonly screen: Screen; readonly label: MessageKey }[] = [
  { screen: 'chat', label: 'navChat' },
  { screen: 'audit', label: 'navAudit' },
  { screen: 'settings', label: 'navSettings' },
];

export function App({ bridge }: AppProps) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [chosenLang, setChosenLang] = useState<Lang | null>(null);
  const [screen, setScreen] = useState<Screen>('chat');
  const lang: Lang = chosenLang ?? info?.lang ?? DEFAULT_LANG;
  const [modelVersion, setModelVersion] = useState(0);

  // The language switches at once and is saved for the next start (settings:set-lang).
  const chooseLang = (l: Lang) => {
    setChosenLang(l);
    bridge?.['settings:set-lang']({ lang: l }).catch(() => undefined);
  };

  useEffect(() => {
    if (!bridge) return;
    let current = true;
    bridge['app:info']({})
      .then((result) => {
        if (current && result.ok) setInfo(result.value);
      })
      .catch(() => undefined); // the page still works in Korean without version information
    return () => {
      current = false;
    };
  }, [bridge]);

  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = t('title', lang);
  }, [lang]);

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{t('title', lang)}</h1>
          <p className="tagline">{t('tagline', lang)}</p>
        </div>
        <div className="header-side">
          <div role="group" aria-label={t('language', lang)} className="lang-switch">
            {LANGS.map((l) => (
              <button key={l} type="button" lang={l} aria-pressed={l === lang} onClick={() => chooseLang(l)}>
                {LANG_NAMES[l]}
              </button>
            ))}
          </div>
          {info && (
            <p className="version">
              {t('version', lang)} {info.version}
            </p>
          )}
        </div>
      </header>
      {bridge && (
        <nav className="screen-nav" aria-label={t('screens', lang)}>
          {SCREENS.map((s) => (
            <button key={s.screen} type="button" aria-current={s.screen === screen ? 'page' : undefined} onClick={() => setScreen(s.screen)}>
              {t(s.label, lang)}
            </button>
          ))}
        </nav>
      )}
      {bridge && <Notices bridge={bridge} lang={lang} />}
      <main>
        {bridge ? (
          <>
            <div className="screen" hidden={screen !== 'chat'}>
              <ChatScreen bridge={bridge} lang={lang} modelVersion={modelVersion} />
            </div>
            {screen === 'audit' && <AuditScreen bridge={bridge} lang={lang} />}
            {screen === 'settings' && (
              <SettingsScreen bridge={bridge} lang={lang} onLang={chooseLang} onModelChanged={() => setModelVersion((n) => n + 1)} />
            )}
            <ApprovalQueue bridge={bridge} lang={lang} />
          </>
        ) : (
          <p className="notice" role="alert">
            {t('bridgeMissing', lang)}
          </p>
        )}
      </main>
    </div>
  );
}
