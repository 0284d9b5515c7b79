import { createServer, type Server } from 'node:net';
import { mkdtemp, readFile, realpath, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSession, SessionError } from '../../../electron/main/runtime/session';
import type { Text } from '../../../electron/common/i18n';
import { useTestGate } from '../../helpers/gate-harness';
import { alive, everStarted, fixtureServer, mcpPolicy, startedPids, until } from './mcp-helpers';

/**
 * Issue 19, MCP client: a real server process (tests/fixtures/mcp/server.mjs, the SDK's own
 * server over stdio) behind the same gate as the built-in tools. Every wait waits for a state.
 */
const open = useTestGate();
let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'baram-mcp-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Event = { type: string; tool?: string; callId?: string; outcome?: string; decision?: string; risk?: string; target?: string[]; data?: Record<string, unknown> };

describe('MCP servers listed in the admin policy', () => {
  it('registers its tools as mcp.<server>.*, asks (default risk execute), runs and records each call', async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { tools: { add: 'read' } }) }) });
    const names = g.session.gate.tools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['mcp.fx.echo', 'mcp.fx.add', 'mcp.fx.hang', 'mcp.fx.flood']));
    expect(names).toContain('filesystem.read');

    const echo = await g.call('mcp.fx.echo', { text: '안녕하세요' });
    expect(echo.outcome).toBe('ok');
    expect(echo.text).toBe('안녕하세요');
    // The approval names server and tool, shows where the call goes, and treats the annotation as a claim.
    expect(g.approvals).toHaveLength(1);
    const asked = g.approvals[0]!;
    expect(asked.tool).toBe('mcp.fx.echo');
    expect(asked.risk).toBe('execute');
    expect(asked.summary.en).toContain("'echo' of the MCP server 'fx'");
    expect(asked.summary.en).toContain('readOnlyHint=true');
    expect(asked.summary.en).toContain('the policy sets the risk');
    expect(asked.destination).toMatch(/^MCP fx \(\/.*node .*server\.mjs/);

    // The policy said `read` for add: allowed by defaults.read, nobody asked.
    const add = await g.call('mcp.fx.add', { a: 2, b: 3 });
    expect(add.outcome).toBe('ok');
    expect(add.text).toBe('5');
    expect(g.approvals).toHaveLength(1);
    expect(add.decision).toMatchObject({ decision: 'allow', rule: 'defaults.read' });

    const events = (await g.auditEvents()) as Event[];
    const call = events.filter((e) => e.callId === echo.callId);
    expect(call.map((e) => e.type)).toEqual(['tool.proposed', 'permission.decided', 'approval.requested', 'approval.decided', 'execution.started', 'execution.finished']);
    for (const e of call) expect(e.tool).toBe('mcp.fx.echo');
    expect(call[1]).toMatchObject({ decision: 'ask', rule: 'defaults.execute' });
    expect(call[5]).toMatchObject({ outcome: 'ok', data: { details: { server: 'fx', tool: 'echo' } } });

    const started = events.find((e) => e.type === 'mcp.server' && e.data?.['event'] === 'started');
    expect(started?.data).toMatchObject({ server: 'fx', program: { command: 'node', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    const added = events.filter((e) => e.type === 'toolset.changed').map((e) => e.data?.['added']);
    expect(added).toEqual(expect.arrayContaining(['mcp.fx.echo', 'mcp.fx.add']));
  });

  it('refuses the tools whose schemas break X-SCHEMA, alone, naming the rule; fetches nothing', async () => {
    const connections: number[] = [];
    const listener: Server = createServer((socket) => {
      connections.push(Date.now());
      socket.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const port = (listener.address() as { port: number }).port;
    try {
      const notices: Text[] = [];
      const g = await open({
        policy: mcpPolicy({ fx: fixtureServer(dir, {}, 'normal', ['--ref-url', `http://127.0.0.1:${port}/schema.json`]) }),
        lang: 'ko',
        onNotice: (n) => notices.push(n),
      });
      const names = g.session.gate.tools().map((t) => t.name);
      expect(names).not.toContain('mcp.fx.bad_pattern');
      expect(names).not.toContain('mcp.fx.remote_ref');
      expect(names).toContain('mcp.fx.echo');
      const events = (await g.auditEvents()) as Event[];
      const listing = events.find((e) => e.type === 'mcp.server' && e.data?.['event'] === 'tools');
      const rejected = listing?.data?.['rejected'] as { tool: string; rule: string; path: string }[];
      expect(rejected.map((r) => r.tool).sort()).toEqual(['bad_pattern', 'remote_ref']);
      expect(rejected.find((r) => r.tool === 'remote_ref')).toMatchObject({ rule: 'remote-ref', path: '/properties/q/$ref' });
      expect(rejected.find((r) => r.tool === 'bad_pattern')?.path).toBe('/properties/q/pattern');
      // The ledger keeps the session's language; the report carries both, so an English window
      // shows no Korean rule text (and the other way round).
      expect(JSON.stringify(rejected)).toMatch(/[가-힣]/);
      const reports = notices.filter((n) => n.en.includes('was not registered'));
      expect(reports.map((n) => n.en).join('\n')).toMatch(/'bad_pattern'.*regex|'remote_ref'.*remote-ref/s);
      expect(reports).toHaveLength(2);
      for (const n of reports) {
        expect(n.en).not.toMatch(/[가-힣]/);
        expect(n.ko).toContain('등록하지 않았습니다');
      }
      // A refused tool is not callable: unknown to the gate.
      expect((await g.call('mcp.fx.remote_ref', { q: 'x' })).outcome).toBe('denied');
      expect(connections).toEqual([]);
    } finally {
      await new Promise<void>((r) => listener.close(() => r()));
    }
  });

  it('a call that hangs is stopped at callTimeoutMs, the server tree killed and restarted', async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { callTimeoutMs: 1000, maxRestarts: 2, tools: { hang: 'read', echo: 'read' } }) }) });
    const [first] = startedPids(dir);
    expect(alive(first!)).toBe(true);
    const hung = await g.call('mcp.fx.hang', {});
    expect(hung.outcome).toBe('timeout');
    expect(hung.text).toContain('did not answer within 1 s');
    expect(alive(first!)).toBe(false);
    // Restarted with backoff: a new process, and the tools work again.
    await until(() => startedPids(dir).length === 2, 'the server restarted');
    await until(async () => (await g.call('mcp.fx.echo', { text: 'back' })).outcome === 'ok', 'echo answers after the restart');
    const events = (await g.auditEvents()) as Event[];
    const life = events.filter((e) => e.type === 'mcp.server').map((e) => [e.data?.['event'], e.data?.['reason']]);
    expect(life).toContainEqual(['stopped', 'hang']);
    expect(life).toContainEqual(['restarting', undefined]);
    const finished = events.find((e) => e.callId === hung.callId && e.type === 'execution.finished');
    expect(finished).toMatchObject({ outcome: 'timeout', data: { details: { server: 'fx', tool: 'hang', stopped: 'hang' } } });
  });

  it('Stop cancels a running MCP call at once; the server keeps running for the next call', async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { callTimeoutMs: 600000, tools: { hang: 'read', echo: 'read' } }) }) });
    const [pid] = startedPids(dir);
    const stop = new AbortController();
    const pending = g.call('mcp.fx.hang', {}, stop.signal);
    await until(async () => ((await g.auditEvents()) as Event[]).some((e) => e.type === 'execution.started' && e.tool === 'mcp.fx.hang'), 'the call is running');
    stop.abort();
    const cancelled = await pending;
    expect(cancelled.outcome).toBe('cancelled');
    expect(alive(pid!)).toBe(true);
    expect((await g.call('mcp.fx.echo', { text: 'still here' })).text).toBe('still here');
  });

  it('a server that hangs on initialize is stopped at startTimeoutMs and its tools never appear', async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { startTimeoutMs: 1000, maxRestarts: 0 }, 'hang-init') }) });
    const pids = startedPids(dir);
    expect(pids).toHaveLength(1);
    expect(alive(pids[0]!)).toBe(false);
    expect(g.session.gate.tools().some((t) => t.name.startsWith('mcp.'))).toBe(false);
    const events = (await g.auditEvents()) as Event[];
    const life = events.filter((e) => e.type === 'mcp.server').map((e) => [e.data?.['event'], e.data?.['reason']]);
    expect(life).toEqual([
      ['stopped', 'start-timeout'],
      ['gave-up', undefined],
    ]);
    const call = await g.call('mcp.fx.echo', { text: 'x' });
    expect(call.outcome).toBe('denied');
  });

  it('a flooding server is stopped at maxOutputBytes; a large answer within it is cut for the model', async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { maxOutputBytes: 1048576, maxRestarts: 1, tools: { flood: 'read', big: 'read' } }) }) });
    const [first] = startedPids(dir);
    const flood = await g.call('mcp.fx.flood', {});
    expect(flood.outcome).toBe('error');
    expect(flood.text).toContain('more than its limit (1024 KiB)');
    expect(alive(first!)).toBe(false);
    await until(() => g.session.gate.tools().length > 0 && startedPids(dir).length === 2, 'restarted');
    await until(async () => (await g.call('mcp.fx.big', { chars: 100000 })).outcome === 'ok', 'big answers');
    const big = await g.call('mcp.fx.big', { chars: 100000 });
    // The gate's own cap (shell.maxOutputChars, 30,000 by default) with its note after the cut.
    expect(big.text.length).toBeLessThan(31_000);
    expect(big.text.startsWith('y'.repeat(1000))).toBe(true);
    const events = (await g.auditEvents()) as Event[];
    expect(events.filter((e) => e.type === 'mcp.server').map((e) => e.data?.['reason'])).toContain('flood');
  });

  it('a server that sends endless small messages is stopped too (a flood by count)', async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { maxRestarts: 0, tools: { chatter: 'read' } }) }) });
    const [pid] = startedPids(dir);
    const chatter = await g.call('mcp.fx.chatter', {});
    expect(chatter.outcome).toBe('error');
    expect(chatter.details).toMatchObject({ stopped: 'flood' });
    expect(alive(pid!)).toBe(false);
  });

  it('a server that dies in a call is reported and restarted; after maxRestarts its tools are removed', async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { maxRestarts: 1, tools: { crash: 'read', echo: 'read' } }) }) });
    const died = await g.call('mcp.fx.crash', {});
    expect(died.outcome).toBe('error');
    expect(died.text).toContain("The MCP server 'fx' ended while running 'crash'");
    await until(() => startedPids(dir).length === 2, 'restarted once');
    await until(async () => (await g.call('mcp.fx.echo', { text: 'x' })).outcome === 'ok', 'back');
    expect((await g.call('mcp.fx.crash', {})).outcome).toBe('error');
    await until(() => !g.session.gate.tools().some((t) => t.name.startsWith('mcp.fx.')), 'tools removed after the last restart');
    const events = (await g.auditEvents()) as Event[];
    expect(events.some((e) => e.type === 'mcp.server' && e.data?.['event'] === 'gave-up')).toBe(true);
    expect(events.filter((e) => e.type === 'toolset.changed' && e.data?.['removed'] === 'mcp.fx.echo')).toHaveLength(1);
  });

  it('validates arguments in WARN mode by default (recorded, still run); ENFORCE when the policy says so', async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { tools: { echo: 'read' } }) }) });
    const warned = await g.call('mcp.fx.echo', { text: 42 });
    expect(warned.outcome).toBe('ok');
    expect(warned.text).toBe('42');
    const events = (await g.auditEvents()) as Event[];
    expect(events.find((e) => e.callId === warned.callId && e.type === 'schema.violation')?.data).toMatchObject({ mode: 'warn' });
    await g.close();

    const strict = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { tools: { echo: 'read' } }) }, { schemaValidation: { external: 'enforce' } }) });
    const refused = await strict.call('mcp.fx.echo', { text: 42 });
    expect(refused.outcome).toBe('invalid');
    expect(refused.text).toContain("Parameter 'text' must be a string. The tool was not executed.");
  });

  it("a server cannot ask Baram's model anything (no sampling capability)", async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { tools: { ask_model: 'read' } }) }) });
    const asked = await g.call('mcp.fx.ask_model', {});
    expect(asked.outcome).toBe('ok');
    expect(asked.text).toMatch(/^refused: /);
    expect(asked.text).not.toContain('the client answered');
  });

  it('passes only the whitelisted environment', async () => {
    process.env['BARAM_TEST_SECRET_TOKEN'] = 'do-not-leak';
    try {
      const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { env: ['LANG', 'PATH'], tools: { env: 'read' } }) }) });
      const result = await g.call('mcp.fx.env', {});
      const names = JSON.parse(result.text) as string[];
      expect(names).not.toContain('BARAM_TEST_SECRET_TOKEN');
      expect(names).not.toContain('HOME');
      expect(names.every((n) => ['LANG', 'PATH'].includes(n))).toBe(true);
      expect(names).toContain('PATH');
    } finally {
      delete process.env['BARAM_TEST_SECRET_TOKEN'];
    }
  });

  it('records the toolset digest again when the server changes its tool list', async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { tools: { add_tool: 'read', extra: 'read' } }) }) });
    const before = g.session.gate.toolsetDigest;
    expect((await g.call('mcp.fx.add_tool', {})).outcome).toBe('ok');
    await until(() => g.session.gate.tools().some((t) => t.name === 'mcp.fx.extra'), 'the new tool registered');
    expect(g.session.gate.toolsetDigest).not.toBe(before);
    const events = (await g.auditEvents()) as Event[];
    const change = events.find((e) => e.type === 'toolset.changed' && e.data?.['added'] === 'mcp.fx.extra');
    expect(change?.data?.['toolsetDigest']).toBe(g.session.gate.toolsetDigest);
    expect((await g.call('mcp.fx.extra', {})).text).toBe('extra ran');
  });

  it('closing the session kills the server and the processes it started', async () => {
    const g = await open({ policy: mcpPolicy({ fx: fixtureServer(dir, { tools: { spawn_child: 'read' } }) }) });
    const [server] = startedPids(dir);
    expect((await g.call('mcp.fx.spawn_child', {})).outcome).toBe('ok');
    await until(async () => (await readFile(join(dir, 'grandchild'), 'utf8').catch(() => '')).trim() !== '', 'the grandchild started');
    const grandchild = Number((await readFile(join(dir, 'grandchild'), 'utf8')).trim());
    expect(alive(grandchild)).toBe(true);
    await g.session.close();
    expect(alive(server!)).toBe(false);
    await until(() => !alive(grandchild), 'the grandchild died with its server');
  });
});

