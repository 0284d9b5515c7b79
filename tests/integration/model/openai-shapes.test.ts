import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiBackend } from '../../../electron/main/model/openai';
import {
  chunk,
  json,
  raw,
  sse,
  sseBody,
  startScriptedModelServer,
  textTurn,
  toolCallTurn,
  type ScriptedModelServer,
  type ScriptedServerOptions,
} from '../../helpers/scripted-model-server';
import { calls, collect, errors, expectNothingExecuted, finish, malformed, reasoning, text, TOOLS } from './collect';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function backendFor(turns: ScriptedServerOptions['turns'], extra: Partial<ScriptedServerOptions> = {}): Promise<OpenAiBackend> {
  server = await startScriptedModelServer({ shape: 'openai', turns, ...extra });
  return new OpenAiBackend({ baseUrl: server.url, model: 'qwen3-4b' });
}

const READ = { path: '보고서/2026년 예산.txt', limit: 20 };

describe('OpenAI-compatible streaming: native calls', () => {
  it('llama-server: name first, argument fragments per index, keep-alive comments, usage and timings', async () => {
    const body = sse([
      ': ping\n\n',
      chunk.role(),
      chunk.toolCalls([{ index: 0, id: 'AbCdEf0123456789AbCdEf0123456789', type: 'function', function: { name: 'filesystem_read', arguments: '' } }]),
      chunk.toolCalls([{ index: 0, function: { arguments: '{"' } }]),
      ': ping\n\n',
      chunk.toolCalls([{ index: 0, function: { arguments: 'path' } }]),
      chunk.toolCalls([{ index: 0, function: { arguments: '":"보고서/2026년 예산.txt","limit":20}' } }]),
      chunk.finish('tool_calls', { usage: { prompt_tokens: 812, completion_tokens: 31 }, timings: { cache_n: 800 } }),
    ]);
    const backend = await backendFor([body]);
    const events = await collect(backend);
    expect(calls(events)).toEqual([{ id: 'AbCdEf0123456789AbCdEf0123456789', name: 'filesystem.read', arguments: READ }]);
    expect(finish(events)).toBe('tool_calls');
    expect(events).toContainEqual({ type: 'usage', usage: { promptTokens: 812, completionTokens: 31, cachedPromptTokens: 800 } });
    expect(errors(events)).toEqual([]);
  });

  it('survives a split at every single byte (inside JSON strings and inside Korean UTF-8 characters)', async () => {
    const turn = toolCallTurn([{ id: 'c1', name: 'filesystem_read', arguments: READ }], { chunkSize: 1 });
    const backend = await backendFor([turn]);
    expect(calls(await collect(backend))).toEqual([{ id: 'c1', name: 'filesystem.read', arguments: READ }]);
  });

  it('survives splits placed inside a 3-byte character of a text delta', async () => {
    const body = sseBody([chunk.role(), chunk.content('예산 보고서를 읽었습니다.'), chunk.finish('stop')]);
    const bytes = Buffer.from(body, 'utf8');
    const at = bytes.indexOf(Buffer.from('예', 'utf8'));
    const backend = await backendFor([{ body, headers: { 'content-type': 'text/event-stream' }, splitAt: [at + 1, at + 2, at + 4] }]);
    const events = await collect(backend);
    expect(text(events)).toBe('예산 보고서를 읽었습니다.');
    expect(text(events)).not.toContain('\uFFFD');
    expect(finish(events)).toBe('stop');
  });

  it('arguments sent as an object instead of a string', async () => {
    const body = sse([chunk.toolCalls([{ index: 0, id: 'x', type: 'function', function: { name: 'filesystem_read', arguments: READ } }]), chunk.finish('tool_calls')]);
    const backend = await backendFor([body]);
    expect(calls(await collect(backend))).toEqual([{ id: 'x', name: 'filesystem.read', arguments: READ }]);
  });

  it('missing ids get stable synthesized ids; numeric ids (LM Studio) become strings; either name form is accepted', async () => {
    const noIds = () =>
      sse([
        chunk.toolCalls([{ index: 0, type: 'function', function: { name: 'filesystem.read', arguments: '{"path":"a.txt"}' } }]),
        chunk.toolCalls([{ index: 1, type: 'function', function: { name: 'shell_execute', arguments: '{"command":"ls"}' } }]),
        chunk.finish('tool_calls'),
      ]);
    const lmStudio = sse([
      chunk.toolCalls([{ index: 0, id: 814890118, type: 'function', function: { name: 'filesystem_read', arguments: '' } }]),
      chunk.toolCalls([{ index: 0, function: { arguments: '{"' } }]),
      chunk.toolCalls([{ index: 0, function: { arguments: 'path' } }]),
      chunk.toolCalls([{ index: 0, function: { arguments: '":"a.txt"}' } }]),
      chunk.finish('tool_calls'),
    ]);
    const first = await collect(await backendFor([noIds()]));
    await server!.close();
    const second = await collect(await backendFor([noIds()]));
    const ids = calls(first).map((c) => c.id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-z]+$/);
    expect(calls(second).map((c) => c.id)).toEqual(ids);
    expect(calls(first).map((c) => c.name)).toEqual(['filesystem.read', 'shell.execute']);
    await server!.close();
    expect(calls(await collect(await backendFor([lmStudio])))).toEqual([{ id: '814890118', name: 'filesystem.read', arguments: { path: 'a.txt' } }]);
  });

  it('Ollama /v1: the whole call in one chunk, a separate finish, a usage chunk with no choices, `reasoning` field', async () => {
    const body = sse([
      { id: 'chatcmpl-42', object: 'chat.completion.chunk', system_fingerprint: 'fp_ollama', choices: [{ index: 0, delta: { role: 'assistant', content: '', reasoning: '파일을 읽어야 한다.' } }] },
      {
        id: 'chatcmpl-42',
        choices: [{ index: 0, delta: { role: 'assistant', content: '', tool_calls: [{ id: 'call_k3v9x2qa', index: 0, type: 'function', function: { name: 'filesystem_read', arguments: '{"path":"a.txt"}' } }] } }],
      },
      { id: 'chatcmpl-42', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      { id: 'chatcmpl-42', choices: [], usage: { prompt_tokens: 100, completion_tokens: 9, total_tokens: 109 } },
    ]);
    const events = await collect(await backendFor([body]));
    expect(reasoning(events)).toBe('파일을 읽어야 한다.');
    expect(calls(events)).toEqual([{ id: 'call_k3v9x2qa', name: 'filesystem.read', arguments: { path: 'a.txt' } }]);
    expect(events).toContainEqual({ type: 'usage', usage: { promptTokens: 100, completionTokens: 9 } });
  });

  it('reasoning_content streams as reasoning, content as text', async () => {
    const body = sse([chunk.reasoning('생각 중'), chunk.reasoning('...'), chunk.content('답: 42'), chunk.finish('stop')]);
    const events = await collect(await backendFor([body]));
    expect(reasoning(events)).toBe('생각 중...');
    expect(text(events)).toBe('답: 42');
    expect(calls(events)).toEqual([]);
  });

  it.each([
    ['tool', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['stop', 'tool_calls'], // Ollama keeps "stop" after a call: the calls decide
  ])('finish_reason %s with a call normalises to %s', async (reason, expected) => {
    const body = sse([chunk.toolCalls([{ index: 0, id: 'a', function: { name: 'filesystem_read', arguments: '{"path":"a"}' } }]), chunk.finish(reason)]);
    const events = await collect(await backendFor([body]));
    expect(calls(events)).toHaveLength(1);
    expect(finish(events)).toBe(expected);
  });

  it('a finish_reason "tool_calls" without any call normalises to stop and invents nothing', async () => {
    const events = await collect(await backendFor([sse([chunk.content('끝'), chunk.finish('tool_calls')])]));
    expect(calls(events)).toEqual([]);
    expect(finish(events)).toBe('stop');
  });

  it('a missing [DONE] after the finish chunk is fine', async () => {
    const body = sse([chunk.toolCalls([{ index: 0, id: 'a', function: { name: 'filesystem_read', arguments: '{"path":"a"}' } }]), chunk.finish('tool_calls')], { done: false });
    const events = await collect(await backendFor([body]));
    expect(calls(events)).toEqual([{ id: 'a', name: 'filesystem.read', arguments: { path: 'a' } }]);
  });

  it('a server that ignores stream:true and answers one chat.completion', async () => {
    const body = json({
      id: 'chatcmpl-x',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: { role: 'assistant', content: null, tool_calls: [{ type: 'function', id: 'q1', function: { name: 'shell_execute', arguments: '{"command":"ls","args":["-l"]}' } }] },
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 6 },
    });
    const events = await collect(await backendFor([body]));
    expect(calls(events)).toEqual([{ id: 'q1', name: 'shell.execute', arguments: { command: 'ls', args: ['-l'] } }]);
    expect(finish(events)).toBe('tool_calls');
  });
});

