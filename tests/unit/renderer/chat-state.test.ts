import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../electron/common/ipc-contract';
import { chatReducer, initialChat, type ChatAction, type ChatState } from '../../../renderer/src/features/chat/chat-state';

const run = (actions: readonly ChatAction[], from: ChatState = initialChat) => actions.reduce(chatReducer, from);
const ev = (e: ChatEvent): ChatAction => ({ type: 'event', event: e });

describe('chat state', () => {
  it('keeps events that overtake the answer to chat:send and applies them once the run is known', () => {
    const s = run([
      { type: 'sending' },
      ev({ runId: 'r1', type: 'text', delta: '안녕' }),
      { type: 'sent', runId: 'r1', text: '인사해줘' },
      ev({ runId: 'r1', type: 'text', delta: '하세요' }),
    ]);
    expect(s.entries.map((e) => (e.kind === 'user' || e.kind === 'assistant' ? [e.kind, e.text] : [e.kind]))).toEqual([
      ['user', '인사해줘'],
      ['assistant', '안녕하세요'],
    ]);
  });

  it('ignores events of another run, and closes cards left open when a run ends', () => {
    const s = run([
      { type: 'sending' },
      { type: 'sent', runId: 'r1', text: 'x' },
      ev({ runId: 'r1', type: 'calling', callId: 'c1', tool: 'shell.execute', args: {} }),
      ev({ runId: 'other', type: 'text', delta: 'not ours' }),
      ev({ runId: 'r1', type: 'done', status: 'cancelled', answer: '중지했습니다', conversationId: 'conv' }),
    ]);
    expect(s.runId).toBeNull();
    expect(s.conversationId).toBe('conv');
    expect(s.entries.some((e) => e.kind === 'assistant')).toBe(false);
    expect(s.entries.find((e) => e.kind === 'tool')).toMatchObject({ card: { phase: 'done', outcome: 'cancelled' } });
    expect(s.entries.at(-1)).toMatchObject({ kind: 'notice', status: 'cancelled' });
  });

  it('a card waiting for approval runs again once the dialog closes', () => {
    const waiting = run([
      { type: 'sending' },
      { type: 'sent', runId: 'r1', text: 'x' },
      ev({ runId: 'r1', type: 'calling', callId: 'c1', tool: 'shell.execute', args: {} }),
      ev({ runId: 'r1', type: 'waiting', tool: 'shell.execute', summary: { ko: '실행합니다', en: 'Runs' } }),
    ]);
    expect(waiting.entries.find((e) => e.kind === 'tool')).toMatchObject({ card: { phase: 'waiting' } });
    const closed = run([{ type: 'approval-closed' }], waiting);
    expect(closed.entries.find((e) => e.kind === 'tool')).toMatchObject({ card: { phase: 'running', summary: { ko: '실행합니다' } } });
  });

  it('opens a saved conversation to continue it, but never under a running request', () => {
    const conversation = { id: 'c9', title: 't', messages: [{ role: 'user' as const, text: '전에 한 말' }, { role: 'assistant' as const, text: '답' }] };
    const opened = run([{ type: 'loaded', conversation }]);
    expect(opened.conversationId).toBe('c9');
    expect(opened.entries).toHaveLength(2);
    const busy = run([{ type: 'sending' }, { type: 'sent', runId: 'r', text: 'x' }, { type: 'loaded', conversation }]);
    expect(busy.conversationId).toBeUndefined();
  });
});
