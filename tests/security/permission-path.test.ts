import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { evaluatePermission } from '../../electron/main/policy';
import type { PermissionEnv } from '../../electron/main/policy/types';
import { effectiveFrom, pathQuery, rules, tempWorld, type TempWorld } from '../unit/policy/fixtures';

let world: TempWorld;
let env: PermissionEnv;
beforeAll(async () => {
  world = await tempWorld();
  env = world.env();
  await writeFile(path.join(world.ws, 'a.txt'), 'a');
  await writeFile(path.join(world.outside, 'secret.txt'), 's');
  await mkdir(path.join(world.ws, 'real-docs'));
  await writeFile(path.join(world.ws, 'real-docs', 'd.txt'), 'd');
  await mkdir(path.join(world.ws, '.ssh'));
  await writeFile(path.join(world.ws, '.ssh', 'id_rsa'), 'k');
  // Links inside the workspace: to a folder outside, to a file outside, dangling to outside, inside-to-inside.
  await symlink(world.outside, path.join(world.ws, 'escape'));
  await symlink(path.join(world.outside, 'secret.txt'), path.join(world.ws, 'innocent.txt'));
  await symlink(path.join(world.outside, 'not-yet'), path.join(world.ws, 'dangling'));
  await symlink(path.join(world.ws, 'real-docs'), path.join(world.ws, 'docs'));
  await symlink(path.join(world.ws, 'loop-b'), path.join(world.ws, 'loop-a'));
  await symlink(path.join(world.ws, 'loop-a'), path.join(world.ws, 'loop-b'));
});
afterAll(() => world.cleanup());

const open = effectiveFrom({});

async function read(values: string[], eff = open, e = env) {
  return evaluatePermission(eff, pathQuery('filesystem.read', values), e);
}
async function write(values: string[], eff = open, e = env) {
  return evaluatePermission(eff, pathQuery('filesystem.write', values, 'write'), e);
}

describe('PATH: workspace confinement (both lexical and real forms)', () => {
  it('allows a relative path inside the workspace and records its absolute form', async () => {
    const v = await read(['a.txt']);
    expect([v.decision, v.rule]).toEqual(['allow', 'defaults.read']);
    expect(v.resolved).toEqual([path.join(world.ws, 'a.txt')]);
  });

  for (const escape of ['../outside/secret.txt', 'sub/../../outside/secret.txt', './../outside', '..']) {
    it(`denies the ../ escape '${escape}' with a signpost`, async () => {
      const v = await read([escape]);
      expect([v.decision, v.rule, v.source]).toEqual(['deny', 'workspaceRoots', 'builtin']);
      expect(v.reason?.en).toMatch(/relative path inside the workspace/);
      expect(v.reason?.en).toMatch(/filesystem\.list/);
      expect(v.reason?.ko).toMatch(/작업 공간/);
    });
  }

  it('denies an absolute path outside every root, and a sibling whose name merely starts with the root', async () => {
    expect((await read(['/etc/passwd'])).rule).toBe('workspaceRoots');
    expect((await read([`${world.ws}2/x`])).rule).toBe('workspaceRoots');
  });

  it('denies a symlink inside the workspace that leads outside, though its lexical form is inside', async () => {
    for (const p of ['escape/secret.txt', 'innocent.txt', 'escape']) {
      const v = await read([p]);
      expect([v.decision, v.rule], p).toEqual(['deny', 'workspaceRoots']);
      expect(v.reason?.en).toMatch(/through a link/);
    }
    expect((await read(['innocent.txt'])).resolved).toEqual([path.join(world.ws, 'innocent.txt'), path.join(world.outside, 'secret.txt')]);
  });

  it('denies writing through a dangling symlink whose target would be created outside', async () => {
    const v = await write(['dangling']);
    expect([v.decision, v.rule]).toEqual(['deny', 'workspaceRoots']);
    expect(v.resolved).toContain(path.join(world.outside, 'not-yet'));
    expect((await write(['dangling/deeper.txt'])).rule).toBe('workspaceRoots');
  });

  it('a new file in an existing folder keeps its tail after the realpath of the prefix', async () => {
    const v = await write(['docs/new/file.txt']);
    expect(v.decision).toBe('ask');
    expect(v.resolved).toEqual([path.join(world.ws, 'docs', 'new', 'file.txt'), path.join(world.ws, 'real-docs', 'new', 'file.txt')]);
  });

  it('~ tricks: ~ is the home (outside), ~/../.. folds to /, ~ inside the workspace is fine', async () => {
    expect((await read(['~'])).rule).toBe('workspaceRoots');
    expect((await read(['~/../..'])).rule).toBe('workspaceRoots');
    expect((await read(['~/../ws/../outside/secret.txt'])).rule).toBe('workspaceRoots');
    expect((await read(['~/ws/a.txt'], open, { ...env, home: world.base })).decision).toBe('allow');
    // `~user` is not a home: it is a file name relative to the workspace.
    expect((await read(['~other/a.txt'])).resolved).toEqual([path.join(world.ws, '~other', 'a.txt')]);
  });

  it('denies NUL bytes and empty paths', async () => {
    for (const bad of ['a\u0000.txt', '', '\u0000']) {
      const v = await read([bad]);
      expect([v.decision, v.rule], JSON.stringify(bad)).toEqual(['deny', 'invalid-path']);
      expect(v.reason?.en).toMatch(/relative path inside the workspace/);
    }
  });

  it('denies every path when no workspace root is configured, saying so', async () => {
    const v = await read(['a.txt'], open, { ...env, roots: [] });
    expect([v.decision, v.rule]).toEqual(['deny', 'workspaceRoots']);
    expect(v.reason?.en).toMatch(/No workspace folder/);
  });

  it('a symlink loop is an evaluation error, which denies', async () => {
    const v = await read(['loop-a/x']);
    expect([v.decision, v.rule, v.source]).toEqual(['deny', 'evaluation-error', 'builtin']);
    expect(v.error).toMatch(/ELOOP/);
  });
});

