import { afterEach, describe, expect, it } from 'vitest';
import { json, startScriptedModelServer, textTurn, type ScriptedModelServer } from '../../helpers/scripted-model-server';
import { runCli } from '../../helpers/run-cli';

/** `baram route` and `baram model check` (issue 16 scope 1 and 3) through the real command. */
let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('baram route', () => {
  it('--json prints the schemas offered, in order, and the token cost routed and full', async () => {
    const r = await runCli(['route', '다운로드 폴더의 엑셀 파일을 연도별 폴더로 정리해줘', '--json']);
    expect(r.code).toBe(0);
    const out = r.json<{ schemas: string[]; tokens: { routed: number; full: number } }>();
    expect(out.schemas).toContain('filesystem.move');
    expect(out.tokens.routed).toBeGreaterThan(0);
    expect(out.tokens.routed).toBeLessThan(out.tokens.full * 0.25);
  });
});

describe('baram model check', () => {
  it('names the server kind, model and context of a llama-server, and that constrained output works', async () => {
    server = await startScriptedModelServer({
      shape: 'openai',
      model: 'Qwen3-4B-Q4_K_M.gguf',
      routes: { 'GET /props': json({ default_generation_settings: { n_ctx: 8192 }, chat_template: '{% if tools %}…{% endif %}', chat_template_caps: { supports_tools: true } }) },
      turns: [textTurn('{"baram_probe": 7341, "word": "hello"}')],
    });
    const r = await runCli(['model', 'check', '--model', server.url, '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ kind: 'llama-server', model: 'Qwen3-4B-Q4_K_M.gguf', contextLength: 8192, nativeTools: true, constrainedOutputWorks: true, problems: [] });
  });

  it('a server that is not there: exit 1 and what to do, in Korean', async () => {
    const r = await runCli(['model', 'check', '--model', 'http://127.0.0.1:9']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('모델 서버에 연결할 수 없습니다');
    expect(r.stdout).toContain('관리자에게 주소를 확인하세요');
  });
});
