import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate, type TestGate } from '../helpers/gate-harness';

/**
 * The bypass classes that broke other assistants' shells (issue #4), through the real gate: each is
 * refused before anyone is asked and leaves no effect, or — for strings meant for a shell — is passed
 * literally to the program because there is no shell.
 */
const open = useTestGate();
const POLICY = {
  version: 1,
  shell: { commands: { echo: {}, env: {}, git: {}, find: {}, ls: {} }, trustedDirs: ['/usr/bin', '/bin'] },
};

async function refusedBeforeApproval(g: TestGate, args: Record<string, unknown>): Promise<string> {
  const r = await g.call('shell.execute', args);
  expect({ args, outcome: r.outcome }).toEqual({ args, outcome: 'refused' });
  expect(g.approvals).toHaveLength(0);
  return r.text;
}

describe('shell.execute attack suite', () => {
  it('passes chaining and substitution strings literally: no shell ever reads them', async () => {
    const g = await open({ policy: POLICY });
    const tricks = ['hi; touch pwned1', '$(touch pwned2)', '`touch pwned3`', 'x && touch pwned4', '| touch pwned5', '> pwned6', '*'];
    const r = await g.call('shell.execute', { command: 'echo', args: tricks });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe(`${tricks.join(' ')}\n`);
    for (const n of [1, 2, 3, 4, 5, 6]) expect(existsSync(join(g.workspace, `pwned${n}`))).toBe(false);
  });

  it('refuses paths and env-prefix tricks as the command, naming what to write instead', async () => {
    const g = await open({ policy: POLICY, lang: 'en' });
    expect(await refusedBeforeApproval(g, { command: './git', args: ['status'] })).toMatch(/'git'/);
    await refusedBeforeApproval(g, { command: '/usr/bin/git', args: ['status'] });
    await refusedBeforeApproval(g, { command: 'FOO=1', args: ['git', 'status'] });
    await refusedBeforeApproval(g, { command: 'git status' });
    await refusedBeforeApproval(g, { command: 'sh', args: ['-c', 'id'] });
  });

  it('refuses the flags that make whitelisted programs run code or write files', async () => {
    const g = await open({ policy: POLICY, lang: 'en' });
    const marker = join(g.workspace, 'pager-ran');
    expect(await refusedBeforeApproval(g, { command: 'git', args: ['-c', `core.pager=touch ${marker}`, 'log'] })).toMatch(/'-c'/);
    await refusedBeforeApproval(g, { command: 'git', args: [`-ccore.pager=touch ${marker}`, 'log'] });
    await refusedBeforeApproval(g, { command: 'git', args: ['diff', '--ext-diff'] });
    await refusedBeforeApproval(g, { command: 'git', args: ['diff', '--ext'] });
    await refusedBeforeApproval(g, { command: 'git', args: ['--exec-path=/tmp', 'status'] });
    await refusedBeforeApproval(g, { command: 'find', args: ['.', '-exec', 'touch', marker, ';'] });
    await refusedBeforeApproval(g, { command: 'find', args: ['.', '-delete'] });
    expect(existsSync(marker)).toBe(false);
  });

  it('never runs a planted program from the workspace, and gives the child no secret from the environment', async () => {
    const g = await open({ policy: POLICY });
    const marker = join(g.workspace, 'planted-ran');
    for (const name of ['git', 'env', 'echo']) {
      writeFileSync(join(g.workspace, name), `#!/bin/sh\ntouch ${marker}\n`);
      chmodSync(join(g.workspace, name), 0o755);
    }
    process.env.BARAM_TEST_SECRET_TOKEN = 'hunter2';
    process.env.HTTPS_PROXY = 'http://proxy.invalid:3128';
    try {
      const git = await g.call('shell.execute', { command: 'git', args: ['--version'] });
      expect(git.outcome).toBe('ok');
      expect(git.text).toMatch(/^git version /);
      const env = await g.call('shell.execute', { command: 'env' });
      expect(env.outcome).toBe('ok');
      expect(env.text).not.toContain('hunter2');
      expect(env.text).not.toContain('BARAM_TEST_SECRET_TOKEN');
      expect(env.text).not.toContain('proxy.invalid');
      expect(env.text).toMatch(/^PATH=/m);
    } finally {
      delete process.env.BARAM_TEST_SECRET_TOKEN;
      delete process.env.HTTPS_PROXY;
    }
    expect(existsSync(marker)).toBe(false);
    // The intent row names the file that ran and its hash.
    const started = (await g.auditEvents()).filter((e) => e.type === 'execution.started' && e.tool === 'shell.execute');
    expect(started[0]).toMatchObject({ data: { program: { realPath: '/usr/bin/git', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } } });
  });

  it('refuses working folders outside the workspace: ../, absolute, and through a link', async () => {
    const g = await open({ policy: POLICY });
    mkdirSync(join(g.outside, 'secret'), { recursive: true });
    symlinkSync(join(g.outside, 'secret'), join(g.workspace, 'link-out'));
    await refusedBeforeApproval(g, { command: 'ls', cwd: '..' });
    await refusedBeforeApproval(g, { command: 'ls', cwd: g.outside });
    await refusedBeforeApproval(g, { command: 'ls', cwd: 'link-out' });
    await refusedBeforeApproval(g, { command: 'ls', cwd: 'no-such-folder' });
  });

  it('a program not on the list is refused before approval', async () => {
    const g = await open({ policy: POLICY, lang: 'en' });
    await refusedBeforeApproval(g, { command: 'rm', args: ['-rf', '.'] });
    await refusedBeforeApproval(g, { command: 'curl', args: ['http://example.com'] });
  });
});