describe('MCP servers not in the admin policy', () => {
  it('user settings cannot add a server: the session does not open and nothing starts', async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-mcp-user-')));
    try {
      const ws = join(base, 'ws');
      await mkdir(ws);
      const settings = join(base, 'settings.json');
      await writeFile(settings, JSON.stringify({ mcp: { servers: { sneaky: fixtureServer(dir) } } }));
      const opening = openSession({ workspace: ws, dataDir: join(base, 'data'), userSettingsFile: settings, lang: 'en', broker: null });
      await expect(opening).rejects.toBeInstanceOf(SessionError);
      await expect(opening).rejects.toThrow(/\$\.mcp|mcp/);
      expect(everStarted(dir)).toBe(false);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('a server whose program is not in a trusted folder is refused and never spawned', async () => {
    const empty = await realpath(await mkdtemp(join(tmpdir(), 'baram-mcp-empty-')));
    try {
      const g = await open({ policy: { shell: { trustedDirs: [empty] }, mcp: { servers: { fx: fixtureServer(dir) } } } });
      expect(everStarted(dir)).toBe(false);
      const events = (await g.auditEvents()) as Event[];
      expect(events.find((e) => e.type === 'mcp.server')?.data).toMatchObject({ server: 'fx', event: 'refused', code: 'NOT_FOUND' });
      expect((await g.call('mcp.fx.echo', { text: 'x' })).outcome).toBe('denied');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('a server the policy does not list is not a tool (denied as unknown)', async () => {
    const g = await open({ policy: mcpPolicy({}) });
    const call = await g.call('mcp.other.echo', { text: 'x' });
    expect(call.outcome).toBe('denied');
    expect(everStarted(dir)).toBe(false);
  });
});
