import { afterEach, describe, expect, it } from 'vitest';
import { OllamaBackend } from '../../../electron/main/model/ollama';
import { json, ndjson, startScriptedModelServer, type ScriptedModelServer, type ScriptedServerOptions } from '../../helpers/scripted-model-server';
import { calls, collect, errors, expectNothingExecuted, finish, reasoning, text } from './collect';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function backendFor(turns: ScriptedServerOptions['turns'], numCtx = 8192): Promise<OllamaBackend> {
  server = await startScriptedModelServer({ shape: 'ollama', turns, model: 'qwen3:4b' });
  return new OllamaBackend({ baseUrl: server.url, numCtx });
}

const line = (message: object, done = false, extra: object = {}) => ({ model: 'qwen3:4b', created_at: '2026-12-03T00:00:00Z', message: { role: 'assistant', content: '', ...message }, done, ...extra });
const doneLine = (extra: object = {}) => line({}, true, { done_reason: 'stop', prompt_eval_count: 300, eval_count: 12, ...extra });

describe('Ollama native /api/chat (NDJSON)', () => {
  it('a whole call with an object for arguments, done_reason "stop"; num_ctx sent in options', async () => {
    const backend = await backendFor([
      ndjson(
        [
          line({ thinking: '읽자' }),
          line({ tool_calls: [{ id: 'call_k3v9x2qa', function: { index: 0, name: 'filesystem_read', arguments: { path: '문서/a.txt' } } }] }),
          doneLine(),
        ],
        { chunkSize: 5 },
      ),
    ]);
    const events = await collect(backend, { maxTokens: 128 });
    expect(reasoning(events)).toBe('읽자');
    expect(calls(events)).toEqual([{ id: 'call_k3v9x2qa', name: 'filesystem.read', arguments: { path: '문서/a.txt' } }]);
    expect(finish(events)).toBe('tool_calls');
    expect(events).toContainEqual({ type: 'usage', usage: { promptTokens: 300, completionTokens: 12 } });
    const body = server!.chatRequests()[0]!.json;
    expect(body.options).toEqual({ num_ctx: 8192, num_predict: 128 });
    expect(body.stream).toBe(true);
    expect(body.tools.map((t: any) => t.function.name)).toEqual(['filesystem_read', 'shell_execute']);
    expect(body.model).toBe('qwen3:4b');
  });

  it('an older server: no id and no index → stable synthesized ids', async () => {
    const backend = await backendFor([ndjson([line({ tool_calls: [{ function: { name: 'shell_execute', arguments: { command: 'ls' } } }, { function: { name: 'filesystem.read', arguments: { path: 'x' } } }] }), doneLine()])]);
    const cs = calls(await collect(backend));
    expect(cs.map((c) => c.name)).toEqual(['shell.execute', 'filesystem.read']);
    expect(new Set(cs.map((c) => c.id)).size).toBe(2);
  });

  it('streamed text, and a Hermes call left in the content', async () => {
    const backend = await backendFor([
      ndjson([line({ content: '안녕하세요' }), line({ content: ', 반갑습니다.' }), doneLine()]),
      ndjson([line({ content: '<tool_call>\n{"name": "filesystem_read", "arguments": {"path": "b"}}\n</tool_call>' }), doneLine()]),
    ]);
    const first = await collect(backend);
    expect(text(first)).toBe('안녕하세요, 반갑습니다.');
    expect(finish(first)).toBe('stop');
    expect(calls(await collect(backend)).map((c) => c.arguments)).toEqual([{ path: 'b' }]);
  });

  it('<think> in the content (no think split by the server) goes to reasoning', async () => {
    const backend = await backendFor([ndjson([line({ content: '<think>생각' }), line({ content: '</thi' }), line({ content: 'nk>답입니다' }), doneLine()])]);
    const events = await collect(backend);
    expect(reasoning(events)).toBe('생각');
    expect(text(events)).toBe('답입니다');
  });

  it('the error line at the end of a stream (parser error) → server error, nothing executed', async () => {
    const backend = await backendFor([ndjson([line({ content: '<tool_call>{"name": "filesystem_read", "argu' }), { error: 'failed to parse JSON: unexpected end of JSON input' }])]);
    const events = await collect(backend);
    expectNothingExecuted(events, 'server');
    expect(errors(events)[0]!.message.en).toContain('failed to parse JSON');
  });

  it('HTTP 404 model not found (error as a string)', async () => {
    const backend = await backendFor([json({ error: "model 'qwen3:4b' not found" }, 404)]);
    const events = await collect(backend);
    expectNothingExecuted(events, 'http');
    expect(errors(events)[0]!.message.ko).toContain("model 'qwen3:4b' not found");
  });

  it('a stream cut before done:true → truncated', async () => {
    const backend = await backendFor([ndjson([line({ tool_calls: [{ function: { name: 'shell_execute', arguments: { command: 'rm' } } }] })], { end: 'destroy' })]);
    expectNothingExecuted(await collect(backend), 'truncated');
  });

  it('Stop mid-stream: aborted, no call', async () => {
    const backend = await backendFor([ndjson([line({ content: '생각 중' }), line({ tool_calls: [{ function: { name: 'shell_execute', arguments: { command: 'ls' } } }] })], { end: 'hold' })]);
    const controller = new AbortController();
    const events = [];
    for await (const e of backend.generate({ messages: [{ role: 'user', content: 'x' }], tools: [], signal: controller.signal })) {
      events.push(e);
      if (e.type === 'text') controller.abort();
    }
    expectNothingExecuted(events, 'aborted');
  });

  it('a silently truncated prompt (prompt_eval_count filled num_ctx below what was sent) is reported, its calls dropped', async () => {
    const long = '가'.repeat(20_000); // 60 KB of Korean: far beyond 4096 tokens even by the lower-bound estimate
    const backend = await backendFor(
      [ndjson([line({ tool_calls: [{ function: { name: 'shell_execute', arguments: { command: 'ls' } } }] }), doneLine({ prompt_eval_count: 4096 })])],
      4096,
    );
    const events = await collect(backend, { messages: [{ role: 'user', content: long }] });
    expectNothingExecuted(events, 'prompt_truncated');
    const e = errors(events)[0]!;
    expect(e.message.ko).toContain('num_ctx 4096');
    expect(e.message.en).toContain('OLLAMA_CONTEXT_LENGTH');
  });

  it('a prompt that fits is not flagged', async () => {
    const backend = await backendFor([ndjson([line({ content: 'ok' }), doneLine({ prompt_eval_count: 900 })])], 4096);
    const events = await collect(backend, { messages: [{ role: 'user', content: '짧은 요청' }] });
    expect(errors(events)).toEqual([]);
    expect(text(events)).toBe('ok');
  });

  it('constrained: format carries the action schema, no tools; the answer is one action', async () => {
    const backend = await backendFor([ndjson([line({ content: '{"name":"shell_execute","arguments":{"command":"ls"}}' }), doneLine()])]);
    const events = await collect(backend, { toolMode: 'constrained' });
    expect(calls(events)).toMatchObject([{ name: 'shell.execute', arguments: { command: 'ls' } }]);
    const body = server!.chatRequests()[0]!.json;
    expect(body.tools).toBeUndefined();
    expect(body.format.oneOf).toHaveLength(3);
  });

  it('history: tool calls with object arguments, tool results with tool_name', async () => {
    const backend = await backendFor([ndjson([line({ content: 'ok' }), doneLine()])]);
    await collect(backend, {
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'filesystem.read', arguments: { path: 'a' } }] },
        { role: 'tool', toolCallId: 'c', toolName: 'filesystem.read', content: '거부됨: 정책' },
      ],
    });
    const body = server!.chatRequests()[0]!.json;
    expect(body.messages[1]).toEqual({ role: 'assistant', content: '', tool_calls: [{ function: { name: 'filesystem_read', arguments: { path: 'a' } } }] });
    expect(body.messages[2]).toEqual({ role: 'tool', tool_name: 'filesystem_read', content: '거부됨: 정책' });
  });
});
