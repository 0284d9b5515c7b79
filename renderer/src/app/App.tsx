import { useEffect, useState } from 'react';
import { pick, type Lang } from '../../../electron/common/i18n';
import { assertNever } from '../../../electron/common/assert-never';
import type { AppInfo, BaramApi, IpcErrorCode, ToolSummary } from '../../../electron/common/ipc-contract';
import { DEFAULT_LANG, ipcErrorMessage, riskLabel, t } from '../i18n';

type ToolList =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly tools: readonly ToolSummary[] }
  | { readonly state: 'failed'; readonly code: IpcErrorCode };

export interface AppProps {
  /** window.baram, or null when the page runs without the desktop bridge. */
  readonly bridge: BaramApi | null;
}

export function App({ bridge }: AppProps) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [toolList, setToolList] = useState<ToolList>({ state: 'loading' });
  const lang: Lang = info?.lang ?? DEFAULT_LANG;

  useEffect(() => {
    if (!bridge) return;
    let current = true;
    bridge['app:info']({})
      .then((result) => {
        if (current && result.ok) setInfo(result.value);
      })
      .catch(() => undefined); // the page still works in Korean without version information
    bridge['tools:list']({})
      .then((result) => {
        if (!current) return;
        setToolList(result.ok ? { state: 'ready', tools: result.value } : { state: 'failed', code: result.error.code });
      })
      .catch(() => {
        if (current) setToolList({ state: 'failed', code: 'INTERNAL' });
      });
    return () => {
      current = false;
    };
  }, [bridge]);

  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = t('title', lang);
  }, [lang]);

  return (
    <main className="page">
      <header className="page-header">
        <h1>{t('title', lang)}</h1>
        <p className="tagline">{t('tagline', lang)}</p>
        {info && (
          <p className="version">
            {t('version', lang)} {info.version}
          </p>
        )}
      </header>
      {bridge ? <ToolSection toolList={toolList} lang={lang} /> : <p className="notice" role="alert">{t('bridgeMissing', lang)}</p>}
    </main>
  );
}

function ToolSection({ toolList, lang }: { readonly toolList: ToolList; readonly lang: Lang }) {
  return (
    <section aria-labelledby="tools-heading">
      <h2 id="tools-heading">{t('toolsHeading', lang)}</h2>
      <ToolListBody toolList={toolList} lang={lang} />
    </section>
  );
}

function ToolListBody({ toolList, lang }: { readonly toolList: ToolList; readonly lang: Lang }) {
  switch (toolList.state) {
    case 'loading':
      return <p>{t('loading', lang)}</p>;
    case 'failed':
      return (
        <p className="notice" role="alert">
          {ipcErrorMessage(toolList.code, lang)}
        </p>
      );
    case 'ready':
      if (toolList.tools.length === 0) return <p>{t('noTools', lang)}</p>;
      return (
        <table className="tools">
          <thead>
            <tr>
              <th scope="col">{t('columnName', lang)}</th>
              <th scope="col">{t('columnFamily', lang)}</th>
              <th scope="col">{t('columnRisk', lang)}</th>
              <th scope="col">{t('columnDescription', lang)}</th>
            </tr>
          </thead>
          <tbody>
            {toolList.tools.map((tool) => (
              <tr key={tool.name}>
                <td>
                  <code>{tool.name}</code>
                </td>
                <td>{tool.family}</td>
                <td>{riskLabel(tool.risk, lang)}</td>
                <td>{pick(tool.description, lang)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      );
    default:
      return assertNever(toolList);
  }
}
