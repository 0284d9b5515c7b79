import { describe, expect, it } from 'vitest';
import { text } from '../../electron/common/i18n';
import { ExternalSchemaRefused } from '../../electron/main/gate/registry';
import type { AnyTool } from '../../tools/kit/define-tool';
import { ok } from '../../tools/kit/results';
import { useTestGate } from '../helpers/gate-harness';

/**
 * SPEC X-SCHEMA through the real gate (real policy, real audit file): a server's tool whose schema
 * breaks a rule is refused alone, with the rule named; its siblings from the same server register
 * and run. An admitted pattern that backtracks in JavaScript's RegExp is evaluated on RE2 when a
 * call sends far more than maxLength allows (external tools validate in WARN mode, so the call
 * still runs and the violation is audited).
 */
const open = useTestGate();

function mcpTool(name: string, input: Record<string, unknown>): AnyTool {
  return Object.freeze({
    name,
    description: text('외부 도구', 'external tool'),
    keywords: [],
    input,
    risk: 'read',
    subject: null,
    concurrency: 'parallel-safe',
    capabilities: [],
    summarize: () => text('외부 도구', 'external tool'),
    execute: async () => ok(`ran ${name}`),
  }) as unknown as AnyTool;
}

const lookup = { type: 'object', properties: { id: { type: 'string', maxLength: 32, pattern: '^[A-Z]{2}-[0-9]+$' } }, required: ['id'] };
const hanging = { type: 'object', properties: { q: { type: 'string', maxLength: 256, pattern: '(x+x+)+y' } } };
// Admitted by the shape rules (two unbounded quantifiers), yet exponential for a backtracking engine.
const overlapping = { type: 'object', properties: { code: { type: 'string', maxLength: 64, pattern: '^(\\w|\\d)*z$' } } };

describe('an MCP server with one bad schema', () => {
  it('refuses only that tool, naming the rule and the JSON path; the others register and run', async () => {
    const g = await open();
    await g.session.gate.addTool(mcpTool('mcp.intranet.lookup', lookup), 'mcp:intranet');
    const refused = g.session.gate.addTool(mcpTool('mcp.intranet.search', hanging), 'mcp:intranet');
    await expect(refused).rejects.toBeInstanceOf(ExternalSchemaRefused);
    await expect(refused).rejects.toMatchObject({
      toolName: 'mcp.intranet.search',
      violations: [{ rule: 'nested-unbounded-repeat', path: '/properties/q/pattern', message: expect.stringMatching(/^\[nested-unbounded-repeat\] /) }],
    });
    await g.session.gate.addTool(mcpTool('mcp.intranet.count', overlapping), 'mcp:intranet');

    const names = g.session.gate.tools().map((t) => t.name);
    expect(names).toContain('mcp.intranet.lookup');
    expect(names).toContain('mcp.intranet.count');
    expect(names).not.toContain('mcp.intranet.search');
    expect((await g.call('mcp.intranet.lookup', { id: 'KR-2026' })).outcome).toBe('ok');
    expect((await g.call('mcp.intranet.search', { q: 'x' })).outcome).toBe('denied');
    const changes = (await g.auditEvents()).filter((e) => e.type === 'toolset.changed').map((e) => (e.data as { added?: string }).added);
    expect(changes).toEqual(['mcp.intranet.lookup', 'mcp.intranet.count']);
  });

  it('evaluates an admitted pattern on RE2: 5000 characters against ^(\\w|\\d)*z$ come back as a WARN violation', async () => {
    const g = await open();
    await g.session.gate.addTool(mcpTool('mcp.intranet.count', overlapping), 'mcp:intranet');
    // JavaScript's RegExp needs about 2^n steps here (each digit matches both branches); at 5000
    // characters it would never return. RE2 answers in one pass.
    // The 'z' is there so that no engine can answer by noticing it is missing; '!' still fails '$'.
    const r = await g.call('mcp.intranet.count', { code: `${'1'.repeat(5000)}z!` });
    expect(r.outcome).toBe('ok');
    const violations = (await g.auditEvents()).filter((e) => e.type === 'schema.violation');
    expect(violations).toHaveLength(1);
    const recorded = (violations[0]?.data as { mode: string; violations: { keyword: string }[] }) ?? { mode: '', violations: [] };
    expect(recorded.mode).toBe('warn');
    expect(recorded.violations.map((v) => v.keyword).sort()).toEqual(['maxLength', 'pattern']);
  });
});
