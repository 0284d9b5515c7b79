import { afterEach, describe, expect, it } from 'vitest';
import { backendForCheck, createBackend, generateTurn } from '../../../electron/main/model/turn';
import { chunk, hermesTurn, ollamaCallTurn, ollamaTextTurn, sse, startScriptedModelServer, toolCallTurn, type ScriptedModelServer } from '../../helpers/scripted-model-server';
import { TOOLS } from './collect';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('generateTurn / createBackend', () => {
  it('gathers one turn: text, reasoning, calls, usage, finish; events seen as they come', async () => {
    server = await startScriptedModelServer({
      shape: 'openai',
      turns: [
        sse([chunk.reasoning('먼저 읽자'), chunk.content('읽겠습니다.'), chunk.toolCalls([{ index: 0, id: 'c1', function: { name: 'filesystem_read', arguments: '{"path":"a"}' } }]), chunk.finish('tool_calls'), chunk.usage(10, 5)]),
        toolCallTurn([{ name: 'shell_execute', arguments: { command: 'ls' } }]),
      ],
    });
    const backend = createBackend(server.url, { model: 'm' });
    expect(backend.kind).toBe('openai');
    const seen: string[] = [];
    const turn = await generateTurn(backend, { messages: [{ role: 'user', content: 'a' }], tools: TOOLS }, (e) => seen.push(e.type));
    expect(turn).toEqual({
      text: '읽겠습니다.',
      reasoning: '먼저 읽자',
      calls: [{ id: 'c1', name: 'filesystem.read', arguments: { path: 'a' } }],
      malformed: [],
      usage: { promptTokens: 10, completionTokens: 5 },
      finish: 'tool_calls',
    });
    expect(seen).toEqual(['reasoning', 'text', 'tool_call', 'usage', 'finish']);
    const second = await generateTurn(backend, { messages: [{ role: 'user', content: 'b' }], tools: TOOLS });
    expect(second.calls.map((c) => c.name)).toEqual(['shell.execute']);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('the transcript builders for the agent tests: Hermes text, Ollama calls and text', async () => {
    server = await startScriptedModelServer({ shape: 'openai', turns: [hermesTurn([{ name: 'filesystem_read', arguments: { path: 'a' } }, { name: 'shell_execute', arguments: { command: 'ls' } }], '두 가지를 하겠습니다.')] });
    const hermes = await generateTurn(createBackend(server.url, { model: 'm' }), { messages: [{ role: 'user', content: 'a' }], tools: TOOLS });
    expect(hermes.text.trim()).toBe('두 가지를 하겠습니다.');
    expect(hermes.calls.map((c) => c.name)).toEqual(['filesystem.read', 'shell.execute']);
    await server.close();
    server = await startScriptedModelServer({ shape: 'ollama', turns: [ollamaCallTurn([{ id: 'call_1', name: 'filesystem_read', arguments: { path: 'b' } }]), ollamaTextTurn('끝')] });
    const ollama = createBackend(server.url, { kind: 'ollama', model: 'qwen3:4b' });
    expect((await generateTurn(ollama, { messages: [{ role: 'user', content: 'a' }], tools: TOOLS })).calls).toEqual([{ id: 'call_1', name: 'filesystem.read', arguments: { path: 'b' } }]);
    expect((await generateTurn(ollama, { messages: [{ role: 'user', content: 'b' }], tools: TOOLS })).text).toBe('끝');
  });

  it('a file path gives the embedded backend without loading anything; ollama by kind', () => {
    expect(createBackend('/models/qwen3-4b.gguf').kind).toBe('embedded');
    expect(createBackend('http://127.0.0.1:11434', { kind: 'ollama' }).kind).toBe('ollama');
    const base = { model: 'qwen3:4b', contextLength: null, nativeTools: true, constrainedOutputWorks: true, problems: [] };
    expect(backendForCheck({ ...base, target: 'http://127.0.0.1:11434/v1', kind: 'ollama' }).kind).toBe('ollama');
    expect(backendForCheck({ ...base, target: 'http://127.0.0.1:8080/', kind: 'llama-server' }).kind).toBe('openai');
    expect(backendForCheck({ ...base, target: '/m/q.gguf', kind: 'embedded' }).kind).toBe('embedded');
  });
});
