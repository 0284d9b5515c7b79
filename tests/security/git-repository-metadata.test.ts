import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate, type TestGate } from '../helpers/gate-harness';

/**
 * Issue 14 class 1 (critical): auto-allowed git plus repository metadata the agent wrote ran code
 * without approval. Both ends are held: the write of any `.git` path, `commondir` or gitfile (and a
 * folder moved onto `.git`) is execution-equivalent and denied; and git runs hardened, refusing a
 * repository whose git directory or common directory lies outside the roots, with every
 * program-valued configuration key (core.fsmonitor, pager, filters, textconv) neutralised.
 *
 * Proof against the old code (checked by reverting electron/main/policy/protections.ts and
 * electron/main/host/process/ to 7c58b05^): the commondir/gitfile/move writes were approved and
 * landed, the auto-allowed `git status` then ran the outside repository's fsmonitor (the marker
 * file appeared), and the hardening tests ran every planted program.
 */

const open = useTestGate();
const GIT = '/usr/bin/git';
const POLICY = {
  version: 1,
  rules: { allow: ['shell.execute(git status:*)', 'shell.execute(git log:*)'], ask: ['filesystem.write', 'filesystem.move', 'filesystem.copy'] },
  shell: { commands: { git: {} }, trustedDirs: ['/usr/bin', '/bin'] },
};

/** git as the test's own tool (the user's git): no system or global configuration of this machine. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync(GIT, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd,
    env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    encoding: 'utf8',
  });
}

function initRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'one\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'first');
}

/** A repository outside the roots whose configuration runs a program on `git status`. */
function evilRepo(g: TestGate, marker: string): string {
  const dir = join(g.outside, 'evil');
  initRepo(dir);
  git(dir, 'config', 'core.fsmonitor', `touch ${marker}; false`);
  return join(dir, '.git');
}

function eventsOf(events: Array<Record<string, unknown>>, type: string): Array<Record<string, unknown>> {
  return events.filter((e) => e['type'] === type);
}

