import type { ConversationSummary, ConversationView } from '../../common/ipc-contract';
import type { Conversation, ConversationMeta } from '../agent/conversations';

/** A conversation as the list shows it. */
export function conversationSummary(m: ConversationMeta): ConversationSummary {
  return { id: m.id, title: m.title, updatedAt: m.updatedAt, status: m.status };
}

/**
 * What the window shows of a saved conversation: the person's requests and the model's answers.
 * The system prompt, tool calls and tool results stay in main (the ledger holds the calls), and so
 * do the repair notes Baram wrote to the model in the user's place.
 */
export function conversationView(c: Conversation): ConversationView {
  const messages: { role: 'user' | 'assistant'; text: string }[] = [];
  for (const m of c.messages) {
    if (m.role === 'user' && m.note !== 'repair') messages.push({ role: 'user', text: m.content });
    else if (m.role === 'assistant' && m.content.trim() !== '') messages.push({ role: 'assistant', text: m.content });
  }
  return { id: c.meta.id, title: c.meta.title, messages };
}
