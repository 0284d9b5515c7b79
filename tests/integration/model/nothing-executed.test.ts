import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelBackend, ToolDefinition } from '../../../electron/main/model/backend';
import { OllamaBackend } from '../../../electron/main/model/ollama';
import { OpenAiBackend } from '../../../electron/main/model/openai';
import { generateTurn } from '../../../electron/main/model/turn';
import { builtinTools } from '../../../tools/registry';
import { createTestGate, type TestGate } from '../../helpers/gate-harness';
import { chunk, json, ndjson, sse, startScriptedModelServer, textTurn, type ScriptedResponse } from '../../helpers/scripted-model-server';

/**
 * "For the broken ones a clear ko/en error with nothing executed", end to end: every broken turn
 * carries (part of) a call to filesystem.delete of a real file; whatever the backend emits as a
 * call is handed to the real gate, as the agent loop will. The file must survive and the ledger
 * must hold no proposed call. A complete call in the same shape is the control: it does run.
 */
let gate: TestGate;
const TOOLS: ToolDefinition[] = ['filesystem.delete', 'filesystem.info'].map((name) => {
  const t = builtinTools.find((x) => x.name === name)!;
  return { name, description: t.description.en, parameters: JSON.parse(JSON.stringify(t.input)) };
});

beforeAll(async () => {
  gate = await createTestGate({ files: { '중요.xlsx': 'budget' }, approve: 'all' });
});
afterAll(async () => gate?.close());

const ARGS = '{"path":"중요.xlsx"}';
const start = [
  chunk.role(),
  chunk.toolCalls([{ index: 0, id: 'd1', type: 'function', function: { name: 'filesystem_delete', arguments: '' } }]),
  chunk.toolCalls([{ index: 0, function: { arguments: ARGS.slice(0, 12) } }]),
];
const rest = chunk.toolCalls([{ index: 0, function: { arguments: ARGS.slice(12) } }]);

const openaiBroken: [string, ScriptedResponse, string][] = [
  ['in-band error frame', sse([...start, rest, { error: { code: 500, message: 'Failed to parse input at pos 3', type: 'server_error' } }]), 'server'],
  ['older error: field', sse([...start, rest, 'error: {"message":"boom"}\n\n'], { done: false }), 'server'],
  ['connection reset mid-call', sse(start, { done: false, end: 'destroy' }), 'truncated'],
  ['stream ended without finish or [DONE]', sse([...start, rest], { done: false }), 'truncated'],
  ['finish_reason length', sse([...start, chunk.finish('length')]), 'length'],
  ['HTTP 500 with an error object', json({ error: { code: 500, message: 'Failed to parse tool call arguments as JSON' } }, 500), 'http'],
  ['HTTP 400 with a bare string', json({ error: "'response_format.type' must be 'json_schema' or 'text'" }, 400), 'http'],
];

async function runTurn(backend: ModelBackend) {
  const turn = await generateTurn(backend, { messages: [{ role: 'user', content: '중요.xlsx 지워줘' }], tools: TOOLS });
  // What the agent loop will do: every complete call goes to the gate, nothing else does.
  for (const call of turn.calls) await gate.call(call.name, call.arguments);
  return turn;
}

async function proposed(): Promise<number> {
  return (await gate.auditEvents()).filter((e) => e.type === 'tool.proposed').length;
}

describe('broken turns: a ko/en error, and nothing reaches a tool', () => {
  it.each(openaiBroken)('OpenAI-compatible: %s', async (_name, response, code) => {
    const server = await startScriptedModelServer({ shape: 'openai', turns: [response] });
    try {
      const turn = await runTurn(new OpenAiBackend({ baseUrl: server.url, model: 'm' }));
      expect(turn.error?.code).toBe(code);
      expect(turn.error?.message.ko).toMatch(/[가-힣]/);
      expect(turn.error?.message.en).toMatch(/[a-z]/);
      expect(turn.calls).toEqual([]);
      expect(existsSync(join(gate.workspace, '중요.xlsx'))).toBe(true);
      expect(await proposed()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['arguments that are not JSON', sse([chunk.toolCalls([{ index: 0, id: 'x', function: { name: 'filesystem_delete', arguments: '{"path": 중요.xlsx}' } }]), chunk.finish('tool_calls')])],
    ['a Hermes block with broken JSON', textTurn('<tool_call>\n{"name": "filesystem_delete", "arguments": {"path": "중요.xlsx"\n</tool_call>')],
  ])('OpenAI-compatible: %s → a malformed call, never a call', async (_name, response) => {
    const server = await startScriptedModelServer({ shape: 'openai', turns: [response] });
    try {
      const turn = await runTurn(new OpenAiBackend({ baseUrl: server.url, model: 'm' }));
      expect(turn.calls).toEqual([]);
      expect(turn.malformed).toHaveLength(1);
      expect(turn.malformed[0]!.error.ko).toContain('실행하지 않았습니다');
      expect(turn.malformed[0]!.error.en).toContain('not executed');
      expect(existsSync(join(gate.workspace, '중요.xlsx'))).toBe(true);
      expect(await proposed()).toBe(0);
    } finally {
      await server.close();
    }
  });

  const call = { message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'filesystem_delete', arguments: { path: '중요.xlsx' } } }] }, done: false };
  it.each([
    ['an error line', ndjson([call, { error: 'failed to parse JSON: unexpected end' }]), 'server', 8192],
    ['a stream cut before done', ndjson([call], { end: 'destroy' }), 'truncated', 8192],
    ['a silently truncated prompt', ndjson([call, { message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 64 }]), 'prompt_truncated', 64],
  ])('Ollama native: %s', async (_name, response, code, numCtx) => {
    const server = await startScriptedModelServer({ shape: 'ollama', turns: [response] });
    try {
      const turn = await runTurn(new OllamaBackend({ baseUrl: server.url, model: 'qwen3:4b', numCtx }));
      expect(turn.error?.code).toBe(code);
      expect(turn.calls).toEqual([]);
      expect(existsSync(join(gate.workspace, '중요.xlsx'))).toBe(true);
      expect(await proposed()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('control: the same call complete does reach the gate and runs', async () => {
    const server = await startScriptedModelServer({ shape: 'openai', turns: [sse([...start, rest, chunk.finish('tool_calls')])] });
    try {
      const turn = await runTurn(new OpenAiBackend({ baseUrl: server.url, model: 'm' }));
      expect(turn.error).toBeUndefined();
      expect(turn.calls).toEqual([{ id: 'd1', name: 'filesystem.delete', arguments: { path: '중요.xlsx' } }]);
      expect(await proposed()).toBe(1);
      expect(existsSync(join(gate.workspace, '중요.xlsx'))).toBe(false);
    } finally {
      await server.close();
    }
  });
});
