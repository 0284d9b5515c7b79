import { mkdtemp, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLedgerRows } from '../../../electron/main/audit';
import { auditDir } from '../../../electron/main/runtime/session';
import { runCli } from '../../helpers/run-cli';
import { chunk, hermesTurn, sse, startScriptedModelServer, textTurn, toolCallTurn, type ScriptedModelServer, type ScriptedResponse } from '../../helpers/scripted-model-server';

/**
 * `baram run` drives a scripted five-step task (issue 16, Must show): list → search → read →
 * write with approval → answer, against a real model server on 127.0.0.1, through the real CLI,
 * the real gate and the real ledger. Once with native calls, once with Hermes text, once with a
 * malformed first call that the repair round fixes.
 */

let base: string;
let ws: string;
let data: string;
let server: ScriptedModelServer | undefined;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-run-')));
  ws = join(base, '업무');
  data = join(base, 'data');
  await mkdir(join(ws, '보고서'), { recursive: true });
  await writeFile(join(ws, '보고서', '2024-매출.txt'), '2024년 총매출: 1,234만원\n');
  await writeFile(join(ws, '메모.txt'), '회의는 목요일\n');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(base, { recursive: true, force: true });
});

const TASK = '보고서 폴더에서 매출 파일을 찾아 총매출을 요약.txt에 적어줘';
const STEPS = [
  { name: 'filesystem_list', arguments: { path: '.' } },
  { name: 'filesystem_search', arguments: { namePattern: '*매출*' } },
  { name: 'filesystem_read', arguments: { path: '보고서/2024-매출.txt' } },
  { name: 'filesystem_write', arguments: { path: '요약.txt', content: '총매출 1,234만원' } },
] as const;
const ANSWER = '요약.txt에 총매출 1,234만원을 적었습니다.';

function run(extra: string[] = []) {
  return runCli(['run', TASK, '--model', server!.url, '--workspace', ws, '--data-dir', data, '--approve', 'ask', ...extra], {
    stdin: 'y\n',
    when: /\[y\]/,
  });
}

interface Body {
  type: string;
  seq: number;
  tool?: string;
  outcome?: string;
  requestId?: string;
  data?: Record<string, unknown>;
}
function ledger(): Body[] {
  return [...readLedgerRows(auditDir(data))].map((row) => JSON.parse(row.body) as Body);
}

/** What every variant must leave behind: the file, the ledger story, a verifying ledger. */
async function expectFiveStepTask(r: { code: number | null; stdout: string; stderr: string }, repaired = false) {
  expect(r.stderr).not.toMatch(/^baram: (?!out\/cli is)/m); // no error (a notice that the sources run is not one)
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(ANSWER);
  expect(await readFile(join(ws, '요약.txt'), 'utf8')).toBe('총매출 1,234만원');

  const rows = ledger();
  const request = rows.find((b) => b.type === 'request')!;
  expect(request.data).toMatchObject({ text: TASK });
  const calls = rows.filter((b) => b.type === 'execution.finished');
  expect(calls.map((b) => [b.tool, b.outcome])).toEqual([
    // A repaired call is on record as the invalid attempt it was, then the call that ran.
    ...(repaired ? [['filesystem.list', 'invalid']] : []),
    ['filesystem.list', 'ok'],
    ['filesystem.search', 'ok'],
    ['filesystem.read', 'ok'],
    ['filesystem.write', 'ok'],
  ]);
  for (const b of rows.filter((x) => x.type === 'tool.proposed' || x.type === 'execution.finished')) expect(b.requestId).toBe(request.requestId);
  const approval = rows.find((b) => b.type === 'approval.decided')!;
  expect(approval).toMatchObject({ tool: 'filesystem.write', requestId: request.requestId });
  expect(rows.find((b) => b.type === 'request.finished')).toMatchObject({ requestId: request.requestId, outcome: 'ok' });

  const verify = await runCli(['audit', 'verify', '--data-dir', data, '--json']);
  expect(verify.code).toBe(0);
}

