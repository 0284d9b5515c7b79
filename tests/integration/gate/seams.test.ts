import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { text } from '../../../electron/common/i18n';
import { defineTool, type AnyTool } from '../../../tools/kit/define-tool';
import { ok } from '../../../tools/kit/results';
import { useTestGate } from '../../helpers/gate-harness';

/**
 * The seams issue 13 adds for the agent, the window and MCP: requestId on every event, a per-call
 * output budget, the declared concurrency honoured, tools added and removed at run time (with the
 * toolset digest recorded again).
 */
const open = useTestGate();

function echoTool(name: string, concurrency: 'parallel-safe' | 'exclusive', body: (ctx: { signal: AbortSignal }) => Promise<string>): AnyTool {
  // defineTool is for built-in declarations (family.action); an MCP adapter builds its tools itself.
  const declare = name.startsWith('mcp.') ? (spec: AnyTool) => Object.freeze(spec) : defineTool;
  return declare({
    name,
    description: text('시험', 'test'),
    keywords: [],
    input: Type.Object({}, { additionalProperties: false }),
    risk: 'read',
    subject: null,
    concurrency,
    capabilities: [],
    summarize: () => text('시험', 'test'),
    execute: async (_args, ctx) => ok(await body(ctx)),
  });
}

describe('CallRequest', () => {
  it('carries the requestId of the user request onto every event of the call', async () => {
    const g = await open({ files: { 'a.txt': 'x' } });
    await g.call('filesystem.read', { path: 'a.txt' });
    const r = await g.session.gate.call({ tool: 'filesystem.read', args: { path: 'a.txt' }, requestId: 'req-42' });
    const events = (await g.auditEvents()).filter((e) => e.callId === r.callId);
    expect(events.length).toBeGreaterThan(2);
    expect(events.every((e) => e.requestId === 'req-42')).toBe(true);
  });

  it('cuts the result to the caller\'s output budget, marker after the cut', async () => {
    const g = await open({ files: { 'big.txt': 'line of text\n'.repeat(2000) } });
    const r = await g.session.gate.call({ tool: 'filesystem.read', args: { path: 'big.txt' }, outputBudget: 500 });
    expect(r.outcome).toBe('ok');
    expect(r.text.length).toBeLessThan(700);
    expect(r.text).toMatch(/output truncated: showing the first 500 of \d+ characters/);
  });
});

describe('concurrency', () => {
  it('parallel-safe calls overlap; an exclusive call waits until they are done', async () => {
    const log: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let bothIn!: () => void;
    const bothStarted = new Promise<void>((resolve) => (bothIn = resolve));
    let inside = 0;
    const reader = echoTool('test.reader', 'parallel-safe', async () => {
      log.push('read+');
      if (++inside === 2) bothIn();
      await released;
      log.push('read-');
      return 'read';
    });
    const writer = echoTool('test.writer', 'exclusive', async () => {
      log.push('write');
      return 'wrote';
    });
    const g = await open({ tools: [reader, writer] });
    const a = g.call('test.reader', {});
    const b = g.call('test.reader', {});
    await bothStarted; // would never settle if the two reads could not run together
    const w = g.call('test.writer', {});
    release();
    await Promise.all([a, b, w]);
    expect(log).toEqual(['read+', 'read+', 'read-', 'read-', 'write']);
  });
});

describe('a registry that changes while the session runs', () => {
  it('adds an mcp.<server>.<tool> with its source, records the new toolset digest, and removes it', async () => {
    const g = await open();
    const before = g.session.gate.toolsetDigest;
    const external = echoTool('mcp.intranet.lookup', 'parallel-safe', async () => 'from the server');
    await g.session.gate.addTool(external, 'mcp:intranet');
    expect(g.session.gate.toolsetDigest).not.toBe(before);
    expect(g.session.gate.tools().map((t) => t.name)).toContain('mcp.intranet.lookup');
    const r = await g.call('mcp.intranet.lookup', {});
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe('from the server');
    expect(await g.session.gate.removeTool('mcp.intranet.lookup')).toBe(true);
    expect((await g.call('mcp.intranet.lookup', {})).outcome).toBe('denied');
    const changes = (await g.auditEvents()).filter((e) => e.type === 'toolset.changed');
    expect(changes.map((e) => e.data)).toMatchObject([
      { added: 'mcp.intranet.lookup', source: 'mcp:intranet', toolsetDigest: expect.not.stringMatching(before) },
      { removed: 'mcp.intranet.lookup', source: 'mcp:intranet', toolsetDigest: before },
    ]);
  });

  it('refuses an external tool whose name is not mcp.<its server>.<tool>', async () => {
    const g = await open();
    await expect(g.session.gate.addTool(echoTool('filesystem.sneaky', 'exclusive', async () => ''), 'mcp:intranet')).rejects.toThrow(/must be named mcp\.intranet\./);
    await expect(g.session.gate.addTool(echoTool('mcp.other.tool', 'exclusive', async () => ''), 'mcp:intranet')).rejects.toThrow(/must be named mcp\.intranet\./);
    await expect(g.session.gate.addTool(echoTool('filesystem.read', 'exclusive', async () => ''), 'builtin')).rejects.toThrow(/Duplicate/);
  });
});
