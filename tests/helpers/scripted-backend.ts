import type { GenerateRequest, ModelBackend, ModelEvent } from '../../electron/main/model';

/**
 * An in-process model for tests and benchmarks of the agent loop (the HTTP shapes have their own
 * scripted server, scripted-model-server.ts). Each generate() takes the next turn — or, given a
 * function, asks it with the request — and records the request as sent.
 */
export interface ScriptedTurn {
  readonly text?: string;
  readonly calls?: readonly { readonly id?: string; readonly name: string; readonly arguments: Record<string, unknown> }[];
}

export interface ScriptedBackend extends ModelBackend {
  readonly requests: GenerateRequest[];
}

export function scriptedBackend(turns: readonly ScriptedTurn[] | ((request: GenerateRequest, index: number) => ScriptedTurn)): ScriptedBackend {
  const requests: GenerateRequest[] = [];
  return {
    kind: 'openai',
    requests,
    async *generate(request: GenerateRequest): AsyncIterable<ModelEvent> {
      const index = requests.length;
      requests.push({ ...request, messages: [...request.messages] });
      const turn = typeof turns === 'function' ? turns(request, index) : (turns[index] ?? { text: '(no turn left)' });
      if (turn.text) yield { type: 'text', delta: turn.text };
      for (const [i, c] of (turn.calls ?? []).entries()) yield { type: 'tool_call', call: { id: c.id ?? `call_${index}_${i}`, name: c.name, arguments: c.arguments } };
      yield { type: 'finish', reason: turn.calls?.length ? 'tool_calls' : 'stop' };
    },
  };
}
