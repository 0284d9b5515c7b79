import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { evaluatePermission, mergePolicies, parsePolicyText, parseUserSettings } from '../../../electron/main/policy';
import type { EffectivePolicy, Policy, ToolRisk, UserSettings } from '../../../electron/main/policy/types';
import { commandQuery, effectiveFrom, pathQuery, rules, tempWorld, type TempWorld, inEnglish } from './fixtures';

/**
 * SPEC §8 / issue 14 class 2: each decision is the stricter of the admin policy alone and the
 * merged one; session grants lift an ask and nothing else; an ask rule that could only widen is
 * refused at merge with its JSON path.
 */

let world: TempWorld;
beforeAll(async () => {
  world = await tempWorld();
  await writeFile(path.join(world.ws, 'a.txt'), 'a');
});
afterAll(() => world.cleanup());

const TOOLS: ToolRisk[] = [
  { name: 'filesystem.read', risk: 'read' },
  { name: 'filesystem.write', risk: 'write' },
  { name: 'filesystem.move', risk: 'write' },
  { name: 'filesystem.delete', risk: 'destructive' },
  { name: 'shell.execute', risk: 'execute' },
  { name: 'http.request', risk: 'network' },
];

function admin(fields: Record<string, unknown>): Policy {
  const r = parsePolicyText(JSON.stringify({ version: 1, ...fields }), world.home, { platform: process.platform });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.value;
}

function settings(value: Record<string, unknown>): UserSettings {
  const r = parseUserSettings(JSON.stringify(value), world.home);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.value;
}

describe('evaluation: the stricter of the admin policy alone and the merged one', () => {
  it('a user ask rule does not lift an admin default deny (without tools the merge cannot refuse it)', async () => {
    const eff = effectiveFrom({ defaults: { write: 'deny', execute: 'deny' } }, { user: { rules: { ask: ['filesystem.write', 'shell.execute'] } } });
    const write = await evaluatePermission(eff, pathQuery('filesystem.write', ['a.txt'], 'write'), world.env());
    expect([write.decision, write.rule, write.source]).toEqual(['deny', 'defaults.write', 'admin']);
    expect(write.reason?.en).toMatch(/denies write tools/);
    const shell = await evaluatePermission(eff, commandQuery(['rm', '-rf', '/']), world.env());
    expect([shell.decision, shell.rule, shell.source]).toEqual(['deny', 'defaults.execute', 'admin']);
  });

  it('an ask rule matching one end of a move does not lift the default deny for the other end', async () => {
    const eff = effectiveFrom({ defaults: { write: 'deny' }, rules: { allow: ['filesystem.move(notes/**)'] } }, { user: { rules: { ask: ['filesystem.move(notes/**)'] } } });
    const out = await evaluatePermission(eff, pathQuery('filesystem.move', ['notes/a.txt', 'public/a.txt'], 'write'), world.env());
    expect([out.decision, out.rule]).toEqual(['deny', 'defaults.write']);
    const inside = await evaluatePermission(eff, pathQuery('filesystem.move', ['notes/a.txt', 'notes/b.txt'], 'write'), world.env());
    expect([inside.decision, inside.rule, inside.source]).toEqual(['ask', 'filesystem.move(notes/**)', 'user']);
  });

  it('tightening still works: a user ask over an admin allow asks, a user deny denies', async () => {
    const eff = effectiveFrom(rules(['filesystem.read', 'shell.execute(git status:*)']), { user: { rules: { ask: ['filesystem.read'], deny: ['shell.execute(git:*)'] } } });
    const read = await evaluatePermission(eff, pathQuery('filesystem.read', ['a.txt']), world.env());
    expect([read.decision, read.source]).toEqual(['ask', 'user']);
    const git = await evaluatePermission(eff, commandQuery(['git', 'status']), world.env());
    expect([git.decision, git.source]).toEqual(['deny', 'user']);
  });

  it('an effective policy built without mergePolicies still cannot widen (user rules are set aside for the admin view)', async () => {
    const merged = effectiveFrom({ defaults: { write: 'deny' } }, { user: { rules: { ask: ['filesystem.write'] } } });
    const { adminOnly: _dropped, ...handBuilt } = merged;
    const v = await evaluatePermission(handBuilt as EffectivePolicy, pathQuery('filesystem.write', ['a.txt'], 'write'), world.env());
    expect([v.decision, v.rule]).toEqual(['deny', 'defaults.write']);
  });
});