describe('PATH: rule patterns', () => {
  it('**/.ssh/** denies anywhere, also through the family wildcard', async () => {
    const eff = effectiveFrom(rules(['filesystem.read'], [], ['filesystem.*(**/.ssh/**)']));
    for (const p of ['.ssh/id_rsa', '.ssh', 'x/../.ssh/id_rsa']) {
      const v = await read([p], eff);
      expect([v.decision, v.rule, v.source], p).toEqual(['deny', 'filesystem.*(**/.ssh/**)', 'admin']);
      expect(v.reason?.en).toMatch(/inside the workspace/);
    }
    expect((await read(['a.txt'], eff)).rule).toBe('filesystem.read');
  });

  // Windows and macOS ignore case (see permission-windows.test.ts); Linux file names are exact.
  it.skipIf(process.platform === 'win32')('case-sensitive on Linux: **/.SSH/** does not cover .ssh', async () => {
    const eff = effectiveFrom(rules([], [], ['filesystem.read(**/.SSH/**)']));
    const linux = { ...env, platform: 'linux' as const };
    expect((await read(['.ssh/id_rsa'], eff, linux)).decision).toBe('allow');
    expect((await read(['.SSH/id_rsa'], eff, linux)).decision).toBe('deny');
  });

  it('relative patterns resolve against the first root; allow needs every value and both forms', async () => {
    const eff = effectiveFrom({ defaults: { read: 'ask' }, ...rules(['filesystem.read(docs/**)', 'filesystem.write(out/**)']) });
    // docs/d.txt lexically matches docs/**, but its real form is real-docs/d.txt: not allowed.
    expect((await read(['docs/d.txt'], eff)).decision).toBe('ask');
    expect((await read(['real-docs/d.txt'], eff)).decision).toBe('ask');
    expect((await write(['out/a.txt'], eff)).rule).toBe('filesystem.write(out/**)');
    // A move is allowed only if both ends are.
    const move = await evaluatePermission(eff, pathQuery('filesystem.write', ['out/a.txt', 'elsewhere/b.txt'], 'write'), env);
    expect(move.decision).toBe('ask');
  });

  it('a deny matching either form denies', async () => {
    const eff = effectiveFrom(rules([], [], ['filesystem.read(real-docs/**)']));
    expect((await read(['docs/d.txt'], eff)).rule).toBe('filesystem.read(real-docs/**)');
    const byLexical = effectiveFrom(rules([], [], ['filesystem.read(docs/**)']));
    expect((await read(['docs/d.txt'], byLexical)).rule).toBe('filesystem.read(docs/**)');
  });

  it('a deny matching one value of several denies', async () => {
    const eff = effectiveFrom(rules([], [], ['filesystem.write(**/*.key)']));
    const v = await evaluatePermission(eff, pathQuery('filesystem.write', ['a.txt', 'sub/b.key'], 'write'), env);
    expect(v.decision).toBe('deny');
  });

  it('~ in a pattern is the home folder', async () => {
    const eff = effectiveFrom(rules([], [], ['filesystem.read(~/private/**)']));
    const v = await read(['private/x.txt'], eff, { ...env, home: world.ws });
    expect([v.decision, v.rule]).toEqual(['deny', 'filesystem.read(~/private/**)']);
  });

  it('patterns that cannot be a path are uninterpretable and deny', async () => {
    for (const pattern of ['~other/**', '!**/.ssh/**']) {
      const eff = effectiveFrom(rules([`filesystem.read(${pattern})`]));
      const v = await read(['a.txt'], eff);
      expect([v.decision, v.rule], pattern).toEqual(['deny', `filesystem.read(${pattern})`]);
      expect(v.reason?.en).toMatch(/cannot be applied/);
    }
  });
});

