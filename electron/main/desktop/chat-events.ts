import { assertNever } from '../../common/assert-never';
import type { ChatEvent } from '../../common/ipc-contract';
import type { AgentEvent } from '../agent/agent';

/** The agent's progress as the window shows it; null for what the window does not show. */
export function toChatEvent(runId: string, e: AgentEvent): ChatEvent | null {
  switch (e.type) {
    case 'thinking':
      return { runId, type: 'thinking', step: e.step };
    case 'text':
      return { runId, type: 'text', delta: e.delta };
    case 'calling':
      return { runId, type: 'calling', callId: e.callId, tool: e.tool, args: e.args };
    case 'called':
      return { runId, type: 'called', callId: e.callId, tool: e.tool, outcome: e.outcome, text: e.text };
    case 'waiting':
      return { runId, type: 'waiting', tool: e.tool, summary: e.summary };
    case 'done':
      return { runId, type: 'done', status: e.result.status, answer: e.result.answer, conversationId: e.result.conversationId };
    case 'repair':
    case 'step':
      return null;
    default:
      return assertNever(e);
  }
}