describe('session grants turn an ask into allow, never a deny', () => {
  it('a grant does not lift a default deny (admin or merged)', async () => {
    const target = path.join(world.ws, 'a.txt');
    const sessionGrants = [{ tool: 'filesystem.write', kind: 'PATH' as const, values: [target] }];
    const eff = effectiveFrom({ defaults: { write: 'deny' } });
    const v = await evaluatePermission(eff, pathQuery('filesystem.write', ['a.txt'], 'write', { sessionGrants }), world.env());
    expect([v.decision, v.rule]).toEqual(['deny', 'defaults.write']);
    const withUser = effectiveFrom({ defaults: { write: 'deny' } }, { user: { rules: { ask: ['filesystem.write'] } } });
    const u = await evaluatePermission(withUser, pathQuery('filesystem.write', ['a.txt'], 'write', { sessionGrants }), world.env());
    expect(u.decision).toBe('deny');
  });

  it('a grant lifts an ask that the user added on top of an admin allow, and an admin ask', async () => {
    const target = path.join(world.ws, 'a.txt');
    const sessionGrants = [{ tool: 'filesystem.read', kind: 'PATH' as const, values: [target] }];
    const userAsk = effectiveFrom(rules(['filesystem.read']), { user: { rules: { ask: ['filesystem.read'] } } });
    const v = await evaluatePermission(userAsk, pathQuery('filesystem.read', ['a.txt'], 'read', { sessionGrants }), world.env());
    expect([v.decision, v.rule, v.source]).toEqual(['allow', 'session-grant', 'session']);
    const adminAsk = effectiveFrom({ defaults: { read: 'ask' } }, { user: {} });
    const a = await evaluatePermission(adminAsk, pathQuery('filesystem.read', ['a.txt'], 'read', { sessionGrants }), world.env());
    expect([a.decision, a.rule]).toEqual(['allow', 'session-grant']);
  });
});

describe('mergePolicies refuses an ask rule that could only widen, at its JSON path', () => {
  const refused = (a: Policy, u: UserSettings) => {
    const r = mergePolicies(a, 'admin', u, process.platform, TOOLS);
    if (r.ok) throw new Error('expected the merge to be refused');
    return inEnglish(r.problems);
  };
  const accepted = (a: Policy, u: UserSettings) => {
    const r = mergePolicies(a, 'admin', u, process.platform, TOOLS);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    return r.value;
  };

  it('an exact tool and a family that tightens none of its tools, each with its path and what to do', () => {
    const a = admin({ defaults: { read: 'deny', write: 'deny', destructive: 'deny', execute: 'deny' }, rules: { deny: ['filesystem.delete'] } });
    const problems = refused(a, settings({ rules: { deny: ['http.*'], ask: ['http.request', 'shell.execute(git:*)', 'filesystem.*'] } }));
    expect(problems.map((p) => p.path)).toEqual(['$.rules.ask[1]', '$.rules.ask[2]']);
    expect(problems[0]!.message).toMatch(/shell\.execute.*defaults\.execute is 'deny'.*remove this rule or move it to rules\.deny/);
    // filesystem.delete is denied by name (the ask is inert there); the others would widen.
    expect(problems[1]!.message).toMatch(/filesystem\.read, filesystem\.write, filesystem\.move run once approved/);
    expect(problems[1]!.message).not.toMatch(/filesystem\.delete/);
  });

  it("a family rule that tightens some of its tools is accepted ('ask me before any file tool'), and evaluation keeps the denied ones denied", async () => {
    const eff = accepted(admin({ defaults: { write: 'deny' } }), settings({ rules: { ask: ['filesystem.*', '*'] } }));
    const read = await evaluatePermission(eff, pathQuery('filesystem.read', ['a.txt']), world.env());
    expect([read.decision, read.source]).toEqual(['ask', 'user']);
    const write = await evaluatePermission(eff, pathQuery('filesystem.write', ['a.txt'], 'write'), world.env());
    expect([write.decision, write.rule, write.source]).toEqual(['deny', 'defaults.write', 'admin']);
  });

  it('not a widening: the admin allows or asks for the same pattern, or denies the tool by name, or its default is not deny', () => {
    const a = admin({ defaults: { write: 'deny', execute: 'deny' }, rules: { allow: ['shell.execute(git status:*)'], ask: ['filesystem.move'], deny: ['filesystem.write'] } });
    const eff = accepted(a, settings({ rules: { ask: ['shell.execute(git status:*)', 'filesystem.move(notes/**)', 'filesystem.write(x/**)', 'filesystem.read', 'http.request'] } }));
    expect(eff.adminOnly?.rules.ask).toEqual([{ text: 'filesystem.move', source: 'admin' }]);
  });

  it('without the tool list (a settings check on its own) the merge accepts and evaluation holds the line', () => {
    const r = mergePolicies(admin({ defaults: { write: 'deny' } }), 'admin', settings({ rules: { ask: ['filesystem.write'] } }), process.platform);
    expect(r.ok).toBe(true);
  });

  it('with no user settings there is no separate admin view', () => {
    expect(accepted(admin({}), undefined as unknown as UserSettings).adminOnly).toBeUndefined();
  });
});
