import { describe, expect, it } from 'vitest';
import { inEnglish } from './fixtures';
import { createHash } from 'node:crypto';
import { mergePolicies, parsePolicyText, parseUserSettings } from '../../../electron/main/policy';
import { canonicalJson } from '../../../electron/common/canonical-json';
import type { Policy, UserSettings } from '../../../electron/main/policy/types';

const HOME = '/home/kim';

function admin(fields: Record<string, unknown> = {}): Policy {
  const r = parsePolicyText(JSON.stringify({ version: 1, workspaceRoots: ['~/Documents/Baram'], ...fields }), HOME, { platform: 'linux' });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.value;
}

function user(text: string): UserSettings {
  const r = parseUserSettings(text, HOME, { platform: 'linux' });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.value;
}

function mergeProblems(a: Policy, u: UserSettings): { path: string; message: string }[] {
  const r = mergePolicies(a, 'admin', u, 'linux');
  if (r.ok) throw new Error('expected the merge to be refused');
  return inEnglish(r.problems);
}

describe('mergePolicies: tighten only', () => {
  it('adds user deny/ask rules with source user, drops allows, keeps admin sources', () => {
    const a = admin({ defaults: { write: 'ask' }, rules: { allow: ['filesystem.read', 'shell.execute(git:*)'], ask: ['filesystem.write'], deny: ['x.y'] } });
    const u = user('{ "rules": { "deny": ["http.*"], "ask": ["filesystem.read"], "dropAllow": ["shell.execute(git:*)", "not.there"] } }');
    const r = mergePolicies(a, 'admin', u, 'linux');
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.value.rules.allow).toEqual([{ text: 'filesystem.read', source: 'admin' }]);
    expect(r.value.rules.ask).toEqual([{ text: 'filesystem.write', source: 'admin' }, { text: 'filesystem.read', source: 'user' }]);
    expect(r.value.rules.deny).toEqual([{ text: 'x.y', source: 'admin' }, { text: 'http.*', source: 'user' }]);
    expect(r.value.policy.rules).toEqual({ allow: ['filesystem.read'], ask: ['filesystem.write', 'filesystem.read'], deny: ['x.y', 'http.*'] });
    // Only write was written in the admin file; the rest came from the built-in defaults.
    expect(r.value.defaultSources).toEqual({ read: 'builtin', write: 'admin', destructive: 'builtin', execute: 'builtin', network: 'builtin' });
  });

  it('stricter user defaults and narrower roots apply', () => {
    const u = user('{ "defaults": { "read": "ask", "write": "deny", "execute": "ask" }, "workspaceRoots": ["~/Documents/Baram/team"] }');
    const r = mergePolicies(admin(), 'admin', u, 'linux');
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.value.policy.defaults).toEqual({ read: 'ask', write: 'deny', destructive: 'ask', execute: 'ask', network: 'ask' });
    // execute: the user's 'ask' equals the default, so the decision still comes from there.
    expect(r.value.defaultSources).toMatchObject({ read: 'user', write: 'user', execute: 'builtin' });
    expect(r.value.policy.workspaceRoots).toEqual(['/home/kim/Documents/Baram/team']);
  });

  it('rejects every widening attempt, each with its JSON path', () => {
    const a = admin({ defaults: { read: 'ask', write: 'deny', network: 'deny' } });
    const u = user('{ "defaults": { "read": "allow", "write": "ask", "network": "allow" }, "workspaceRoots": ["~/Documents/Baram/ok", "~/Documents", "/", "~/Documents/Baram2"] }');
    expect(mergeProblems(a, u)).toEqual([
      { path: '$.defaults.read', message: "User settings may only make defaults stricter: the administrator's policy sets 'ask' for read tools, so write 'ask' or 'deny', or remove this line." },
      { path: '$.defaults.write', message: expect.stringMatching(/sets 'deny' for write tools, so write 'deny'/) },
      { path: '$.defaults.network', message: expect.stringMatching(/sets 'deny'/) },
      { path: '$.workspaceRoots[1]', message: expect.stringMatching(/^'\/home\/kim\/Documents' is not inside the administrator's workspace folders \(\/home\/kim\/Documents\/Baram\)/) },
      { path: '$.workspaceRoots[2]', message: expect.stringMatching(/not inside/) },
      { path: '$.workspaceRoots[3]', message: expect.stringMatching(/not inside/) },
    ]);
  });

  it('a root written with .. that climbs out is caught after normalisation', () => {
    expect(mergeProblems(admin(), user('{ "workspaceRoots": ["~/Documents/Baram/../../.ssh"] }'))[0]?.path).toBe('$.workspaceRoots[0]');
  });

  it('cannot choose roots when the admin names none', () => {
    const a = admin({ workspaceRoots: [] });
    expect(mergeProblems(a, { workspaceRoots: ['/home/kim/x'] })[0]?.message).toMatch(/names no workspace folders/);
  });

  it('user settings built in code are checked for rule syntax too', () => {
    expect(mergeProblems(admin(), { rules: { deny: ['bad rule('] } })).toEqual([{ path: '$.rules.deny[0]', message: expect.stringMatching(/not a tool name/) }]);
  });

  it('the digest is SHA-256 of the canonical effective policy and changes with any rule', () => {
    const r = mergePolicies(admin(), 'admin', undefined, 'linux');
    const r2 = mergePolicies(admin(), 'admin', { rules: { deny: ['system.info'] } }, 'linux');
    if (!r.ok || !r2.ok) throw new Error('merge failed');
    expect(r.value.digest).toBe(createHash('sha256').update(canonicalJson(r.value.policy)).digest('hex'));
    expect(r.value.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(r2.value.digest).not.toBe(r.value.digest);
  });

  it('with no admin file every source is builtin', () => {
    const r = mergePolicies(admin({ defaults: { read: 'allow' } }), 'builtin', undefined, 'linux');
    expect(r.ok && Object.values(r.value.defaultSources)).toEqual(['builtin', 'builtin', 'builtin', 'builtin', 'builtin']);
  });
});

describe('parseUserSettings', () => {
  function problems(text: string): { path: string; message: string }[] {
    const r = parseUserSettings(text, HOME, { platform: 'linux' });
    if (r.ok) throw new Error('expected problems');
    return inEnglish(r.problems);
  }

  it('explains that allow rules and admin sections are not for user settings', () => {
    expect(problems('{ "rules": { "allow": ["filesystem.write"] } }')).toEqual([
      { path: '$.rules.allow', message: expect.stringMatching(/^User settings cannot add allow rules; only the administrator's policy can\. Use 'ask' or 'deny'/) },
    ]);
    expect(problems('{ "shell": { "commands": { "rm": {} } } }')[0]).toEqual({
      path: '$.shell',
      message: "'shell' can only be set in the administrator's policy. User settings may set workspaceRoots, defaults, rules (ask, deny, dropAllow) and model.",
    });
    expect(problems('{ "rules": { "dropAlow": [] } }')[0]?.message).toBe("Unknown field 'dropAlow'. Did you mean 'dropAllow'?");
  });

  it('reports syntax, enum and rule problems with paths; accepts JSONC', () => {
    expect(problems('{ "defaults": { "read": "sometimes" } }')[0]?.path).toBe('$.defaults.read');
    expect(problems('{ "rules": { "deny": ["ok", "bad("] } }')[0]?.path).toBe('$.rules.deny[1]');
    expect(problems('{ "workspaceRoots": ["relative/dir"] }')[0]?.path).toBe('$.workspaceRoots[0]');
    expect(problems('{ // c\n "rules": }')[0]?.message).toMatch(/^Line 2, column 11: expected a value/);
    expect(user('{ // mine\n "rules": { "deny": ["http.*",], }, }')).toEqual({ rules: { ask: [], deny: ['http.*'], dropAllow: [] } });
  });
});
