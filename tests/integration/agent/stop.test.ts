import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLedgerRows } from '../../../electron/main/audit';
import { auditDir } from '../../../electron/main/runtime/session';
import { runCli, startCli } from '../../helpers/run-cli';
import { chunk, sse, startScriptedModelServer, toolCallTurn, type ScriptedModelServer } from '../../helpers/scripted-model-server';

/**
 * Stop (Ctrl-C in `baram run`; SPEC §4 "Cancel at any moment"): during generation and during a
 * long shell.execute whose program has a child. Generation ends, no process of the tree survives,
 * the ledger records `cancelled`, the conversation is saved. Every wait below waits for a state
 * (a request received, a process started), never for a time.
 */

let base: string;
let ws: string;
let data: string;
let server: ScriptedModelServer | undefined;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-stop-')));
  ws = join(base, 'ws');
  data = join(base, 'data');
  await mkdir(ws);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(base, { recursive: true, force: true });
});

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 6_000; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never happened: ${what}`);
}

/** Processes whose command line contains `marker` (zombies have none, so they do not count). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function ledger(): { type: string; tool?: string; outcome?: string; requestId?: string; data?: Record<string, unknown> }[] {
  return [...readLedgerRows(auditDir(data))].map((row) => JSON.parse(row.body));
}

async function savedConversation() {
  const list = await runCli(['conversations', '--data-dir', data, '--json']);
  return list.json<{ status: string; messages: number }[]>()[0]!;
}

describe('Stop', { timeout: 180_000 }, () => {
  it('during generation: the stream is dropped, exit 130, the ledger and the conversation say cancelled', async () => {
    server = await startScriptedModelServer({ shape: 'openai', turns: [sse([chunk.role(), chunk.content('생각하는 중')], { done: false, end: 'hold' })] });
    const cli = startCli(['run', '회의록을 요약해줘', '--model', server.url, '--workspace', ws, '--data-dir', data, '--approve', 'none']);
    let streamed = '';
    cli.child.stdout.on('data', (d: Buffer) => (streamed += d.toString()));
    await until(() => streamed.includes('생각하는 중'), 'the first words streamed');
    cli.child.kill('SIGINT');
    const r = await cli.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('중지하는 중입니다');
    const rows = ledger();
    const request = rows.find((b) => b.type === 'request')!;
    expect(rows.find((b) => b.type === 'request.finished')).toMatchObject({ requestId: request.requestId, outcome: 'cancelled', data: { status: 'cancelled' } });
    expect(await savedConversation()).toMatchObject({ status: 'cancelled', messages: 2 });
    expect((await runCli(['audit', 'verify', '--data-dir', data])).code).toBe(0);
  });

  it('during a long shell.execute: the program and its child die, the call and the request are cancelled', async () => {
    const marker = `sleep ${271 + Math.floor(Math.random() * 1000)}.828`;
    const policy = join(base, 'policy.json');
    await writeFile(policy, JSON.stringify({ version: 1, shell: { commands: { sh: {} }, trustedDirs: ['/usr/bin', '/bin'] } }));
    server = await startScriptedModelServer({
      shape: 'openai',
      turns: [toolCallTurn([{ id: 's1', name: 'shell_execute', arguments: { command: 'sh', args: ['-c', `${marker} & ${marker}; wait`], timeoutMs: 600_000 } }])],
    });
    const cli = startCli(['run', '오래 걸리는 작업을 돌려줘', '--model', server.url, '--workspace', ws, '--data-dir', data, '--policy', policy, '--approve', 'all']);
    await until(() => processesWith(marker).length >= 2, 'both sleepers running');
    cli.child.kill('SIGINT');
    const r = await cli.done;
    expect(r.code).toBe(130);
    expect(processesWith(marker)).toEqual([]);
    const rows = ledger();
    expect(rows.find((b) => b.type === 'execution.finished')).toMatchObject({ tool: 'shell.execute', outcome: 'cancelled' });
    expect(rows.find((b) => b.type === 'request.finished')).toMatchObject({ outcome: 'cancelled' });
    // system, user, the call, its (cancelled) result.
    expect(await savedConversation()).toMatchObject({ status: 'cancelled', messages: 4 });
    // The model was not asked again after Stop.
    expect(server.chatRequests()).toHaveLength(1);
  });
});