describe('OpenAI-compatible streaming: broken turns give a ko/en error and nothing executed', () => {
  const partialCall = [
    chunk.role(),
    chunk.toolCalls([{ index: 0, id: 'p', type: 'function', function: { name: 'shell_execute', arguments: '' } }]),
    chunk.toolCalls([{ index: 0, function: { arguments: '{"command":"rm' } }]),
  ];

  it('in-band error frame data: {"error":…} after part of a call (llama.cpp ≥ PR #16109)', async () => {
    const body = sse([...partialCall, { error: { code: 500, message: 'Failed to parse input at pos 12', type: 'server_error' } }]);
    const events = await collect(await backendFor([body]));
    expectNothingExecuted(events, 'server');
    expect(errors(events)[0]!.message.en).toContain('Failed to parse input at pos 12');
    expect(finish(events)).toBe('error');
  });

  it('the older non-standard `error:` SSE field', async () => {
    const body = sse([...partialCall, 'error: {"code":500,"message":"Failed to parse tool call arguments as JSON","type":"server_error"}\n\n'], { done: false });
    const events = await collect(await backendFor([body]));
    expectNothingExecuted(events, 'server');
    expect(errors(events)[0]!.message.ko).toContain('Failed to parse tool call arguments as JSON');
  });

  it('vLLM-style in-band error object {"object":"error","message":…}', async () => {
    const body = sse([...partialCall, { object: 'error', message: 'The decoder prompt is longer than the maximum model length', type: 'BadRequestError', code: 400 }]);
    const events = await collect(await backendFor([body]));
    expectNothingExecuted(events, 'server');
    expect(errors(events)[0]!.message.en).toContain('maximum model length');
  });

  it('HTTP 500 whose error is an object', async () => {
    const body = json({ error: { code: 500, message: "Failed to parse tool call arguments as JSON: [json.exception.parse_error.101] parse error", type: 'server_error' } }, 500);
    const events = await collect(await backendFor([body]));
    expectNothingExecuted(events, 'http');
    expect(errors(events)[0]!.message.en).toContain('HTTP 500');
    expect(errors(events)[0]!.message.en).toContain('json.exception.parse_error.101');
  });

  it('HTTP 400 whose error is a bare string (LM Studio)', async () => {
    const body = json({ error: "'response_format.type' must be 'json_schema' or 'text'" }, 400);
    const events = await collect(await backendFor([body]));
    expectNothingExecuted(events, 'http');
    expect(errors(events)[0]!.message.ko).toContain("'response_format.type' must be 'json_schema' or 'text'");
  });

  it('HTTP 400 with a plain-text body', async () => {
    const events = await collect(await backendFor([raw('Cannot use custom grammar constraints with tools.', 400)]));
    expectNothingExecuted(events, 'http');
    expect(errors(events)[0]!.message.en).toContain('Cannot use custom grammar constraints with tools.');
  });

  it('connection closed in the middle of a call', async () => {
    const events = await collect(await backendFor([sse(partialCall, { done: false, end: 'destroy' })]));
    expectNothingExecuted(events, 'truncated');
    expect(errors(events)[0]!.message.ko).toContain('연결이 답변 도중 끊겼습니다');
  });

  it('a stream that ends cleanly with neither a finish reason nor [DONE]', async () => {
    const events = await collect(await backendFor([sse(partialCall, { done: false })]));
    expectNothingExecuted(events, 'truncated');
  });

  it('a frame cut in half at the end of the stream', async () => {
    const body = sse([...partialCall, 'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"argu'], { done: false, end: 'destroy' });
    const events = await collect(await backendFor([body]));
    expect(calls(events)).toEqual([]);
    expect(errors(events)).toHaveLength(1);
    expect(finish(events)).toBe('error');
  });

  it('finish_reason "length": an error saying the answer was cut, the half call never emitted', async () => {
    const events = await collect(await backendFor([sse([...partialCall, chunk.finish('length')])]));
    expectNothingExecuted(events, 'length');
    expect(malformed(events)).toEqual([]);
    expect(finish(events)).toBe('length');
    expect(errors(events)[0]!.message.ko).toContain('잘렸습니다');
  });

  it('arguments that are not JSON after a clean finish: a malformed call with the raw text and the parse error', async () => {
    const body = sse([chunk.toolCalls([{ index: 0, id: 'm', function: { name: 'filesystem_read', arguments: '{"path": "a.txt",}' } }]), chunk.finish('tool_calls')]);
    const events = await collect(await backendFor([body]));
    expect(calls(events)).toEqual([]);
    const [m] = malformed(events);
    expect(m).toMatchObject({ id: 'm', name: 'filesystem.read', raw: '{"path": "a.txt",}' });
    expect(m!.error.ko).toContain('도구는 실행하지 않았습니다');
    expect(m!.error.en).toContain('The tool was not executed');
  });

  it('connection refused: says what to do, in Korean and English', async () => {
    const probe = await startScriptedModelServer({ shape: 'openai', turns: [] });
    const url = probe.url;
    await probe.close();
    const events = await collect(new OpenAiBackend({ baseUrl: url, model: 'm' }));
    expectNothingExecuted(events, 'connect');
    expect(errors(events)[0]!.message.ko).toMatch(/^모델 서버에 연결할 수 없습니다: .*관리자에게 주소를 확인하세요/);
    expect(errors(events)[0]!.message.en).toContain('Cannot connect to the model server');
  });

  it('Stop: aborting mid-stream ends the turn with "aborted" and no call', async () => {
    const body = sse([chunk.content('생각하는 중'), ...partialCall], { done: false, end: 'hold' });
    const backend = await backendFor([body]);
    const controller = new AbortController();
    const events = [];
    for await (const e of backend.generate({ messages: [{ role: 'user', content: 'x' }], tools: TOOLS, signal: controller.signal })) {
      events.push(e);
      if (e.type === 'text') controller.abort();
    }
    expectNothingExecuted(events, 'aborted');
  });
});

