import { useEffect, useReducer, useState } from 'react';
import type { Lang } from '../../../../electron/common/i18n';
import type { BaramApi, IpcErrorCode } from '../../../../electron/common/ipc-contract';
import { assertNever } from '../../../../electron/common/assert-never';
import { ipcErrorMessage, t } from '../../i18n';
import { chatReducer, initialChat, type ChatEntry } from './chat-state';
import { Composer } from './Composer';
import { ToolCard } from './ToolCard';

export function ChatScreen({ bridge, lang }: { readonly bridge: BaramApi; readonly lang: Lang }) {
  const [state, dispatch] = useReducer(chatReducer, initialChat);
  const [error, setError] = useState<IpcErrorCode | null>(null);

  useEffect(() => bridge.on('chat:event', (event) => dispatch({ type: 'event', event })), [bridge]);

  const send = (text: string) => {
    setError(null);
    bridge['chat:send']({ text, ...(state.conversationId ? { conversationId: state.conversationId } : {}) }).then(
      (r) => (r.ok ? dispatch({ type: 'sent', runId: r.value.runId, text }) : setError(r.error.code)),
      () => setError('INTERNAL'),
    );
  };
  const stop = () => {
    if (state.runId) void bridge['chat:stop']({ runId: state.runId });
  };

  return (
    <section className="chat" aria-labelledby="chat-heading">
      <h2 id="chat-heading" className="visually-hidden">
        {t('chatHeading', lang)}
      </h2>
      <div className="chat-log" aria-live="polite">
        {state.entries.length === 0 && <p className="chat-empty">{t('chatEmpty', lang)}</p>}
        {state.entries.map((entry) => (
          <Entry key={entry.id} entry={entry} lang={lang} />
        ))}
        {state.thinking && <p className="thinking">{t('thinking', lang)}</p>}
      </div>
      {error && (
        <p className="notice" role="alert">
          {ipcErrorMessage(error, lang)}
        </p>
      )}
      <div className="chat-controls">
        <Composer lang={lang} disabled={state.runId !== null} onSend={send} />
        {state.runId !== null && (
          <button type="button" className="stop" onClick={stop}>
            {t('stop', lang)}
          </button>
        )}
      </div>
    </section>
  );
}

function Entry({ entry, lang }: { readonly entry: ChatEntry; readonly lang: Lang }) {
  switch (entry.kind) {
    case 'user':
      return (
        <div className="bubble user" aria-label={t('you', lang)}>
          {entry.text}
        </div>
      );
    case 'assistant':
      return (
        <div className="bubble assistant" aria-label={t('assistant', lang)}>
          {entry.text}
        </div>
      );
    case 'tool':
      return <ToolCard card={entry.card} lang={lang} />;
    case 'notice':
      return (
        <p className={`notice run-${entry.status}`} role="status">
          {t(entry.status === 'cancelled' ? 'runCancelled' : 'runFailed', lang)} {entry.status === 'cancelled' ? '' : entry.text}
        </p>
      );
    default:
      return assertNever(entry);
  }
}
