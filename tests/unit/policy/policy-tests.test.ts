import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { mergePolicies, parsePolicyText, runPolicyTests, type SubjectOf } from '../../../electron/main/policy';
import type { EffectivePolicy } from '../../../electron/main/policy/types';
import { permissionSubjectOf } from '../../../electron/main/gate';
import { inEnglish, tempWorld, type TempWorld } from './fixtures';

/** A small stand-in for the gate's registry: which field is the subject, and the risk. */
const subjectOf: SubjectOf = (tool, args) => {
  const str = (v: unknown) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  switch (tool) {
    case 'shell.execute':
      return { known: true, risk: 'execute', subject: { kind: 'COMMAND', values: [[...str(args['command']), ...str(args['args'])].join(' ')] } };
    case 'filesystem.read':
      return { known: true, risk: 'read', subject: { kind: 'PATH', values: str(args['path']) } };
    case 'filesystem.write':
      return { known: true, risk: 'write', subject: { kind: 'PATH', values: str(args['path']) } };
    case 'http.request':
      return { known: true, risk: 'network', subject: { kind: 'URL', values: str(args['url']) } };
    case 'system.info':
      return { known: true, risk: 'read', subject: null };
    default:
      return { known: false, risk: 'execute', subject: null };
  }
};

let world: TempWorld;
beforeAll(async () => {
  world = await tempWorld();
});
afterAll(() => world.cleanup());

function effective(text: string): EffectivePolicy {
  const loaded = parsePolicyText(text, world.home);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
  const merged = mergePolicies(loaded.value, 'admin');
  if (!merged.ok) throw new Error(JSON.stringify(merged.problems));
  return merged.value;
}

describe('runPolicyTests', () => {
  it('passing examples give no problems', async () => {
    const eff = effective(`{"version": 1, "rules": {"allow": ["shell.execute(git status:*)"]},
      "tests": [
        {"tool": "shell.execute", "args": {"command": "git", "args": ["status"]}, "expect": "allow"},
        {"tool": "system.info", "expect": "allow"},
        {"tool": "no.such", "args": {}, "expect": "deny"}
      ]}`);
    expect((await runPolicyTests(eff, world.env(), subjectOf)).problems).toEqual([]);
  });

  it('a failing example is a problem at $.tests[i] naming expected, actual and the deciding rule', async () => {
    const eff = effective(`{"version": 1, "rules": {"allow": ["shell.execute(git status:*)"], "deny": ["filesystem.read(**/*.key)"]},
      "tests": [
        {"tool": "shell.execute", "args": {"command": "git", "args": ["status"]}, "expect": "allow"},
        {"tool": "shell.execute", "args": {"command": "git", "args": ["push"]}, "expect": "allow"},
        {"tool": "filesystem.read", "args": {"path": "a.key"}, "expect": "ask"}
      ]}`);
    expect(inEnglish((await runPolicyTests(eff, world.env(), subjectOf)).problems)).toEqual([
      {
        path: '$.tests[1]',
        message: 'Expected \'allow\' for shell.execute {"command":"git","args":["push"]}, but the policy decides \'ask\' by rule \'defaults.execute\' (builtin).',
      },
      { path: '$.tests[2]', message: expect.stringMatching(/^Expected 'ask' for filesystem.read .* decides 'deny' by rule 'filesystem.read\(\*\*\/\*.key\)' \(admin\)\.$/) },
    ]);
  });
});

describe('resources/default-policy.jsonc', () => {
  const text = readFileSync(new URL('../../../resources/default-policy.jsonc', import.meta.url), 'utf8');

  it('loads cleanly, comments and all', () => {
    const loaded = parsePolicyText(text, '/home/kim', { platform: 'linux' });
    expect(loaded.ok ? [] : loaded.problems).toEqual([]);
    expect(text).toMatch(/^\/\/ /);
  });

  it('its own examples pass against the real tool registry', async () => {
    const eff = effective(text);
    expect(eff.policy.tests.length).toBeGreaterThan(5);
    expect((await runPolicyTests(eff, world.env(), (tool, args) => permissionSubjectOf(tool, args))).problems).toEqual([]);
  });
});
