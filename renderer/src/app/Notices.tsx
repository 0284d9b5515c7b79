import { useEffect, useState } from 'react';
import { pick, type Lang } from '../../../electron/common/i18n';
import type { AppNotice, BaramApi } from '../../../electron/common/ipc-contract';
import { t } from '../i18n';

/**
 * What the session reported on its own (an MCP server that could not start, stopped or was
 * restarted), above every screen until dismissed. Those from before the page loaded come from
 * notices:list; later ones arrive as app:notice events.
 */
export function Notices({ bridge, lang }: { readonly bridge: BaramApi; readonly lang: Lang }) {
  const [notices, setNotices] = useState<readonly AppNotice[]>([]);
  const [dismissed, setDismissed] = useState<ReadonlySet<number>>(new Set());
  const addAll = (more: readonly AppNotice[]) =>
    setNotices((known) => [...known, ...more.filter((n) => !known.some((k) => k.id === n.id))].sort((a, b) => a.id - b.id));

  useEffect(() => bridge.on('app:notice', (notice) => addAll([notice])), [bridge]);
  useEffect(() => {
    let current = true;
    bridge['notices:list']({})
      .then((result) => {
        if (current && result.ok) addAll(result.value);
      })
      .catch(() => undefined); // the ledger keeps them all the same
    return () => {
      current = false;
    };
  }, [bridge]);

  const shown = notices.filter((n) => !dismissed.has(n.id));
  return (
    <section className="session-notices" aria-label={t('notices', lang)} role="status" hidden={shown.length === 0}>
      {shown.map((n) => (
        <p key={n.id} className="session-notice" data-notice={n.id}>
          <span>{pick(n.text, lang)}</span>
          <button type="button" onClick={() => setDismissed((d) => new Set([...d, n.id]))}>
            {t('noticeDismiss', lang)}
          </button>
        </p>
      ))}
      {shown.length > 1 && (
        <button type="button" className="session-notices-dismiss-all" onClick={() => setDismissed((d) => new Set([...d, ...shown.map((n) => n.id)]))}>
          {t('noticeDismissAll', lang)}
        </button>
      )}
    </section>
  );
}
