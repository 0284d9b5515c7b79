import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { evaluatePermission } from '../../electron/main/policy';
import type { PermissionQuery } from '../../electron/main/policy/types';
import { commandQuery, effectiveFrom, pathQuery, rules, tempWorld, type TempWorld } from '../unit/policy/fixtures';

let world: TempWorld;
beforeAll(async () => {
  world = await tempWorld();
  await writeFile(path.join(world.ws, 'a.txt'), 'a');
});
afterAll(() => world.cleanup());

const noSubject = (tool: string, extra: Partial<PermissionQuery> = {}): PermissionQuery => ({ tool, known: true, risk: 'read', subject: null, ...extra });

describe('precedence: deny > protections > ask > allow > defaults; a session grant lifts only an ask', () => {
  // Each row adds a stronger layer on top of the previous one; the strongest must decide.
  const rows: { name: string; fields: Record<string, unknown>; grant?: boolean; expect: [string, string, string] }[] = [
    { name: 'defaults only', fields: {}, expect: ['allow', 'defaults.read', 'builtin'] },
    { name: 'admin default', fields: { defaults: { read: 'ask' } }, expect: ['ask', 'defaults.read', 'admin'] },
    { name: 'allow beats default', fields: { defaults: { read: 'deny' }, ...rules(['filesystem.read']) }, expect: ['allow', 'filesystem.read', 'admin'] },
    { name: 'ask beats allow', fields: rules(['filesystem.read'], ['filesystem.*']), expect: ['ask', 'filesystem.*', 'admin'] },
    { name: 'session grant beats ask', fields: rules(['filesystem.read'], ['filesystem.*']), grant: true, expect: ['allow', 'session-grant', 'session'] },
    { name: 'deny beats everything', fields: rules(['filesystem.read'], ['filesystem.*'], ['filesystem.read(a.txt)']), grant: true, expect: ['deny', 'filesystem.read(a.txt)', 'admin'] },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const eff = effectiveFrom(row.fields);
      const env = world.env();
      const target = path.join(world.ws, 'a.txt');
      const q = pathQuery('filesystem.read', ['a.txt'], 'read', row.grant ? { sessionGrants: [{ tool: 'filesystem.read', kind: 'PATH', values: [target] }] } : {});
      const v = await evaluatePermission(eff, q, env);
      expect([v.decision, v.rule, v.source]).toEqual(row.expect);
    });
  }

  it('a session grant never lifts a deny: not a default deny, not with a user ask rule on top (issue 14)', async () => {
    const target = path.join(world.ws, 'a.txt');
    const sessionGrants = [{ tool: 'filesystem.write', kind: 'PATH' as const, values: [target] }];
    for (const eff of [effectiveFrom({ defaults: { write: 'deny' } }), effectiveFrom({ defaults: { write: 'deny' } }, { user: { rules: { ask: ['filesystem.*'] } } })]) {
      const v = await evaluatePermission(eff, pathQuery('filesystem.write', ['a.txt'], 'write', { sessionGrants }), world.env());
      expect([v.decision, v.rule, v.source]).toEqual(['deny', 'defaults.write', 'admin']);
    }
  });

  it('built-in protections beat session grants, ask and allow, but an explicit deny is reported first', async () => {
    const secret = path.join(world.outside, 'secret.txt');
    const grant = { tool: 'filesystem.read', kind: 'PATH' as const, values: [secret] };
    const allowAll = effectiveFrom(rules(['filesystem.read', `filesystem.read(${secret})`]));
    const v = await evaluatePermission(allowAll, pathQuery('filesystem.read', [secret], 'read', { sessionGrants: [grant] }), world.env());
    expect([v.decision, v.rule, v.source]).toEqual(['deny', 'workspaceRoots', 'builtin']);

    const withDeny = effectiveFrom(rules([], [], ['filesystem.read(**/secret.txt)']));
    const d = await evaluatePermission(withDeny, pathQuery('filesystem.read', [secret]), world.env());
    expect([d.decision, d.rule]).toEqual(['deny', 'filesystem.read(**/secret.txt)']);
  });

  it('a session grant covers only the same tool and the same resolved subject', async () => {
    const eff = effectiveFrom({ defaults: { read: 'ask' } });
    const target = path.join(world.ws, 'a.txt');
    const sessionGrants = [{ tool: 'filesystem.read', kind: 'PATH' as const, values: [target] }];
    // The same file written differently is the same subject.
    expect((await evaluatePermission(eff, pathQuery('filesystem.read', ['./sub/../a.txt'], 'read', { sessionGrants }), world.env())).decision).toBe('allow');
    expect((await evaluatePermission(eff, pathQuery('filesystem.read', ['b.txt'], 'read', { sessionGrants }), world.env())).decision).toBe('ask');
    expect((await evaluatePermission(eff, pathQuery('filesystem.info', ['a.txt'], 'read', { sessionGrants }), world.env())).decision).toBe('ask');
  });

  it('a session grant for a command line does not cover a longer line', async () => {
    const eff = effectiveFrom({});
    const sessionGrants = [{ tool: 'shell.execute', kind: 'COMMAND' as const, values: ['git status'] }];
    const same = await evaluatePermission(eff, commandQuery(['git', 'status'], { sessionGrants }), world.env());
    expect([same.decision, same.source]).toEqual(['allow', 'session']);
    const longer = await evaluatePermission(eff, commandQuery(['git', 'status', '--porcelain'], { sessionGrants }), world.env());
    expect([longer.decision, longer.rule]).toEqual(['ask', 'defaults.execute']);
  });

  it('unknown tools are denied whatever the rules say, with a signpost to the tool list', async () => {
    const eff = effectiveFrom(rules(['*']));
    const v = await evaluatePermission(eff, noSubject('filesystem.raed', { known: false }), world.env());
    expect([v.decision, v.rule, v.source]).toEqual(['deny', 'unknown-tool', 'builtin']);
    expect(v.reason?.en).toMatch(/tool list/);
    expect(v.reason?.ko).toMatch(/도구 목록/);
  });

  it('user rules and defaults carry the user source', async () => {
    const eff = effectiveFrom(rules(['system.info']), { user: { rules: { deny: ['system.*'] }, defaults: { read: 'ask' } } });
    const denied = await evaluatePermission(eff, noSubject('system.info'), world.env());
    expect([denied.decision, denied.rule, denied.source]).toEqual(['deny', 'system.*', 'user']);
    const asked = await evaluatePermission(eff, noSubject('code.stats'), world.env());
    expect([asked.decision, asked.rule, asked.source]).toEqual(['ask', 'defaults.read', 'user']);
  });
});

