import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestGate, type TestGate } from '../helpers/gate-harness';

/**
 * Issue 14 class 4 through the real gate, with every call approved (the attack needed only a
 * harmless-looking approval): the whitelisted programs' code-running and workspace-leaving options
 * are refused before the human is asked, nothing runs, nothing is written, the ledger records the
 * refusal and no execution. Positive controls: the read-only uses run and are recorded.
 *
 * On the old code (7c58b05^) these calls were approved and ran: `git grep -O`, `rebase -x` and
 * `config core.fsmonitor` ran programs, `diff --no-index` printed the data folder's file and `init`
 * created a repository in the audit folder (checked in a worktree of that commit).
 */

const open = useTestGate();
const GIT_ENV = { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

// ping is not installed here and the real hostname must never be changed: stand-ins that record their arguments.
const fakeBin = mkdtempSync(join(tmpdir(), 'baram-fakebin-'));
for (const name of ['ping', 'hostname']) writeFileSync(join(fakeBin, name), `#!/bin/sh\necho ${name} "$@" >> ${fakeBin}/${name}.log\necho ok\n`, { mode: 0o755 });
afterAll(() => rmSync(fakeBin, { recursive: true, force: true }));

const POLICY = {
  version: 1,
  rules: { allow: ['shell.execute(git status:*)', 'shell.execute(git log:*)'] },
  shell: { commands: { git: {}, tar: {}, find: {}, ping: {}, hostname: {} }, trustedDirs: [fakeBin, '/usr/bin', '/bin'] },
};

function setupRepo(g: TestGate): void {
  const git = (...args: string[]) => execFileSync('/usr/bin/git', ['-c', 'user.name=t', '-c', 'user.email=t@x', ...args], { cwd: g.workspace, env: GIT_ENV });
  git('init', '-q');
  writeFileSync(join(g.workspace, 'a.txt'), 'one\n');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'one');
  writeFileSync(join(g.workspace, 'a.txt'), 'two\n');
  git('commit', '-q', '-am', 'two');
}

async function refusedUnasked(g: TestGate, args: readonly string[], command = 'git'): Promise<string> {
  const r = await g.call('shell.execute', { command, args });
  expect({ args, outcome: r.outcome }).toEqual({ args, outcome: 'refused' });
  return r.text;
}

async function ledger(g: TestGate): Promise<{ refused: number; started: number }> {
  const events = await g.auditEvents();
  return {
    refused: events.filter((e) => e['type'] === 'precheck.refused').length,
    started: events.filter((e) => e['type'] === 'execution.started').length,
  };
}