/** The tool results the model was sent back, in order (native shape). */
function toolResults(request: { json: { messages: { role: string; content: string }[] } }): string[] {
  return request.json.messages.filter((m) => m.role === 'tool').map((m) => m.content);
}

// Several CLI processes per test: generous on a loaded 2-core CI machine (nothing asserts a time).
describe('baram run: a five-step task', { timeout: 180_000 }, () => {
  it('native tool calls: every step through the gate, the write approved in the terminal, the answer streamed', async () => {
    server = await startScriptedModelServer({ shape: 'openai', turns: [...STEPS.map((s, i) => toolCallTurn([{ id: `c${i}`, ...s }])), textTurn(ANSWER)] });
    const r = await run();
    await expectFiveStepTask(r);
    const requests = server.chatRequests();
    expect(requests).toHaveLength(5);
    // Each follow-up carries the earlier results; the read's result holds the file's line.
    const last = requests[4]!;
    expect(toolResults(last)).toHaveLength(4);
    expect(toolResults(last)[2]).toContain('2024년 총매출: 1,234만원');
    // The tool block is byte-identical across the steps of one request (the prompt cache holds).
    const blocks = requests.map((q) => JSON.stringify(q.json.tools));
    expect(new Set(blocks).size).toBe(1);
    // The system prompt names the workspace, in Korean.
    expect(requests[0]!.json.messages[0]).toMatchObject({ role: 'system' });
    expect(requests[0]!.json.messages[0].content).toContain(ws);
    // Progress on stderr: each call and its outcome.
    expect(r.stderr).toContain('• filesystem.write');
  });

  it('Hermes <tool_call> text instead of native calls: the same task, the same ledger', async () => {
    server = await startScriptedModelServer({ shape: 'openai', turns: [...STEPS.map((s) => hermesTurn([s])), textTurn(ANSWER)] });
    const r = await run();
    await expectFiveStepTask(r);
    // The history sent back holds the parsed calls as native calls, never the raw tags.
    const last = server.chatRequests()[4]!.json.messages as { role: string; content: string; tool_calls?: { function: { name: string; arguments: string } }[] }[];
    expect(last.some((m) => m.content?.includes('<tool_call>'))).toBe(false);
    const write = last.flatMap((m) => m.tool_calls ?? []).find((c) => c.function.name === 'filesystem_write')!;
    expect(JSON.parse(write.function.arguments)).toEqual(STEPS[3].arguments);
  });

  it('a malformed first call gets one repair round with the validator message; the repaired call runs', async () => {
    const bad = toolCallTurn([{ id: 'bad', name: 'filesystem_list', arguments: { folder: '.' } }]);
    let repairSeen = '';
    const repaired = (req: { json: { messages: { role: string; content: string }[] } }): ScriptedResponse => {
      repairSeen = req.json.messages[req.json.messages.length - 1]!.content;
      return toolCallTurn([{ id: 'c0', ...STEPS[0] }]);
    };
    server = await startScriptedModelServer({ shape: 'openai', turns: [bad, repaired, ...STEPS.slice(1).map((s, i) => toolCallTurn([{ id: `c${i + 1}`, ...s }])), textTurn(ANSWER)] });
    const r = await run();
    await expectFiveStepTask(r, true);
    // The repair note carries the gate's validator message, and says nothing ran.
    expect(repairSeen).toContain("'folder'");
    expect(repairSeen).toContain('실행하지 않았습니다');
    // The invalid call is in the ledger (what the model tried), never in the history sent back.
    expect(ledger().find((b) => b.type === 'schema.violation')).toMatchObject({ tool: 'filesystem.list' });
    const calls = server.chatRequests()[2]!.json.messages.flatMap((m: { tool_calls?: unknown[] }) => m.tool_calls ?? []);
    expect(JSON.stringify(calls)).not.toContain('folder');
  });

  it('arguments that are not JSON at all: repaired the same way', async () => {
    const broken = sse([chunk.role(), chunk.toolCalls([{ index: 0, id: 'x', type: 'function', function: { name: 'filesystem_list', arguments: '{"path": ".",' } }]), chunk.finish('tool_calls')]);
    server = await startScriptedModelServer({ shape: 'openai', turns: [broken, ...STEPS.map((s, i) => toolCallTurn([{ id: `c${i}`, ...s }])), textTurn(ANSWER)] });
    const r = await run();
    await expectFiveStepTask(r, true);
    expect(server.chatRequests()[1]!.json.messages.at(-1).content).toContain('filesystem_list');
  });

  it('invalid again after the repair: the request fails visibly, exit 1, the raw output shown and kept', async () => {
    const bad = () => toolCallTurn([{ name: 'filesystem_list', arguments: { folder: '.' } }]);
    server = await startScriptedModelServer({ shape: 'openai', turns: [bad(), bad()] });
    const r = await run();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('수정 기회를 한 번 받고도');
    expect(r.stderr).toContain('"folder":"."');
    const finished = ledger().find((b) => b.type === 'request.finished')!;
    expect(finished).toMatchObject({ outcome: 'error', data: { status: 'failed' } });
    expect(String(finished.data!.raw)).toContain('folder');
    expect(ledger().filter((b) => b.type === 'execution.started')).toHaveLength(0);
  });

  it('a conversation is saved, listed and resumed with --continue', async () => {
    server = await startScriptedModelServer({ shape: 'openai', turns: [textTurn('첫 답변입니다.'), textTurn('이어서 답합니다.')] });
    const first = await run();
    expect(first.code).toBe(0);
    const list = await runCli(['conversations', '--data-dir', data, '--json']);
    const [conv] = list.json<{ id: string; title: string; status: string; messages: number }[]>();
    expect(conv).toMatchObject({ title: TASK, status: 'answered', messages: 3 });
    const second = await runCli(['run', '그 다음은?', '--model', server.url, '--workspace', ws, '--data-dir', data, '--approve', 'none', '--continue', conv!.id.slice(0, 8)]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('이어서 답합니다.');
    // The resumed request starts with the whole earlier conversation, unchanged (the server's cached prefix).
    const [a, b] = server.chatRequests();
    expect(JSON.stringify(b!.json.messages).startsWith(JSON.stringify(a!.json.messages).slice(0, -1))).toBe(true);
    expect(b!.json.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const unknown = await runCli(['run', 'x', '--model', server.url, '--workspace', ws, '--data-dir', data, '--continue', 'ffffffff']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('baram conversations');
  });
});

describe('baram run: the admin decides which models', { timeout: 120_000 }, () => {
  it('a server the policy does not list is never contacted; the message says to ask the administrator', async () => {
    server = await startScriptedModelServer({ shape: 'openai', turns: [textTurn('보면 안 되는 답')] });
    const policy = join(base, 'policy.json');
    await writeFile(policy, JSON.stringify({ version: 1, model: { endpoints: ['http://127.0.0.1:1/'] } }));
    const r = await runCli(['run', TASK, '--model', server.url, '--workspace', ws, '--data-dir', data, '--policy', policy, '--approve', 'none']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('관리자');
    expect(server.requests).toHaveLength(0);
    // Without a model section only this machine's servers are allowed: a GGUF file is not.
    const file = await runCli(['run', TASK, '--model', join(base, 'model.gguf'), '--workspace', ws, '--data-dir', data, '--approve', 'none']);
    expect(file.code).toBe(1);
    expect(file.stderr).toContain('관리자');
  });
});

describe('baram run: the terminal shows what the model wrote, never obeys it', { timeout: 120_000 }, () => {
  it('control sequences and bidi overrides in the answer are shown escaped', async () => {
    server = await startScriptedModelServer({ shape: 'openai', turns: [textTurn('정리했습니다\u001b[2J\u001b[H── 승인이 필요합니다 ──\u202eexe.doc\n둘째 줄')] });
    const r = await runCli(['run', TASK, '--model', server.url, '--workspace', ws, '--data-dir', data, '--approve', 'none']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\u001b\u202e]/);
    expect(r.stdout).toContain('\\u{001B}[2J');
    expect(r.stdout).toContain('\\u{202E}exe.doc\n둘째 줄');
  });
});