describe('family wildcards', () => {
  const cases: [string, string, boolean][] = [
    ['filesystem.*', 'filesystem.read', true],
    ['filesystem.*', 'filesystem', false],
    ['filesystem.*', 'filesystemx.read', false],
    ['*', 'system.info', true],
    ['system.info', 'system.infox', false],
    ['git*', 'git.status', true],
  ];
  for (const [rule, tool, matches] of cases) {
    it(`${rule} ${matches ? 'covers' : 'does not cover'} ${tool}`, async () => {
      const eff = effectiveFrom(rules([], [], [rule]));
      const v = await evaluatePermission(eff, noSubject(tool), world.env());
      expect(v.decision).toBe(matches ? 'deny' : 'allow');
    });
  }

  it('a family pattern rule skips members that declare no subject, but an exact one fails closed', async () => {
    const family = effectiveFrom(rules([], [], ['filesystem.*(**/.ssh/**)']));
    expect((await evaluatePermission(family, noSubject('filesystem.restore', { risk: 'write' }), world.env())).rule).toBe('defaults.write');
    const exact = effectiveFrom(rules(['filesystem.restore(x)']));
    const v = await evaluatePermission(exact, noSubject('filesystem.restore', { risk: 'write' }), world.env());
    expect([v.decision, v.rule]).toEqual(['deny', 'filesystem.restore(x)']);
    expect(v.reason?.en).toMatch(/cannot be applied/);
  });
});
