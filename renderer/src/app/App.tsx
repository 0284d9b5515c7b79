import { useEffect, useState } from 'react';
import { LANGS, type Lang } from '../../../electron/common/i18n';
import type { AppInfo, BaramApi } from '../../../electron/common/ipc-contract';
import { ApprovalQueue } from '../features/approval/ApprovalQueue';
import { ChatScreen } from '../features/chat/ChatScreen';
import { DEFAULT_LANG, t } from '../i18n';

export interface AppProps {
  /** window.baram, or null when the page runs without the desktop bridge. */
  readonly bridge: BaramApi | null;
}

const LANG_NAMES: Readonly<Record<Lang, string>> = { ko: '한국어', en: 'English' };

export function App({ bridge }: AppProps) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [chosenLang, setChosenLang] = useState<Lang | null>(null);
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
      <main>
        {bridge ? (
          <>
            <ChatScreen bridge={bridge} lang={lang} />
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
