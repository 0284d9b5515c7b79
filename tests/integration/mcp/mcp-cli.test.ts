import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLedgerRows } from '../../../electron/main/audit';
import { auditDir } from '../../../electron/main/runtime/session';
import { runCli } from '../../helpers/run-cli';
import { startScriptedModelServer, textTurn, toolCallTurn } from '../../helpers/scripted-model-server';
import { alive, fixtureServer, mcpPolicy, startedPids } from './mcp-helpers';

/**
 * End to end through the real `baram` command (issue 19): an MCP server the admin policy lists is
 * started by `baram call`, its tool approved and run, the ledger verifies, and the server is gone
 * when the command exits.
 */
let base: string;
let ws: string;
let data: string;
let marks: string;
let policyFile: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-mcp-cli-')));
  ws = join(base, 'ws');
  data = join(base, 'data');
  marks = join(base, 'marks');
  await mkdir(ws);
  await mkdir(marks);
  policyFile = join(base, 'policy.json');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

type Body = { type: string; tool?: string; outcome?: string; callId?: string; data?: Record<string, unknown> };
const ledger = (): Body[] => [...readLedgerRows(auditDir(data))].map((row) => JSON.parse(row.body) as Body);

describe('baram call mcp.<server>.<tool>', () => {
  it('starts the listed server, asks, runs the tool, records it, verifies, and leaves no process behind', async () => {
    await writeFile(policyFile, JSON.stringify({ version: 1, ...mcpPolicy({ docs: fixtureServer(marks) }) }));
    const run = await runCli(['call', 'mcp.docs.echo', '{"text":"결재 문서"}', '--policy', policyFile, '--workspace', ws, '--data-dir', data, '--approve', 'all', '--lang', 'en']);
    expect(run.code, run.stderr).toBe(0);
    const result = run.json<{ outcome: string; tool: string; text: string; approval?: { choice: string } }>();
    expect(result).toMatchObject({ outcome: 'ok', tool: 'mcp.docs.echo', text: '결재 문서', approval: { choice: 'allow-once' } });
    expect(run.stderr).toContain("Started the MCP server 'docs'");
    expect(run.stderr).toContain("The tool 'bad_pattern' of the MCP server 'docs' was not registered");
    // The server's own stderr is captured, not inherited.
    expect(run.stderr).not.toContain('listening on stdio');

    const [pid] = startedPids(marks);
    expect(alive(pid!)).toBe(false);

    const rows = ledger();
    const call = rows.filter((r) => r.tool === 'mcp.docs.echo');
    expect(call.map((r) => r.type)).toEqual(['tool.proposed', 'permission.decided', 'approval.requested', 'approval.decided', 'execution.started', 'execution.finished']);
    expect(call.at(-1)).toMatchObject({ outcome: 'ok', data: { details: { server: 'docs', tool: 'echo' } } });
    const life = rows.filter((r) => r.type === 'mcp.server').map((r) => r.data?.['event']);
    expect(life).toEqual(['started', 'tools', 'closed']);

    const verify = await runCli(['audit', 'verify', '--data-dir', data]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/OK/);
  });

  it('baram run: the model knows the server tools and its call goes through the gate', { timeout: 120_000 }, async () => {
    await writeFile(policyFile, JSON.stringify({ version: 1, ...mcpPolicy({ docs: fixtureServer(marks, { tools: { echo: 'read' } }) }) }));
    const model = await startScriptedModelServer({
      shape: 'openai',
      turns: [toolCallTurn([{ id: 'c1', name: 'mcp_docs_echo', arguments: { text: '사내 문서 검색 결과' } }]), textTurn('문서 서버가 답했습니다.')],
    });
    try {
      const run = await runCli(['run', 'docs 서버의 echo 도구로 사내 문서 검색 결과를 돌려줘', '--model', model.url, '--policy', policyFile, '--workspace', ws, '--data-dir', data, '--approve', 'none']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('문서 서버가 답했습니다.');
      // Offered with its schema or listed in tool_search's catalog, as routing decides: the model knows of it.
      expect(JSON.stringify(model.chatRequests()[0]!.json)).toMatch(/mcp[._]docs[._]echo/);
      const second = model.chatRequests()[1]!.json as { messages: { role: string; content: string }[] };
      expect(second.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['사내 문서 검색 결과']);
      const finished = ledger().filter((r) => r.type === 'execution.finished' && r.tool === 'mcp.docs.echo');
      expect(finished.map((r) => r.outcome)).toEqual(['ok']);
      expect(alive(startedPids(marks)[0]!)).toBe(false);
    } finally {
      await model.close();
    }
  });

  it('a server that dies mid-call is reported with the tail of its stderr, for the administrator only', async () => {
    await writeFile(policyFile, JSON.stringify({ version: 1, ...mcpPolicy({ docs: fixtureServer(marks, { maxRestarts: 0, tools: { crash: 'read' } }) }) }));
    const run = await runCli(['call', 'mcp.docs.crash', '{}', '--policy', policyFile, '--workspace', ws, '--data-dir', data, '--lang', 'en']);
    expect(run.code).toBe(1);
    const result = run.json<{ outcome: string; text: string }>();
    expect(result.outcome).toBe('error');
    expect(result.text).toBe("The MCP server 'docs' ended while running 'crash'; there is no result. Use another tool or try again later.");
    expect(run.stderr).toContain("The MCP server 'docs' ended (exit code 3).");
    expect(run.stderr).toContain('    | fixture: crashing on purpose');
    const stopped = ledger().find((r) => r.type === 'mcp.server' && r.data?.['event'] === 'stopped');
    expect(stopped?.data).toMatchObject({ reason: 'exited', exitCode: 3 });
    expect(JSON.stringify(ledger())).not.toContain('crashing on purpose');
  });

  it('without an approver the call is denied and the server still stops', async () => {
    await writeFile(policyFile, JSON.stringify({ version: 1, ...mcpPolicy({ docs: fixtureServer(marks) }) }));
    const run = await runCli(['call', 'mcp.docs.echo', '{"text":"x"}', '--policy', policyFile, '--workspace', ws, '--data-dir', data, '--approve', 'none', '--lang', 'en']);
    expect(run.code).toBe(3);
    expect(run.json()).toMatchObject({ outcome: 'denied' });
    expect(alive(startedPids(marks)[0]!)).toBe(false);
  });

  it('policy check explains a bad mcp section by JSON path', async () => {
    await writeFile(
      policyFile,
      JSON.stringify({ version: 1, mcp: { servers: { Docs: { command: '/usr/bin/node' }, ok: { command: 'node', tools: { x: 'harmless' } } } } }),
    );
    const run = await runCli(['policy', 'check', policyFile, '--lang', 'en']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("$.mcp.servers.ok.tools.x");
    const fixed = { version: 1, mcp: { servers: { Docs: { command: '/usr/bin/node' } } } };
    await writeFile(policyFile, JSON.stringify(fixed));
    const again = await runCli(['policy', 'check', policyFile, '--lang', 'en']);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('$.mcp.servers.Docs');
    expect(again.stdout).toContain("$.mcp.servers.Docs.command: Write the program's bare name");
  });
});

describe('baram tools --policy', () => {
  it("lists the MCP servers' tools beside the built-ins, with the policy's risk, and stops the server after", async () => {
    await writeFile(policyFile, JSON.stringify({ version: 1, ...mcpPolicy({ docs: fixtureServer(marks, { tools: { add: 'read' } }) }) }));
    const run = await runCli(['tools', '--json', '--policy', policyFile, '--workspace', ws, '--data-dir', data, '--lang', 'en']);
    expect(run.code, run.stderr).toBe(0);
    const tools = run.json<{ name: string; risk: string }[]>();
    const byName = new Map(tools.map((t) => [t.name, t.risk]));
    expect(byName.get('filesystem.read')).toBe('read');
    expect(byName.get('mcp.docs.add')).toBe('read');
    expect(byName.get('mcp.docs.echo')).toBe('execute');
    // A tool the schema rules refused is not offered, and the terminal is told why.
    expect(byName.has('mcp.docs.bad_pattern')).toBe(false);
    expect(run.stderr).toContain("The tool 'bad_pattern' of the MCP server 'docs' was not registered");
    const [pid] = startedPids(marks);
    expect(alive(pid!)).toBe(false);
    expect(ledger().filter((r) => r.type === 'mcp.server').map((r) => r.data?.['event'])).toEqual(['started', 'tools', 'closed']);

    // Without --policy: the built-in tools only, no server started.
    const plain = await runCli(['tools', '--json']);
    expect(plain.json<{ name: string }[]>().some((t) => t.name.startsWith('mcp.'))).toBe(false);
    expect(startedPids(marks)).toHaveLength(1);
  });
});