describe('PATH: built-in protections', () => {
  it('protected paths are denied in any case spelling and through links, even when allowed by rule', async () => {
    const audit = path.join(world.ws, 'audit');
    await mkdir(audit, { recursive: true });
    await symlink(audit, path.join(world.ws, 'to-audit')).catch(() => undefined);
    const eff = effectiveFrom(rules(['filesystem.read']));
    const e = { ...env, protectedPaths: [audit] };
    for (const p of ['audit/ledger.db', 'audit', 'AUDIT/ledger.db', 'to-audit/ledger.db']) {
      const v = await read([p], eff, e);
      expect([v.decision, v.rule, v.source], p).toEqual(['deny', 'protected', 'builtin']);
      expect(v.reason?.en).toMatch(/protects/);
    }
    expect((await read(['auditor.txt'], eff, e)).decision).toBe('allow');
  });

  const executable = ['run.bat', 'RUN.CMD', 'x.ps1', 'deploy.sh', 'book.xlsm', 'letter.docm', 'deck.pptm', '.git/hooks/pre-commit', '.git/hooks', 'repo/.git/config', '.GIT/HOOKS/post-merge'];
  for (const p of executable) {
    it(`denies writing the execution-equivalent '${p}', but reading it is fine`, async () => {
      const eff = effectiveFrom(rules(['filesystem.write', 'filesystem.read']));
      const v = await write([p], eff);
      expect([v.decision, v.rule, v.source]).toEqual(['deny', 'execution-equivalent-write', 'builtin']);
      expect(v.reason?.en).toMatch(/Save as \.txt/);
      expect((await read([p], eff)).decision).toBe('allow');
    });
  }

  it('destructive tools are covered too, and look-alikes are not', async () => {
    const eff = effectiveFrom({});
    expect((await evaluatePermission(eff, pathQuery('filesystem.delete', ['x.sh'], 'destructive'), env)).rule).toBe('execution-equivalent-write');
    for (const p of ['notes.shx', '.gitignore', 'my.git.notes/x', 'hooks/x', 'git/hooks/x', 'a.xlsx']) expect((await write([p], eff)).decision, p).toBe('ask');
  });

  it('a write whose real target is an execution-equivalent file is denied', async () => {
    await symlink(path.join(world.ws, 'payload.sh'), path.join(world.ws, 'harmless.txt')).catch(() => undefined);
    expect((await write(['harmless.txt'])).rule).toBe('execution-equivalent-write');
  });
});
