import type { Outcome } from '../../../../electron/common/domain';
import type { Text } from '../../../../electron/common/i18n';
import type { ChatEvent, ConversationView, RunStatus } from '../../../../electron/common/ipc-contract';
import { assertNever } from '../../../../electron/common/assert-never';

/** What the chat shows, built from the `chat:event` stream by one reducer. */
export interface ToolCardState {
  readonly callId: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly phase: 'running' | 'waiting' | 'done';
  /** The plain-language summary from the approval request, when the call needed one. */
  readonly summary?: Text;
  readonly outcome?: Outcome;
  readonly result?: string;
}

export type ChatEntry =
  | { readonly kind: 'user'; readonly id: string; readonly text: string }
  | { readonly kind: 'assistant'; readonly id: string; readonly text: string }
  | { readonly kind: 'tool'; readonly id: string; readonly card: ToolCardState }
  | { readonly kind: 'notice'; readonly id: string; readonly status: RunStatus; readonly text: string };

export interface ChatState {
  readonly entries: readonly ChatEntry[];
  /** The run in progress; null when idle. */
  readonly runId: string | null;
  readonly thinking: boolean;
  /** The conversation the next request continues. */
  readonly conversationId?: string;
  /** Whether the current run streamed any text (else the final answer is added at the end). */
  readonly streamed: boolean;
  /**
   * Between `chat:send` and its answer: events can overtake the answer that names their run, so
   * they wait here and are applied once the run id is known.
   */
  readonly sending: boolean;
  readonly early: readonly ChatEvent[];
}

export const initialChat: ChatState = { entries: [], runId: null, thinking: false, streamed: false, sending: false, early: [] };

export type ChatAction =
  | { readonly type: 'sending' }
  | { readonly type: 'send-failed' }
  | { readonly type: 'sent'; readonly runId: string; readonly text: string }
  | { readonly type: 'event'; readonly event: ChatEvent }
  /** A saved conversation opened from the list: shown, and continued by the next request. */
  | { readonly type: 'loaded'; readonly conversation: ConversationView }
  /** An approval dialog closed: a card that waited for it runs now (or gets its outcome next). */
  | { readonly type: 'approval-closed' }
  | { readonly type: 'new' };

let nextId = 0;
const newId = () => `e${++nextId}`;

function updateCard(entries: readonly ChatEntry[], match: (c: ToolCardState) => boolean, change: (c: ToolCardState) => ToolCardState): readonly ChatEntry[] {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind === 'tool' && match(e.card)) return [...entries.slice(0, i), { ...e, card: change(e.card) }, ...entries.slice(i + 1)];
  }
  return entries;
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  if (action.type === 'new') return state.runId ? state : initialChat;
  if (action.type === 'loaded') {
    if (state.runId) return state; // never swap the conversation under a running request
    const entries = action.conversation.messages.map((m): ChatEntry => ({ kind: m.role, id: newId(), text: m.text }));
    return { ...initialChat, entries, conversationId: action.conversation.id };
  }
  if (action.type === 'approval-closed') {
    return { ...state, entries: updateCard(state.entries, (c) => c.phase === 'waiting', (c) => ({ ...c, phase: 'running' })) };
  }
  if (action.type === 'sending') return { ...state, sending: true, early: [] };
  if (action.type === 'send-failed') return { ...state, sending: false, early: [] };
  if (action.type === 'sent') {
    const started: ChatState = {
      ...state,
      runId: action.runId,
      thinking: true,
      streamed: false,
      sending: false,
      early: [],
      entries: [...state.entries, { kind: 'user', id: newId(), text: action.text }],
    };
    return state.early.filter((e) => e.runId === action.runId).reduce((s, event) => chatReducer(s, { type: 'event', event }), started);
  }
  const e = action.event;
  if (e.runId !== state.runId) {
    // Not (yet) ours: held while a send is in flight, else a late event of a run no longer shown.
    return state.sending ? { ...state, early: [...state.early, e] } : state;
  }
  switch (e.type) {
    case 'thinking':
      return { ...state, thinking: true };
    case 'text': {
      const last = state.entries[state.entries.length - 1];
      const entries =
        last?.kind === 'assistant'
          ? [...state.entries.slice(0, -1), { ...last, text: last.text + e.delta }]
          : [...state.entries, { kind: 'assistant' as const, id: newId(), text: e.delta }];
      return { ...state, thinking: false, streamed: true, entries };
    }
    case 'calling':
      return {
        ...state,
        thinking: false,
        entries: [...state.entries, { kind: 'tool', id: newId(), card: { callId: e.callId, tool: e.tool, args: e.args, phase: 'running' } }],
      };
    case 'waiting':
      return { ...state, entries: updateCard(state.entries, (c) => c.tool === e.tool && c.phase === 'running', (c) => ({ ...c, phase: 'waiting', summary: e.summary })) };
    case 'called':
      return {
        ...state,
        entries: updateCard(state.entries, (c) => c.callId === e.callId, (c) => ({ ...c, phase: 'done', outcome: e.outcome, result: e.text })),
      };
    case 'done': {
      const tail: ChatEntry[] = [];
      if (e.status === 'answered' && !state.streamed && e.answer) tail.push({ kind: 'assistant', id: newId(), text: e.answer });
      if (e.status !== 'answered') tail.push({ kind: 'notice', id: newId(), status: e.status, text: e.answer });
      // Cards still open when the run ended were cut short by it.
      const entries = state.entries.map((x) => (x.kind === 'tool' && x.card.phase !== 'done' ? { ...x, card: { ...x.card, phase: 'done' as const, outcome: 'cancelled' as const } } : x));
      return { ...state, runId: null, thinking: false, entries: [...entries, ...tail], ...(e.conversationId ? { conversationId: e.conversationId } : {}) };
    }
    default:
      return assertNever(e);
  }
}
