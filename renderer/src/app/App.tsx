import { useEffect, useState } from 'react';
import { LANGS, type Lang } from '../../../electron/common/i18n';
import type { AppInfo, BaramApi } from '../../../electron/common/ipc-contract';
import { ApprovalQueue } from '../features/approval/ApprovalQueue';
import { AuditScreen } from '../features/audit/AuditScreen';
import { ChatScreen } from '../features/chat/ChatScreen';
import { DEFAULT_LANG, t } from '../i18n';
import type { MessageKey } from '../i18n/messages';

export interface AppProps {
  /** window.baram, or null when the page runs without the desktop bridge. */
  readonly bridge: BaramApi | null;
}

const LANG_NAMES: Readonly<Record<Lang, string>> = { ko: '한국어', en: 'English' };

/**
 * The screens of the window. To add one: a name here, its label key in SCREENS, its element in
 * the switch below. Chat stays mounted while hidden (a running request keeps streaming into it);
 * approvals show over every screen.
 */
type Screen = 'chat' | 'audit';
const SCREENS: readonly { readonly screen: Screen; readonly label: MessageKey }[] = [
  { screen: 'chat', label: 'navChat' },
  { screen: 'audit', label: 'navAudit' },
];

export function App({ bridge }: AppProps) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [chosenLang, setChosenLang] = useState<Lang | null>(null);
  const [screen, setScreen] = useState<Screen>('chat');
  const lang: Lang = chosenLang ?? info?.lang ?? DEFAULT_LANG;

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
              <button key={l} type="button" lang={l} aria-pressed={l === lang} onClick={() => setChosenLang(l)}>
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
      <main>
        {bridge ? (
          <>
            <div className="screen" hidden={screen !== 'chat'}>
              <ChatScreen bridge={bridge} lang={lang} />
            </div>
            {screen === 'audit' && <AuditScreen bridge={bridge} lang={lang} />}
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