describe('class 1, first end: repository metadata is execution-equivalent', () => {
  it('a written .git/commondir is denied and the auto-allowed git status runs nothing from outside', async () => {
    const g = await open({ policy: POLICY });
    const marker = join(g.outside, 'fsmonitor-ran');
    const evil = evilRepo(g, marker);
    const repo = join(g.workspace, 'repo');
    initRepo(repo);

    const write = await g.call('filesystem.write', { path: 'repo/.git/commondir', content: `${evil}\n` });
    const status = await g.call('shell.execute', { command: 'git', args: ['status', '--short'], cwd: 'repo' });
    // The effect first (on the old code the outside repository's fsmonitor ran here), then the outcomes.
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(repo, '.git', 'commondir'))).toBe(false);
    expect(write.outcome).toBe('denied');
    expect(status.outcome).toBe('ok');
    // The harmless write was never put to the human; git status was auto-allowed by the rule.
    expect(g.approvals.map((a) => a.tool)).toEqual([]);
    const events = await g.auditEvents();
    const denied = eventsOf(events, 'permission.decided').find((e) => e['tool'] === 'filesystem.write');
    expect(denied).toMatchObject({ decision: 'deny', rule: 'execution-equivalent-write' });
    expect(eventsOf(events, 'execution.started').map((e) => e['tool'])).toEqual(['shell.execute']);
  });

  it('a gitfile (.git as a file naming another git directory) is denied', async () => {
    const g = await open({ policy: POLICY });
    const marker = join(g.outside, 'fsmonitor-ran');
    const evil = evilRepo(g, marker);
    mkdirSync(join(g.workspace, 'project'));
    const write = await g.call('filesystem.write', { path: 'project/.git', content: `gitdir: ${evil}\n` });
    expect(write.outcome).toBe('denied');
    expect(existsSync(join(g.workspace, 'project', '.git'))).toBe(false);
    await g.call('shell.execute', { command: 'git', args: ['status'], cwd: 'project' });
    expect(existsSync(marker)).toBe(false);
    // Nor a .git folder made, nor an existing repository's configuration edited.
    expect((await g.call('filesystem.mkdir', { path: 'project/.git' })).outcome).toBe('denied');
    expect(existsSync(join(g.workspace, 'project', '.git'))).toBe(false);
    initRepo(join(g.workspace, 'real'));
    const edit = await g.call('filesystem.edit', { path: 'real/.git/config', oldText: '[core]', newText: `[core]\n\tfsmonitor = touch ${marker}; false` });
    expect(edit.outcome).toBe('denied');
    expect(readFileSync(join(g.workspace, 'real', '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
  });

  it('a folder moved or copied onto .git is denied; an ordinary folder move is fine (control)', async () => {
    const g = await open({ policy: POLICY });
    const marker = join(g.workspace, 'fsmonitor-ran');
    const repo = join(g.workspace, 'repo');
    mkdirSync(repo);
    // Looks like notes; is a git directory whose config runs a program.
    for (const [name, content] of Object.entries({ HEAD: 'ref: refs/heads/main\n', config: `[core]\n\tfsmonitor = touch ${marker}; false\n` })) {
      const r = await g.call('filesystem.write', { path: `prep/${name}`, content });
      expect(r.outcome).toBe('ok');
    }
    mkdirSync(join(g.workspace, 'prep', 'objects'));
    mkdirSync(join(g.workspace, 'prep', 'refs'));
    const move = await g.call('filesystem.move', { from: 'prep', to: 'repo/.git' });
    expect(move.outcome).toBe('denied');
    const copy = await g.call('filesystem.copy', { from: 'prep', to: 'repo/.git' });
    expect(copy.outcome).toBe('denied');
    expect(existsSync(join(repo, '.git'))).toBe(false);
    await g.call('shell.execute', { command: 'git', args: ['status'], cwd: 'repo' });
    expect(existsSync(marker)).toBe(false);
    // Control: the same folder moved under an ordinary name.
    const ordinary = await g.call('filesystem.move', { from: 'prep', to: 'repo/notes' });
    expect(ordinary.outcome).toBe('ok');
    expect(existsSync(join(repo, 'notes', 'config'))).toBe(true);
  });

  it('an ordinary write next to a repository still works (control)', async () => {
    const g = await open({ policy: POLICY });
    initRepo(join(g.workspace, 'repo'));
    const r = await g.call('filesystem.write', { path: 'repo/notes.txt', content: 'hello\n' });
    expect(r.outcome).toBe('ok');
    const status = await g.call('shell.execute', { command: 'git', args: ['status', '--short'], cwd: 'repo' });
    expect(status.outcome).toBe('ok');
    expect(status.text).toContain('?? notes.txt');
  });
});

describe('class 1, second end: git runs hardened and only in repositories inside the roots', () => {
  it('a repository whose commondir points outside the roots is refused before approval, and runs nothing', async () => {
    const g = await open({ policy: POLICY });
    const marker = join(g.outside, 'fsmonitor-ran');
    const evil = evilRepo(g, marker);
    const repo = join(g.workspace, 'repo');
    initRepo(repo);
    writeFileSync(join(repo, '.git', 'commondir'), `${evil}\n`); // however it got there
    // Control: the planted configuration is live for an unhardened git.
    try {
      git(repo, 'status');
    } catch {
      /* exit code does not matter */
    }
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', ['-f', marker]);

    for (const args of [['status'], ['log', '--oneline']]) {
      const r = await g.call('shell.execute', { command: 'git', args, cwd: 'repo' });
      expect(r.outcome).toBe('refused');
      expect(r.text).toMatch(/outside the workspace|git runs only in repositories inside the workspace/);
    }
    expect(existsSync(marker)).toBe(false);
    const events = await g.auditEvents();
    expect(eventsOf(events, 'precheck.refused')).toHaveLength(2);
    expect(eventsOf(events, 'execution.started')).toHaveLength(0);
  });

  it('a gitfile pointing outside, and a repository above the workspace, are refused', async () => {
    const g = await open({ policy: POLICY });
    const marker = join(g.outside, 'fsmonitor-ran');
    const evil = evilRepo(g, marker);
    mkdirSync(join(g.workspace, 'linked'));
    writeFileSync(join(g.workspace, 'linked', '.git'), `gitdir: ${evil}\n`);
    const linked = await g.call('shell.execute', { command: 'git', args: ['status'], cwd: 'linked' });
    expect(linked.outcome).toBe('refused');
    // The workspace itself lies inside a repository (its parent folder is one): not reachable.
    const parent = join(g.workspace, '..');
    git(parent, 'init', '-q');
    git(parent, 'config', 'core.fsmonitor', `touch ${marker}; false`);
    mkdirSync(join(g.workspace, 'plain'));
    const above = await g.call('shell.execute', { command: 'git', args: ['status'], cwd: 'plain' });
    expect(above.outcome).toBe('refused');
    expect(existsSync(marker)).toBe(false);
    expect(g.approvals).toHaveLength(0);
  });

  it("a repository's own configuration runs no program: fsmonitor, pager, filters, textconv, external diff, gpg", async () => {
    const g = await open({ policy: { ...POLICY, rules: { allow: ['shell.execute'] } } });
    const repo = join(g.workspace, 'repo');
    initRepo(repo);
    const ran = join(g.outside, 'ran');
    mkdirSync(ran);
    const tool = join(g.outside, 'tool.sh');
    writeFileSync(tool, `#!/bin/sh\ntouch ${ran}/"$(basename "$0")-$$"\ncat\n`);
    chmodSync(tool, 0o755);
    const planted: Record<string, string> = {
      'core.fsmonitor': `touch ${ran}/fsmonitor; false`,
      'core.pager': `touch ${ran}/pager; cat`,
      'pager.log': `touch ${ran}/pager-log; cat`,
      'diff.external': `touch ${ran}/external`,
      'filter.evil.clean': `touch ${ran}/clean; cat`,
      'filter.evil.smudge': `touch ${ran}/smudge; cat`,
      'filter.evil.process': `touch ${ran}/process`,
      'filter.evil.required': 'true',
      'diff.evil.textconv': `touch ${ran}/textconv; cat`,
      'diff.evil.command': `touch ${ran}/diffcommand`,
      'gpg.program': `${tool}`,
      'log.showSignature': 'true',
      'core.hooksPath': join(g.outside, 'hooks'),
    };
    for (const [k, v] of Object.entries(planted)) git(repo, 'config', k, v);
    writeFileSync(join(repo, '.gitattributes'), '* filter=evil diff=evil\n');
    writeFileSync(join(repo, 'a.txt'), 'two\n'); // modified: status and diff look at its content

    const calls: string[][] = [
      ['status'],
      ['status', '--porcelain=v2', '-uall'],
      ['diff'],
      ['diff', '--stat'],
      ['log', '-p', '--format=%H %G?'],
      ['show', 'HEAD'],
      ['blame', 'a.txt'],
    ];
    for (const args of calls) {
      const r = await g.call('shell.execute', { command: 'git', args, cwd: 'repo' });
      expect({ args, outcome: r.outcome }).toEqual({ args, outcome: 'ok' });
    }
    expect(execFileSync('ls', ['-A', ran], { encoding: 'utf8' })).toBe('');
    // Control: the diff output is git's own (no textconv, no external diff).
    const diff = await g.call('shell.execute', { command: 'git', args: ['diff'], cwd: 'repo' });
    expect(diff.text).toContain('-one');
    expect(diff.text).toContain('+two');
    // Control: the planted configuration is live for an unhardened git (fsmonitor, filters, textconv, external diff).
    for (const args of [['status'], ['diff'], ['log', '-p', '--format=%H %G?']]) {
      try {
        execFileSync(GIT, args, { cwd: repo, env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_PAGER: '' }, stdio: 'ignore' });
      } catch {
        /* a planted program may fail the command; what matters is that it ran */
      }
    }
    const ranUnhardened = execFileSync('ls', ['-A', ran], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(ranUnhardened).toEqual(expect.arrayContaining(['fsmonitor']));
    expect(ranUnhardened.some((f) => ['clean', 'process', 'textconv', 'external', 'diffcommand'].includes(f))).toBe(true);
  });
});
