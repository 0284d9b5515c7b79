import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerTo } from '../../../electron/common/approval';
import { Agent, announcingBroker, type AgentEvent, type AgentOptions } from '../../../electron/main/agent/agent';
import { ConversationStore } from '../../../electron/main/agent/conversations';
import { conversationView } from '../../../electron/main/desktop/conversation-view';
import type { ModelMessage } from '../../../electron/main/model';
import { useTestGate, type TestGate } from '../../helpers/gate-harness';
import { scriptedBackend, type ScriptedTurn } from '../../helpers/scripted-backend';

/** The agent loop on the real gate (a real workspace and ledger), the model scripted in process. */
const open = useTestGate({ files: { '메모.txt': '회의는 목요일\n', '보고서/a.txt': 'A\n', '보고서/b.txt': 'B\n' }, lang: 'ko' });
let storeDir: string;
let store: ConversationStore;
beforeEach(() => {
  storeDir = mkdtempSync(join(tmpdir(), 'baram-conv-'));
  store = ConversationStore.open(join(storeDir, 'conversations.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(storeDir, { recursive: true, force: true });
});

function agentOn(g: TestGate, turns: readonly ScriptedTurn[], extra: Partial<AgentOptions> = {}) {
  const backend = scriptedBackend(turns);
  const events: AgentEvent[] = [];
  const agent = new Agent({ gate: g.session.gate, backend, store, lang: 'ko', workspace: g.workspace, modelLabel: 'test', onEvent: (e) => events.push(e), ...extra });
  return { agent, backend, events };
}

const toolMessages = (messages: readonly ModelMessage[]) => messages.filter((m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool');

describe('agent loop', () => {
  it('an unknown tool name is denied by the gate with the closest real names; the model reads why and recovers', async () => {
    const g = await open();
    const { agent, backend } = agentOn(g, [{ calls: [{ name: 'filesystem_lst', arguments: { path: '.' } }] }, { calls: [{ name: 'filesystem_list', arguments: { path: '.' } }] }, { text: '끝' }]);
    const r = await agent.run('목록을 보여줘');
    expect(r.status).toBe('answered');
    const denial = toolMessages(backend.requests[1]!.messages)[0]!;
    expect(denial.content).toContain('filesystem.list');
    const events = await g.auditEvents();
    expect(events.find((e) => e.type === 'permission.decided' && e.rule === 'unknown-tool')).toBeTruthy();
  });

  it('tool.search is answered from the catalog; a real tool the router did not offer then runs through the gate', async () => {
    const g = await open();
    const { agent, backend } = agentOn(g, [{ calls: [{ name: 'tool_search', arguments: { query: 'system_info' } }] }, { calls: [{ name: 'system_info', arguments: {} }] }, { text: '끝' }]);
    const r = await agent.run('메모 파일을 읽어줘');
    expect(r.status).toBe('answered');
    const offered = backend.requests[0]!.tools.map((t) => t.name);
    expect(offered).not.toContain('system_info');
    const [search, info] = toolMessages(backend.requests[2]!.messages);
    expect(search!.content).toContain('"name":"system_info"');
    const finished = (await g.auditEvents()).filter((e) => e.type === 'execution.finished');
    expect(finished.map((e) => [e.tool, e.outcome])).toEqual([['system.info', 'ok']]);
    expect(info!.content.length).toBeGreaterThan(0);
  });

  it('the step limit ends the request with a message that says how to go on', async () => {
    const g = await open();
    const again: ScriptedTurn = { calls: [{ name: 'filesystem_list', arguments: { path: '.' } }] };
    const { agent } = agentOn(g, [again, again, again, again], { maxSteps: 3 });
    const r = await agent.run('계속 봐');
    expect(r).toMatchObject({ status: 'step_limit', steps: 3 });
    expect(r.answer).toContain('--continue');
    expect((await g.auditEvents()).find((e) => e.type === 'request.finished')).toMatchObject({ outcome: 'error', data: { status: 'step_limit' } });
  });

  it('several calls in one turn: all run, results go back in the order the model gave them', async () => {
    const g = await open();
    const { agent, backend } = agentOn(g, [
      {
        calls: [
          { id: 'r1', name: 'filesystem_read', arguments: { path: '보고서/a.txt' } },
          { id: 'r2', name: 'filesystem_read', arguments: { path: '보고서/b.txt' } },
          { id: 'w1', name: 'filesystem_write', arguments: { path: '합본.txt', content: 'A B' } },
          { id: 'r3', name: 'filesystem_read', arguments: { path: '메모.txt' } },
        ],
      },
      { text: '합쳤습니다' },
    ]);
    const r = await agent.run('a와 b를 합쳐줘');
    expect(r.status).toBe('answered');
    const results = toolMessages(backend.requests[1]!.messages);
    expect(results.map((m) => m.toolCallId)).toEqual(['r1', 'r2', 'w1', 'r3']);
    expect(results[0]!.content).toContain('A');
    expect(results[3]!.content).toContain('회의는 목요일');
    // The exclusive write ran alone: after both reads finished, before the last read started.
    const events = await g.auditEvents();
    const order = events.filter((e) => e.type === 'execution.started' || e.type === 'execution.finished').map((e) => `${e.type === 'execution.started' ? '+' : '-'}${e.tool}`);
    const writeStart = order.indexOf('+filesystem.write');
    expect(order.slice(0, writeStart).filter((x) => x === '-filesystem.read')).toHaveLength(2);
    expect(order[writeStart + 1]).toBe('-filesystem.write');
  });

  it('every call carries the request id; the request text is in the ledger with secrets redacted', async () => {
    const g = await open();
    const { agent } = agentOn(g, [{ calls: [{ name: 'filesystem_read', arguments: { path: '메모.txt' } }] }, { text: '목요일입니다' }]);
    const r = await agent.run('메모를 읽어줘 password=hunter2');
    const events = await g.auditEvents();
    const request = events.find((e) => e.type === 'request')!;
    expect(request.requestId).toBe(r.requestId);
    expect(JSON.stringify(request)).not.toContain('hunter2');
    for (const e of events.filter((x) => typeof x.callId === 'string')) expect(e.requestId).toBe(r.requestId);
  });

  it('the saved conversation holds only calls the gate accepted; progress events tell each phase', async () => {
    const g = await open();
    const { agent, events } = agentOn(g, [{ calls: [{ name: 'filesystem_read', arguments: { pth: '메모.txt' } }] }, { calls: [{ name: 'filesystem_read', arguments: { path: '메모.txt' } }] }, { text: '목요일' }]);
    const r = await agent.run('메모');
    expect(r.status).toBe('answered');
    const saved = store.load(r.conversationId)!;
    const calls = saved.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
    expect(calls.map((c) => c.arguments)).toEqual([{ path: '메모.txt' }]);
    expect(saved.meta.status).toBe('answered');
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['thinking', 'calling', 'called', 'repair', 'step', 'text', 'done']));
    // The repair note went to the model as a user turn, but the window shows only what the person said.
    expect(saved.messages.filter((m) => m.role === 'user').map((m) => ('note' in m ? m.note : undefined))).toEqual([undefined, 'repair']);
    expect(conversationView(saved).messages).toEqual([
      { role: 'user', text: '메모' },
      { role: 'assistant', text: '목요일' },
    ]);
  });
});

describe('announcingBroker', () => {
  it('reports waiting for approval, then passes the inner answer through unchanged', async () => {
    const events: AgentEvent[] = [];
    const inner = { request: async (r: { callId: string; digest: string }) => answerTo(r, 'deny', 'test', 'no') };
    const broker = announcingBroker(inner as never, (e) => events.push(e))!;
    const request = { callId: 'c1', digest: 'd', tool: 'filesystem.write', summary: { ko: '쓰기', en: 'write' } };
    expect(await broker.request(request as never, new AbortController().signal)).toEqual({ callId: 'c1', digest: 'd', choice: 'deny', approver: 'test', reason: 'no' });
    expect(events).toEqual([{ type: 'waiting', callId: 'c1', tool: 'filesystem.write', summary: { ko: '쓰기', en: 'write' } }]);
    expect(announcingBroker(null, () => {})).toBeNull();
  });
});
