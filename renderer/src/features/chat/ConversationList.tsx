import type { Lang } from '../../../../electron/common/i18n';
import type { ConversationSummary } from '../../../../electron/common/ipc-contract';
import { t } from '../../i18n';

export interface ConversationListProps {
  readonly lang: Lang;
  readonly conversations: readonly ConversationSummary[];
  readonly currentId: string | undefined;
  readonly disabled: boolean;
  readonly onOpen: (id: string) => void;
  readonly onNew: () => void;
}

/** Saved conversations, newest first; opening one shows it and the next request continues it. */
export function ConversationList({ lang, conversations, currentId, disabled, onOpen, onNew }: ConversationListProps) {
  return (
    <nav className="conversations" aria-labelledby="conversations-heading">
      <h2 id="conversations-heading">{t('conversationsHeading', lang)}</h2>
      <button type="button" onClick={onNew} disabled={disabled}>
        {t('newConversation', lang)}
      </button>
      {conversations.length === 0 ? (
        <p className="muted">{t('noConversations', lang)}</p>
      ) : (
        <ul>
          {conversations.map((c) => (
            <li key={c.id}>
              <button type="button" className="conversation" aria-current={c.id === currentId ? 'true' : undefined} disabled={disabled} onClick={() => onOpen(c.id)}>
                <span className="conversation-title">{c.title}</span>
                <span className="conversation-time">{new Date(c.updatedAt).toLocaleString(lang === 'ko' ? 'ko-KR' : 'en-GB')}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
