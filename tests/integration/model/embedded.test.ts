import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeNulls } from '../../../electron/common/normalize';
import type { ModelEvent, ModelMessage, ToolDefinition } from '../../../electron/main/model/backend';
import { generateTurn } from '../../../electron/main/model/turn';
import { EmbeddedBackend } from '../../../electron/main/model/embedded';
import { checkGguf } from '../../../electron/main/model/gguf';
import { SchemaValidator } from '../../../electron/main/gate/schema-validator';
import { builtinTools } from '../../../tools/registry';
import { writeTinyGguf } from '../../../scripts/make-tiny-gguf';
import { createTestGate, type TestGate } from '../../helpers/gate-harness';

/**
 * The embedded engine for real: node-llama-cpp 3.21.1 loads the GGUF that scripts/make-tiny-gguf.ts
 * writes into a temp folder (random weights, ≈ 360 KB), and the grammar built from the real tools'
 * schemas constrains its output. The call goes through the real gate.
 */
let dir: string;
let modelPath: string;
let backend: EmbeddedBackend;
let gate: TestGate;

const realTool = (name: string): ToolDefinition => {
  const t = builtinTools.find((x) => x.name === name)!;
  return { name: t.name, description: t.description.en, parameters: JSON.parse(JSON.stringify(t.input)) };
};

async function run(b: EmbeddedBackend, tools: ToolDefinition[], request = '보고서 폴더에 뭐가 있는지 알려줘'): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const e of b.generate({
    messages: [
      { role: 'system', content: 'You are Baram.' },
      { role: 'user', content: request },
    ],
    tools,
    toolMode: 'constrained',
    toolChoice: 'required',
    maxTokens: 400,
  })) {
    events.push(e);
  }
  return events;
}

// Loading the native addon takes 1–3 s alone, far more on a machine busy with other suites.
const SLOW = 120_000;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'baram-gguf-'));
  modelPath = writeTinyGguf(join(dir, 'tiny.gguf'));
  // Strings get a maxLength: random weights would otherwise write until maxTokens (tiny-gguf.md).
  backend = new EmbeddedBackend({ modelPath, threads: 1, contextSize: 2048, seed: 7, grammar: { defaultMaxLength: 24 } });
  gate = await createTestGate({ files: { '보고서/memo.txt': '메모' } });
  await backend.load();
}, SLOW);

afterAll(async () => {
  await backend?.close();
  await gate?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded node-llama-cpp with the generated GGUF', () => {
  it('the generated file passes the header check', () => {
    const check = checkGguf(modelPath);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.info).toMatchObject({ version: 3, architecture: 'llama', contextLength: 4096 });
  });

  it('a grammar-constrained call of a real tool validates against its schema and runs through the gate', async () => {
    const tools = [realTool('filesystem.info'), realTool('filesystem.list')];
    const validator = new SchemaValidator();
    for (const t of tools) validator.register(t.name, t.parameters);
    let ran = 0;
    for (const request of ['보고서 폴더에 뭐가 있는지 알려줘', 'What is in the reports folder?']) {
      const events = await run(backend, tools, request);
      const errs = events.filter((e) => e.type === 'error');
      expect(errs).toEqual([]);
      const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
      expect(calls).toHaveLength(1);
      const call = calls[0]!;
      expect(['filesystem.info', 'filesystem.list']).toContain(call.name);
      // The gate's own validator (ajv + re2js), after G-NULL: the grammar guarantees the shape.
      expect(validator.check(call.name, normalizeNulls(call.arguments)).violations).toEqual([]);
      const result = await gate.call(call.name, call.arguments);
      expect(result.outcome).not.toBe('invalid');
      // Random weights name a random path: create it (a folder, which both tools accept), and the
      // same call must now run and succeed.
      const path = call.arguments.path;
      if (result.outcome === 'refused' && typeof path === 'string' && path.trim() && !isAbsolute(path) && !path.split(/[\\/]/).includes('..')) {
        mkdirSync(join(gate.workspace, path), { recursive: true });
        const again = await gate.call(call.name, call.arguments);
        expect(again.outcome).toBe('ok');
        ran++;
      } else if (result.outcome === 'ok') ran++;
      expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
    }
    expect(ran).toBe(2);
  }, SLOW);

  it('a tool without arguments: the call runs and succeeds', async () => {
    const events = await run(backend, [realTool('system.info')]);
    const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    expect(calls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'system.info', arguments: {} }]);
    const result = await gate.call(calls[0]!.name, calls[0]!.arguments);
    expect(result.outcome).toBe('ok');
  }, SLOW);

  it('native function calling (LlamaChat.generateResponse, no handlers): the call leaves as an event, the gate runs it, the result goes back', async () => {
    // A model whose first free token is the generic wrapper's call prefix (make-tiny-gguf.ts).
    const native = new EmbeddedBackend({ modelPath: writeTinyGguf(join(dir, 'calls.gguf'), { scriptedCallPrefix: true }), threads: 1, contextSize: 2048 });
    try {
      const tools = [realTool('system.info')];
      const history: ModelMessage[] = [{ role: 'user', content: '디스크 남은 공간 알려줘' }];
      const first = await generateTurn(native, { messages: history, tools, maxTokens: 64 });
      expect(first.error).toBeUndefined();
      expect(first.calls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'system.info', arguments: {} }]);
      expect(first.finish).toBe('tool_calls');
      const result = await gate.call(first.calls[0]!.name, first.calls[0]!.arguments);
      expect(result.outcome).toBe('ok');
      // The call and its result go back as one functionCall item of the model's response.
      const second = await generateTurn(native, {
        messages: [...history, { role: 'assistant', content: '', toolCalls: first.calls }, { role: 'tool', toolCallId: first.calls[0]!.id, toolName: 'system.info', content: result.text }],
        tools,
        maxTokens: 64,
      });
      expect(second.error).toBeUndefined();
      expect(second.calls.map((c) => c.name)).toEqual(['system.info']);
    } finally {
      await native.close();
    }
  }, SLOW);

  it('Stop before the engine starts generating: aborted, no call', async () => {
    const controller = new AbortController();
    controller.abort();
    const events: ModelEvent[] = [];
    for await (const e of backend.generate({ messages: [{ role: 'user', content: 'x' }], tools: [realTool('system.info')], toolMode: 'constrained', signal: controller.signal })) events.push(e);
    expect(events).toMatchObject([{ type: 'error', code: 'aborted' }, { type: 'finish', reason: 'error' }]);
  });

  it('a file with a broken header is refused before the engine sees it (no process abort)', async () => {
    const bad = join(dir, 'no-ffn.gguf');
    writeTinyGguf(bad, { omitKeys: ['llama.feed_forward_length'] });
    const b = new EmbeddedBackend({ modelPath: bad, threads: 1 });
    const events = await run(b, [realTool('system.info')]);
    const errs = events.filter((e) => e.type === 'error');
    expect(errs).toMatchObject([{ code: 'model_file' }]);
    expect(JSON.stringify(errs)).toContain('feed_forward_length');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'error' });
    const notGguf = join(dir, 'notes.gguf');
    writeFileSync(notGguf, 'hello, this is not a model');
    const e2 = await run(new EmbeddedBackend({ modelPath: notGguf }), []);
    expect(e2.find((e) => e.type === 'error')).toMatchObject({ code: 'model_file' });
  }, SLOW);
});
