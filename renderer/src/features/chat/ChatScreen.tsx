import { useEffect, useReducer, useState } from 'react';
import type { Lang } from '../../../../electron/common/i18n';
import type { BaramApi, ConversationSummary, IpcErrorCode } from '../../../../electron/common/ipc-contract';
import { assertNever } from '../../../../electron/common/assert-never';
import { ipcErrorMessage, t } from '../../i18n';
import { chatReducer, initialChat, type ChatEntry } from './chat-state';
import { Composer } from './Composer';
import { ConversationList } from './ConversationList';
import { ModelStatusLine } from './ModelStatusLine';
import { ToolCard } from './ToolCard';

export interface ChatScreenProps {
  readonly bridge: BaramApi;
  readonly lang: Lang;
  /** Changes when settings put another model in use (the status line asks again). */
  readonly modelVersion?: number;
}

export function ChatScreen({ bridge, lang, modelVersion = 0 }: ChatScreenProps) {
  const [state, dispatch] = useReducer(chatReducer, initialChat);
  const [error, setError] = useState<IpcErrorCode | null>(null);

  const [conversations, setConversations] = useState<readonly ConversationSummary[]>([]);

  useEffect(() => bridge.on('chat:event', (event) => dispatch({ type: 'event', event })), [bridge]);
  useEffect(() => bridge.on('approval:closed', () => dispatch({ type: 'approval-closed' })), [bridge]);

  // The list changes when a request ends (a new conversation, a newer time): reload it then.
  const idle = state.runId === null && !state.sending;
  useEffect(() => {
    if (!idle) return;
    let current = true;
    bridge['conversations:list']({}).then(
      (r) => {
        if (current && r.ok) setConversations(r.value);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [bridge, idle]);

  const open = (id: string) => {
    bridge['conversations:load']({ id }).then(
      (r) => (r.ok ? dispatch({ type: 'loaded', conversation: r.value }) : setError(r.error.code)),
      () => setError('INTERNAL'),
    );
  };

  const send = (text: string) => {
    setError(null);
    const failed = (code: IpcErrorCode) => {
      dispatch({ type: 'send-failed' });
      setError(code);
    };
    dispatch({ type: 'sending' });
    bridge['chat:send']({ text, ...(state.conversationId ? { conversationId: state.conversationId } : {}) }).then(
      (r) => (r.ok ? dispatch({ type: 'sent', runId: r.value.runId, text }) : failed(r.error.code)),
      () => failed('INTERNAL'),
    );
  };
  const stop = () => {
    if (state.runId) void bridge['chat:stop']({ runId: state.runId });
  };

  return (
    <div className="chat-layout">
      <ConversationList
        lang={lang}
        conversations={conversations}
        currentId={state.conversationId}
        disabled={!idle}
        onOpen={open}
        onNew={() => dispatch({ type: 'new' })}
      />
      <section className="chat" aria-labelledby="chat-heading">
        <h2 id="chat-heading" className="visually-hidden">
          {t('chatHeading', lang)}
        </h2>
        <ModelStatusLine bridge={bridge} lang={lang} refresh={`${modelVersion}:${idle}`} />
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
          <Composer lang={lang} disabled={!idle} onSend={send} />
          {!idle && (
            <button type="button" className="stop" onClick={stop}>
              {t('stop', lang)}
            </button>
          )}
        </div>
      </section>
    </div>
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
