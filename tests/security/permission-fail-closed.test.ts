import { describe, expect, it } from 'vitest';
import { evaluatePermission } from '../../electron/main/policy';
import type { EffectivePolicy, PermissionQuery } from '../../electron/main/policy/types';
import { effectiveFrom, fakeEnv, pathQuery, rules } from '../unit/policy/fixtures';

const env = fakeEnv('linux', ['/nonexistent-ws'], '/nonexistent-home');

describe('fail closed', () => {
  it('a rule that does not parse (built in code, bypassing the loader) denies every call of any tool', async () => {
    const base = effectiveFrom({});
    const eff: EffectivePolicy = { ...base, rules: { ...base.rules, allow: [{ text: 'filesystem.read(unclosed', source: 'admin' }] } };
    const v = await evaluatePermission(eff, pathQuery('filesystem.read', ['a.txt']), env);
    expect([v.decision, v.rule, v.source]).toEqual(['deny', 'filesystem.read(unclosed', 'admin']);
    expect(v.reason?.en).toMatch(/cannot be applied/);
  });

  it('a NUL byte in a path pattern (refused at load, so built in code here) denies', async () => {
    const base = effectiveFrom({});
    const eff: EffectivePolicy = { ...base, rules: { ...base.rules, allow: [{ text: 'filesystem.read(a\u0000b)', source: 'user' }] } };
    const v = await evaluatePermission(eff, pathQuery('filesystem.read', ['a.txt']), env);
    expect([v.decision, v.source]).toEqual(['deny', 'user']);
  });

  it('an uninterpretable ALLOW rule denies even though the call would otherwise be allowed by default', async () => {
    const v = await evaluatePermission(effectiveFrom(rules(['shell.execute(a:*b)'])), { tool: 'shell.execute', known: true, risk: 'execute', subject: { kind: 'COMMAND', values: ['ls'] } }, env);
    expect([v.decision, v.rule]).toEqual(['deny', 'shell.execute(a:*b)']);
  });

  const empties: PermissionQuery[] = [
    { tool: 'filesystem.read', known: true, risk: 'read', subject: { kind: 'PATH', values: [] } },
    { tool: 'http.request', known: true, risk: 'network', subject: { kind: 'URL', values: [] } },
    { tool: 'ssh.execute', known: true, risk: 'execute', subject: { kind: 'HOST', values: ['  '] } },
    { tool: 'shell.execute', known: true, risk: 'execute', subject: { kind: 'COMMAND', values: ['', ''] } },
  ];
  for (const q of empties) {
    it(`an empty ${q.subject?.kind} subject with a pattern rule configured denies; without one the default applies`, async () => {
      const withPattern = effectiveFrom(rules([], [], [`${q.tool}(x)`]));
      const v = await evaluatePermission(withPattern, q, env);
      expect([v.decision, v.rule]).toEqual(['deny', `${q.tool}(x)`]);
      expect(v.reason?.en).toMatch(/no target/);
      expect((await evaluatePermission(effectiveFrom({}), q, env)).rule).toBe(`defaults.${q.risk}`);
    });
  }

  it('an exception inside evaluation denies with rule evaluation-error', async () => {
    const base = effectiveFrom({});
    const broken = {
      ...base,
      rules: {
        ...base.rules,
        get deny(): never {
          throw new Error('boom');
        },
      },
    } as EffectivePolicy;
    const v = await evaluatePermission(broken, pathQuery('filesystem.read', ['a.txt']), env);
    expect([v.decision, v.rule, v.source]).toEqual(['deny', 'evaluation-error', 'builtin']);
    expect(v.error).toMatch(/boom/);
    expect(v.reason?.en).toMatch(/blocked/);
    expect(v.reason?.ko).toBeTruthy();
  });

  it('a policy without a default for the risk denies instead of deciding nothing', async () => {
    const base = effectiveFrom({});
    const eff = { ...base, policy: { ...base.policy, defaults: {} } } as unknown as EffectivePolicy;
    const v = await evaluatePermission(eff, { tool: 'system.info', known: true, risk: 'read', subject: null }, env);
    expect([v.decision, v.rule]).toEqual(['deny', 'evaluation-error']);
  });

  it('a default of deny carries a signposted reason', async () => {
    const v = await evaluatePermission(effectiveFrom({ defaults: { network: 'deny' } }), { tool: 'http.request', known: true, risk: 'network', subject: null }, env);
    expect([v.decision, v.rule, v.source]).toEqual(['deny', 'defaults.network', 'admin']);
    expect(v.reason?.en).toMatch(/read-only tool/);
  });
});