describe('OpenAI-compatible: calls the server left in the content', () => {
  it('Hermes/Qwen <tool_call> blocks, with prose before them streamed as text', async () => {
    const content = '파일을 읽겠습니다.\n<tool_call>\n{"name": "filesystem_read", "arguments": {"path": "a.txt"}}\n</tool_call>\n<tool_call>\n{"name": "shell_execute", "arguments": {"command": "ls"}}\n</tool_call>';
    const events = await collect(await backendFor([sse([chunk.content(content.slice(0, 20)), chunk.content(content.slice(20)), chunk.finish('stop')], { chunkSize: 7 })]));
    expect(text(events).trim()).toBe('파일을 읽겠습니다.');
    expect(calls(events).map(({ name, arguments: a }) => ({ name, a }))).toEqual([
      { name: 'filesystem.read', a: { path: 'a.txt' } },
      { name: 'shell.execute', a: { command: 'ls' } },
    ]);
    expect(finish(events)).toBe('tool_calls');
  });

  it('Qwen3-Coder without the opening <tool_call> tag', async () => {
    const events = await collect(await backendFor([textTurn('{"name": "filesystem_read", "arguments": {"path": "b.txt"}}\n</tool_call>')]));
    expect(calls(events).map((c) => [c.name, c.arguments])).toEqual([['filesystem.read', { path: 'b.txt' }]]);
    expect(text(events).trim()).toBe('');
  });

  it('Qwen3-Coder XML parameters', async () => {
    const content = '<tool_call>\n<function=filesystem_read>\n<parameter=path>\nc.txt\n</parameter>\n<parameter=limit>\n5\n</parameter>\n</function>\n</tool_call>';
    const events = await collect(await backendFor([textTurn(content)]));
    expect(calls(events).map((c) => [c.name, c.arguments])).toEqual([['filesystem.read', { path: 'c.txt', limit: 5 }]]);
  });

  it('LM Studio [TOOL_REQUEST]…[END_TOOL_REQUEST]', async () => {
    const events = await collect(await backendFor([textTurn('[TOOL_REQUEST]\n{"name": "shell_execute", "arguments": {"command": "dir"}}\n[END_TOOL_REQUEST]')]));
    expect(calls(events).map((c) => [c.name, c.arguments])).toEqual([['shell.execute', { command: 'dir' }]]);
  });

  it('a bare {"name","arguments"} object as the whole message (also in a json fence)', async () => {
    const events = await collect(await backendFor([textTurn('  {"name": "filesystem.read", "arguments": {"path": "d.txt"}}  ')]));
    expect(calls(events).map((c) => [c.name, c.arguments])).toEqual([['filesystem.read', { path: 'd.txt' }]]);
    await server!.close();
    const fenced = await collect(await backendFor([textTurn('```json\n{"name": "filesystem_read", "parameters": "{\\"path\\": \\"e.txt\\"}"}\n```')]));
    expect(calls(fenced).map((c) => [c.name, c.arguments])).toEqual([['filesystem.read', { path: 'e.txt' }]]);
  });

  it('never invents a call from JSON inside prose (trap 7)', async () => {
    const content = '예시는 다음과 같습니다: {"name": "Bingo", "arguments": {"x": 1}} 참고하세요.';
    const events = await collect(await backendFor([textTurn(content)]));
    expect(calls(events)).toEqual([]);
    expect(malformed(events)).toEqual([]);
    expect(text(events)).toBe(content);
    expect(finish(events)).toBe('stop');
  });

  it('a whole-message JSON that is not a call stays text', async () => {
    const content = '{"합계": 3, "항목": ["a", "b"]}';
    const events = await collect(await backendFor([textTurn(content)]));
    expect(calls(events)).toEqual([]);
    expect(text(events)).toBe(content);
  });

  it('a tagged call with broken JSON is a malformed call, not executed', async () => {
    const events = await collect(await backendFor([textTurn('<tool_call>\n{"name": "filesystem_read", "arguments": {"path": "a.txt"\n</tool_call>')]));
    expect(calls(events)).toEqual([]);
    expect(malformed(events)).toMatchObject([{ name: 'filesystem.read' }]);
    expect(malformed(events)[0]!.raw).toContain('"path": "a.txt"');
  });
});

