import type { GenerateRequest, ModelBackend, ModelEvent, ToolCall, ToolDefinition } from '../../../electron/main/model/backend';

export async function collect(backend: ModelBackend, request: Partial<GenerateRequest> = {}): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const e of backend.generate({ messages: [{ role: 'user', content: '안녕' }], tools: TOOLS, ...request })) events.push(e);
  return events;
}

export const calls = (events: ModelEvent[]): ToolCall[] => events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
export const text = (events: ModelEvent[]): string => events.map((e) => (e.type === 'text' ? e.delta : '')).join('');
export const reasoning = (events: ModelEvent[]): string => events.map((e) => (e.type === 'reasoning' ? e.delta : '')).join('');
export const finish = (events: ModelEvent[]): string | undefined => events.flatMap((e) => (e.type === 'finish' ? [e.reason] : [])).at(-1);
export const errors = (events: ModelEvent[]) => events.flatMap((e) => (e.type === 'error' ? [e] : []));
export const malformed = (events: ModelEvent[]) => events.flatMap((e) => (e.type === 'malformed_call' ? [e] : []));

/** Every broken shape: one error with both languages, a finish `error`/`length`, and no call. */
export function expectNothingExecuted(events: ModelEvent[], code: string): void {
  const errs = errors(events);
  if (errs.length !== 1) throw new Error(`expected one error, got ${JSON.stringify(events)}`);
  const e = errs[0]!;
  if (e.code !== code) throw new Error(`expected ${code}, got ${e.code}: ${e.message.en}`);
  if (!e.message.ko || !e.message.en || !/[가-힣]/.test(e.message.ko)) throw new Error('message must have ko and en text');
  if (calls(events).length !== 0) throw new Error('a call was emitted from a broken turn');
  const last = events.at(-1);
  if (last?.type !== 'finish') throw new Error('the stream must end with finish');
}

export const TOOLS: ToolDefinition[] = [
  {
    name: 'filesystem.read',
    description: 'Read a text file',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', maxLength: 64 }, limit: { type: 'integer', minimum: 1 } },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'shell.execute',
    description: 'Run a whitelisted command',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', maxLength: 64 }, args: { type: 'array', items: { type: 'string', maxLength: 32 }, maxItems: 4 } },
      required: ['command'],
      additionalProperties: false,
    },
  },
];