describe('class 4: whitelisted programs against their whitelist, through the gate', () => {
  it('git: commands through a shell are refused, nothing runs, the ledger shows refusals only', async () => {
    const g = await open({ policy: POLICY });
    setupRepo(g);
    const marker = join(g.outside, 'ran');
    const calls: string[][] = [
      ['grep', `-Otouch ${marker}`, 'one'],
      ['grep', `--open-files-in-pager=touch ${marker}`, 'one'],
      ['grep', '--open-files-in', `touch ${marker}`, 'one'],
      ['clone', '-u', `touch ${marker}`, '.', 'copy'],
      ['difftool', '-x', `touch ${marker}`, 'HEAD~1'],
      ['rebase', '-x', `touch ${marker}`, 'HEAD~1'],
      ['config', 'core.fsmonitor', `touch ${marker}; false`],
    ];
    for (const args of calls) await refusedUnasked(g, args);
    // core.fsmonitor was not configured: the auto-allowed status runs nothing.
    const status = await g.call('shell.execute', { command: 'git', args: ['status'] });
    expect(status.outcome).toBe('ok');
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(g.workspace, 'copy'))).toBe(false);
    expect(readFileSync(join(g.workspace, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
    expect(g.approvals).toHaveLength(0);
    expect(await ledger(g)).toEqual({ refused: calls.length, started: 1 });
  });

  it('git: -C, --git-dir, --work-tree, diff --no-index and init never reach outside or the data folder', async () => {
    const g = await open({ policy: POLICY });
    setupRepo(g);
    const auditFolder = join(g.dataDir, 'audit');
    const inAudit = readdirSync(auditFolder).map((f) => join(auditFolder, f)).find((f) => !f.endsWith('-wal') && !f.endsWith('-shm')) as string;
    writeFileSync(join(g.outside, 'secret.txt'), 'OUTSIDE-SECRET\n');
    execFileSync('/usr/bin/git', ['init', '-q', g.outside], { env: GIT_ENV });
    const texts: string[] = [];
    for (const args of [
      ['-C', g.outside, 'status'],
      [`--git-dir=${join(g.outside, '.git')}`, 'log'],
      ['--work-tree', g.outside, 'status'],
      ['diff', '--no-index', inAudit, 'a.txt'],
      ['diff', '--no-index', join(g.outside, 'secret.txt'), 'a.txt'],
      ['diff', join(g.outside, 'secret.txt'), 'a.txt'],
      ['log', '--', inAudit],
      ['init', join(auditFolder, 'x')],
      ['init', join(g.outside, 'made')],
    ]) {
      texts.push(await refusedUnasked(g, args));
    }
    expect(texts.join('\n')).not.toContain('OUTSIDE-SECRET');
    expect(existsSync(join(auditFolder, 'x'))).toBe(false);
    expect(existsSync(join(g.outside, 'made'))).toBe(false);
    expect(g.approvals).toHaveLength(0);
    expect(await ledger(g)).toEqual({ refused: 9, started: 0 });
    // Control: the same reads inside the workspace run (after approval where no rule allows them).
    const diff = await g.call('shell.execute', { command: 'git', args: ['diff', 'HEAD~1', '--', 'a.txt'] });
    expect(diff.outcome).toBe('ok');
    expect(diff.text).toContain('+two');
    const log = await g.call('shell.execute', { command: 'git', args: ['log', '--oneline'] });
    expect(log.text.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('tar: --checkpoint-action, -I and archives written outside are refused; listing runs', async () => {
    const g = await open({ policy: POLICY });
    writeFileSync(join(g.workspace, 'a.txt'), 'one\n');
    execFileSync('/usr/bin/tar', ['-cf', 'a.tar', 'a.txt'], { cwd: g.workspace });
    const marker = join(g.outside, 'ran');
    for (const args of [
      ['-tf', 'a.tar', '--checkpoint=1', `--checkpoint-action=exec=touch ${marker}`],
      ['-tf', 'a.tar', '--checkpoint-a', `exec=touch ${marker}`],
      ['-tf', 'a.tar', `-Itouch ${marker}`],
      ['-cf', join(g.outside, 'w.tar'), 'a.txt'],
      ['--create', `--file=${join(g.outside, 'w.tar')}`, 'a.txt'],
      ['-xf', 'a.tar'],
    ]) {
      await refusedUnasked(g, args, 'tar');
    }
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(g.outside, 'w.tar'))).toBe(false);
    const list = await g.call('shell.execute', { command: 'tar', args: ['-tf', 'a.tar'] });
    expect(list.outcome).toBe('ok');
    expect(list.text).toBe('a.txt\n');
    expect(await ledger(g)).toEqual({ refused: 6, started: 1 });
  });

  it('find: -exec, -delete, -fprint and starting points outside are refused; a search runs', async () => {
    const g = await open({ policy: POLICY, files: { 'keep.txt': 'x' } });
    const marker = join(g.outside, 'ran');
    for (const args of [
      ['.', '-exec', 'touch', marker, ';'],
      ['.', '-delete'],
      ['.', '-fprint', join(g.outside, 'list')],
      [g.outside, '-name', '*'],
      ['-L', '.'],
    ]) {
      await refusedUnasked(g, args, 'find');
    }
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(g.workspace, 'keep.txt'))).toBe(true);
    expect(existsSync(join(g.outside, 'list'))).toBe(false);
    const found = await g.call('shell.execute', { command: 'find', args: ['.', '-name', '*.txt'] });
    expect(found.text).toBe('./keep.txt\n');
  });

  it('hostname NAME and ping -f are refused; the queries run', async () => {
    const g = await open({ policy: POLICY });
    const before = hostname();
    for (const args of [['evil'], ['-F', '/etc/hostname'], ['--fi=/etc/hostname'], ['-b']]) await refusedUnasked(g, args, 'hostname');
    for (const args of [['-f', 'localhost'], ['-c', '1', '-i', '0.001', 'localhost'], ['-Ieth0', 'localhost']]) await refusedUnasked(g, args, 'ping');
    expect(existsSync(join(fakeBin, 'hostname.log'))).toBe(false);
    expect(existsSync(join(fakeBin, 'ping.log'))).toBe(false);
    expect((await g.call('shell.execute', { command: 'hostname', args: ['-s'] })).outcome).toBe('ok');
    expect((await g.call('shell.execute', { command: 'ping', args: ['-c', '1', 'localhost'] })).outcome).toBe('ok');
    expect(readFileSync(join(fakeBin, 'hostname.log'), 'utf8')).toBe('hostname -s\n');
    expect(readFileSync(join(fakeBin, 'ping.log'), 'utf8')).toBe('ping -c 1 localhost\n');
    expect(hostname()).toBe(before);
    rmSync(join(fakeBin, 'hostname.log'));
    rmSync(join(fakeBin, 'ping.log'));
  });

  it("a policy deny rule holds for a program's path arguments as for filesystem.read (git -- path, rev:path, find, tar -f)", async () => {
    const g = await open({ policy: { ...POLICY, rules: { ...POLICY.rules, deny: ['filesystem.*(**/인사/**)'] } } });
    mkdirSync(join(g.workspace, '인사'));
    writeFileSync(join(g.workspace, '인사', '급여.txt'), 'SALARY-TABLE\n');
    writeFileSync(join(g.workspace, 'a.txt'), 'one\n');
    const git = (...args: string[]) => execFileSync('/usr/bin/git', ['-c', 'user.name=t', '-c', 'user.email=t@x', ...args], { cwd: g.workspace, env: GIT_ENV });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'one');
    execFileSync('/usr/bin/tar', ['-cf', join(g.workspace, '인사', 'backup.tar'), 'a.txt'], { cwd: g.workspace });
    const texts: string[] = [];
    for (const [command, args] of [
      ['git', ['log', '-p', '--', '인사/급여.txt']],
      ['git', ['show', 'HEAD:인사/급여.txt']],
      ['git', ['diff', 'HEAD', '인사']],
      ['find', ['인사', '-name', '*']],
      ['tar', ['-tf', '인사/backup.tar']],
    ] as const) {
      texts.push(await refusedUnasked(g, args, command));
    }
    expect(texts.join('\n')).not.toContain('SALARY-TABLE');
    expect(texts[0]).toMatch(/deny rule/);
    expect(await ledger(g)).toEqual({ refused: 5, started: 0 });
    const control = await g.call('shell.execute', { command: 'git', args: ['show', 'HEAD:a.txt'] });
    expect(control.text).toBe('one\n');
  });
});
