import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkModel } from '../../../electron/main/model/check';
import { json, startScriptedModelServer, textTurn, ndjson, type ScriptedModelServer } from '../../helpers/scripted-model-server';
import { writeTinyGguf } from '../../../scripts/make-tiny-gguf';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('checkModel', () => {
  it('llama-server: kind, model, context, native tools from /props; a probe that obeys the schema', async () => {
    server = await startScriptedModelServer({
      shape: 'openai',
      model: 'Qwen3-4B-Q4_K_M.gguf',
      routes: { 'GET /props': json({ default_generation_settings: { n_ctx: 8192 }, chat_template: '{% if tools %}…{% endif %}', chat_template_caps: { supports_tools: true } }) },
      turns: [textTurn('{"baram_probe": 7341, "word": "hello"}')],
    });
    const check = await checkModel(new URL(server.url));
    expect(check).toMatchObject({ kind: 'llama-server', model: 'Qwen3-4B-Q4_K_M.gguf', contextLength: 8192, nativeTools: true, constrainedOutputWorks: true, problems: [] });
    // The probe went out in the nested form (trap 1).
    expect(server.chatRequests()[0]!.json.response_format.json_schema.schema.required).toEqual(['baram_probe', 'word']);
  });

  it('vLLM that fails open: tools refused (400), and a schema answered with free text → false, with reasons', async () => {
    server = await startScriptedModelServer({
      shape: 'openai',
      routes: { 'GET /v1/models': json({ object: 'list', data: [{ id: 'Qwen/Qwen3-4B', owned_by: 'vllm', max_model_len: 32768 }] }) },
      turns: [
        json({ object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', code: 400 }, 400),
        textTurn('Hello!'),
      ],
    });
    const check = await checkModel(`${server.url}/v1`);
    expect(check).toMatchObject({ kind: 'vllm', model: 'Qwen/Qwen3-4B', contextLength: 32768, nativeTools: false, constrainedOutputWorks: false });
    const en = check.problems.map((p) => p.en).join('\n');
    expect(en).toContain('--enable-auto-tool-choice');
    expect(en).toContain('did not follow it');
    for (const p of check.problems) expect(p.ko).toMatch(/[가-힣]/);
  });

  it('Ollama: capabilities and context from /api/show; the probe through /api/chat format', async () => {
    server = await startScriptedModelServer({
      shape: 'ollama',
      model: 'qwen3:4b',
      routes: { 'POST /api/show': json({ capabilities: ['completion', 'tools'], model_info: { 'qwen3.context_length': 40960 } }) },
      turns: [ndjson([{ message: { role: 'assistant', content: '{"baram_probe":7341,"word":"hi"}' }, done: false }, { message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 20, eval_count: 9 }])],
    });
    const check = await checkModel(server.url);
    expect(check).toMatchObject({ kind: 'ollama', model: 'qwen3:4b', contextLength: 40960, nativeTools: true, constrainedOutputWorks: true });
    expect(server.chatRequests()[0]!.json.format.required).toEqual(['baram_probe', 'word']);
    expect(check.problems.map((p) => p.en).join()).toContain('OLLAMA_CONTEXT_LENGTH');
  });

  it('nothing listening: says what to do', async () => {
    const s = await startScriptedModelServer({ shape: 'openai', turns: [] });
    await s.close();
    const check = await checkModel(s.url);
    expect(check.kind).toBeNull();
    expect(check.problems[0]!.ko).toMatch(/^모델 서버에 연결할 수 없습니다: .*관리자에게 주소를 확인하세요/);
  });

  it('a GGUF file: header facts, and the grammar probe really constrains', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baram-check-'));
    try {
      const path = writeTinyGguf(join(dir, 'tiny.gguf'));
      const check = await checkModel(path, { embedded: { threads: 1, contextSize: 1024 } });
      expect(check).toMatchObject({ kind: 'embedded', model: 'baram-tiny-test', contextLength: 4096, constrainedOutputWorks: true, problems: [] });
      const bad = writeTinyGguf(join(dir, 'bad.gguf'), { omitKeys: ['llama.attention.head_count'] });
      const refused = await checkModel(bad);
      expect(refused.constrainedOutputWorks).toBeNull();
      expect(refused.problems[0]!.en).toContain('attention.head_count');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // loads the native engine: slow on a busy machine
});