describe('OpenAI-compatible: reasoning left in the content', () => {
  it('<think>…</think> before a Hermes call goes to reasoning, split anywhere', async () => {
    const content = '<think>\n경로를 확인해야 한다.\n</think>\n\n<tool_call>\n{"name": "filesystem_read", "arguments": {"path": "a.txt"}}\n</tool_call>';
    const events = await collect(await backendFor([sse([...[...content].map((c) => chunk.content(c)), chunk.finish('stop')])]));
    expect(reasoning(events).trim()).toBe('경로를 확인해야 한다.');
    expect(text(events)).toBe('');
    expect(calls(events)).toMatchObject([{ name: 'filesystem.read', arguments: { path: 'a.txt' } }]);
  });

  it('an empty think block before a constrained answer (Qwen3 enable_thinking=false) does not break the action', async () => {
    const events = await collect(await backendFor([textTurn('<think>\n\n</think>\n\n{"answer": "완료했습니다."}')]), { toolMode: 'constrained' });
    expect(text(events)).toBe('완료했습니다.');
    expect(malformed(events)).toEqual([]);
  });
});

describe('OpenAI-compatible: what is sent', () => {
  it('native: tools with wire names; history with re-serialised arguments and tool results', async () => {
    const backend = await backendFor([textTurn('done')]);
    await collect(backend, {
      messages: [
        { role: 'system', content: '당신은 바람입니다.' },
        { role: 'user', content: 'a.txt 읽어줘' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'filesystem.read', arguments: { path: 'a.txt' } }] },
        { role: 'tool', toolCallId: 'c1', toolName: 'filesystem.read', content: 'DENIED: 관리자 정책이 이 경로를 막았습니다' },
      ],
      maxTokens: 256,
    });
    const body = server!.chatRequests()[0]!.json;
    expect(body.stream).toBe(true);
    expect(body.max_tokens).toBe(256);
    expect(body.tools.map((t: any) => t.function.name)).toEqual(['filesystem_read', 'shell_execute']);
    for (const t of body.tools) expect(t.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(body.messages[2]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'filesystem_read', arguments: '{"path":"a.txt"}' } }] });
    expect(body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'filesystem_read', content: 'DENIED: 관리자 정책이 이 경로를 막았습니다' });
    expect(body.response_format).toBeUndefined();
  });

  it('constrained: no tools, the nested response_format, candidates in the prompt; the answer is read as one action', async () => {
    const backend = await backendFor([
      textTurn('{"name": "filesystem_read", "arguments": {"path": "a.txt"}}'),
      textTurn('{"answer": "a.txt에는 세 줄이 있습니다."}'),
    ]);
    const first = await collect(backend, { toolMode: 'constrained', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'a.txt' }] });
    expect(calls(first)).toMatchObject([{ name: 'filesystem.read', arguments: { path: 'a.txt' } }]);
    expect(text(first)).toBe('');
    const second = await collect(backend, { toolMode: 'constrained' });
    expect(text(second)).toBe('a.txt에는 세 줄이 있습니다.');
    expect(calls(second)).toEqual([]);
    const body = server!.chatRequests()[0]!.json;
    expect(body.tools).toBeUndefined();
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.name).toBe('baram_action');
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema.oneOf).toHaveLength(3);
    expect(body.response_format.schema).toBeUndefined(); // the README's flat form is read as an empty schema (trap 1)
    expect(body.messages[0].content).toContain('filesystem_read');
  });

  it('the model id comes from /v1/models when not configured', async () => {
    server = await startScriptedModelServer({ shape: 'openai', turns: [textTurn('ok')], model: 'gemma-3-4b' });
    await collect(new OpenAiBackend({ baseUrl: `${server.url}/v1/` }));
    expect(server.chatRequests()[0]!.json.model).toBe('gemma-3-4b');
  });
});
