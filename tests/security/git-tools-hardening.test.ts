import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../helpers/gate-harness';
import { git, officeRepo, put } from '../integration/git/git-fixture';

/**
 * The git tools run git exactly as shell.execute's git runs (host/process: grammar, hardened
 * configuration and environment, repository confinement; docs/2026-12-03-git-tools.md). A
 * repository whose own configuration — which the agent may have written — names programs for
 * git to run (fsmonitor, filters selected by .gitattributes, textconv, external diff, pager)
 * runs none of them under any of the five tools; the same configuration does run them under a
 * plain git (the control, so the test can fail).
 */

const open = useTestGate();

const TOOL_CALLS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['git.status', { path: 'repo' }],
  ['git.log', { path: 'repo' }],
  ['git.log', { file: 'repo/a.txt' }],
  ['git.diff', { path: 'repo' }],
  ['git.diff', { path: 'repo', staged: true }],
  ['git.diff', { path: 'repo', ref: 'HEAD~1..HEAD' }],
  ['git.show', { ref: 'HEAD', path: 'repo' }],
  ['git.blame', { file: 'repo/a.txt' }],
];

describe("a repository's own configuration runs no program under the git tools", () => {
  it('fsmonitor, filter drivers via .gitattributes, diff textconv and command, diff.external, core.pager, pager.*', async () => {
    const g = await open({ lang: 'en' });
    const repo = join(g.workspace, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    put(repo, 'a.txt', 'one\n');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-q', '-m', 'first');
    put(repo, 'a.txt', 'one\ntwo\n');
    git(repo, 'commit', '-q', '-am', 'second');
    const ran = join(g.outside, 'ran');
    mkdirSync(ran);
    const script = join(g.outside, 'mark.sh');
    writeFileSync(script, `#!/bin/sh\ntouch ${ran}/"$1"\ncat\n`);
    chmodSync(script, 0o755);
    const planted: Record<string, string> = {
      'core.fsmonitor': `${script} fsmonitor; false`,
      'core.pager': `${script} pager`,
      'pager.log': `${script} pager-log`,
      'pager.diff': `${script} pager-diff`,
      'pager.show': `${script} pager-show`,
      'pager.blame': `${script} pager-blame`,
      'pager.status': `${script} pager-status`,
      'diff.external': `${script} external`,
      'filter.evil.clean': `${script} clean`,
      'filter.evil.smudge': `${script} smudge`,
      'filter.evil.process': `${script} process`,
      'filter.evil.required': 'true',
      'diff.evil.textconv': `${script} textconv`,
      'diff.evil.command': `${script} diffcommand`,
      'core.hooksPath': join(g.outside, 'hooks'),
    };
    // The agent's writes, however they got there (the gate denies writing .git paths; the
    // repository may have come with them).
    for (const [k, v] of Object.entries(planted)) git(repo, 'config', k, v);
    writeFileSync(join(repo, '.gitattributes'), '* filter=evil diff=evil\n');
    put(repo, 'a.txt', 'one\ntwo\nthree\n'); // modified: status, diff and blame look at its content

    for (const [tool, args] of TOOL_CALLS) {
      const r = await g.call(tool, args);
      expect({ tool, args, outcome: r.outcome }).toEqual({ tool, args, outcome: 'ok' });
    }
    expect(readdirSync(ran)).toEqual([]);
    // git's own diff (no textconv, no external diff program).
    const diff = await g.call('git.diff', { path: 'repo' });
    expect(diff.text).toContain('+three');

    // Control: the planted configuration is live for an unhardened git.
    for (const args of [['status'], ['diff'], ['log', '-p']]) {
      try {
        execFileSync('/usr/bin/git', args, { cwd: repo, env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }, stdio: 'ignore' });
      } catch {
        /* a planted program may fail the command; what matters is that it ran */
      }
    }
    const unhardened = readdirSync(ran);
    expect(unhardened).toEqual(expect.arrayContaining(['fsmonitor']));
    expect(unhardened.some((f) => ['clean', 'process', 'textconv', 'external', 'diffcommand'].includes(f))).toBe(true);
    // Eight calls and the unhardened control (whose planted filter process git waits on): a loaded
    // two-core CI machine needs more than the default 30 s. Not a speed assertion.
  }, 120_000);
});

describe('repositories outside the roots', () => {
  it('a gitfile pointing to a git directory outside the workspace is refused by every tool before it runs', async () => {
    const g = await open({ lang: 'ko' });
    const evil = join(g.outside, 'evil');
    officeRepo(evil);
    const marker = join(g.outside, 'fsmonitor-ran');
    git(evil, 'config', 'core.fsmonitor', `touch ${marker}; false`);
    mkdirSync(join(g.workspace, 'repo'));
    writeFileSync(join(g.workspace, 'repo', '.git'), `gitdir: ${join(evil, '.git')}\n`);
    put(join(g.workspace, 'repo'), 'a.txt', 'x\n');
    for (const [tool, args] of TOOL_CALLS) {
      const r = await g.call(tool, args);
      expect({ tool, outcome: r.outcome }).toEqual({ tool, outcome: 'refused' });
      expect(r.text).toContain('작업 공간');
    }
    expect(existsSync(marker)).toBe(false);
    const events = await g.auditEvents();
    expect(events.filter((e) => e['type'] === 'execution.started')).toHaveLength(0);
  });

  it('a repository above the workspace (found by climbing past the root) is not used', async () => {
    const g = await open({ lang: 'en' });
    const parent = join(g.workspace, '..');
    git(parent, 'init', '-q');
    const marker = join(g.outside, 'fsmonitor-ran');
    git(parent, 'config', 'core.fsmonitor', `touch ${marker}; false`);
    mkdirSync(join(g.workspace, 'plain'));
    const r = await g.call('git.status', { path: 'plain' });
    expect(r.outcome).toBe('refused');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('option smuggling through refs', () => {
  it('a ref like --output=/tmp/x is refused by git.log, git.diff and git.show, and writes nothing', async () => {
    const g = await open({ lang: 'en' });
    officeRepo(join(g.workspace, 'repo'));
    const target = join(g.outside, 'written');
    for (const ref of [`--output=${target}`, `-o${target}`, '--no-index', 'HEAD --output=x', 'HEAD:문서/보고서.txt', 'a..--output=x', '-', '']) {
      for (const tool of ['git.log', 'git.diff', 'git.show']) {
        const r = await g.call(tool, { path: 'repo', ref });
        // '' means "no ref" for log and diff (SPEC G-SCHEMA); git.show needs one.
        if (ref === '' && tool !== 'git.show') {
          expect(r.outcome).toBe('ok');
          continue;
        }
        expect({ tool, ref, outcome: r.outcome }).toEqual({ tool, ref, outcome: 'refused' });
        expect(r.text).toContain('cannot be used as a commit or branch');
      }
    }
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(g.workspace, 'repo', 'x'))).toBe(false);
  });
});

describe('policy deny rules', () => {
  const POLICY = { rules: { deny: ['filesystem.*(**/인사/**)'] }, shell: { commands: { git: {} }, trustedDirs: ['/usr/bin', '/bin'] } };

  it('a path a deny rule covers is not shown by any tool, and naming it is refused', async () => {
    const g = await open({ lang: 'ko', policy: POLICY });
    const repo = join(g.workspace, 'repo');
    officeRepo(repo);
    put(repo, '인사/급여.txt', '홍길동 500\n');
    git(repo, 'add', '인사/급여.txt');
    git(repo, 'commit', '-q', '-m', '급여 표 추가');
    put(repo, '인사/급여.txt', '홍길동 900\n');
    git(repo, 'add', '인사/급여.txt');
    put(repo, '인사/새 평가.txt', 'B\n');

    for (const [tool, args] of [
      ['git.status', { path: 'repo' }],
      ['git.diff', { path: 'repo' }],
      ['git.diff', { path: 'repo', staged: true }],
      ['git.show', { ref: 'HEAD', path: 'repo' }],
      ['git.log', { path: 'repo' }],
    ] as const) {
      const r = await g.call(tool, args);
      expect({ tool, outcome: r.outcome }).toEqual({ tool, outcome: 'ok' });
      expect(r.text).not.toContain('급여.txt');
      expect(r.text).not.toContain('새 평가');
      expect(r.text).not.toContain('900');
      expect(r.text).not.toContain('500');
      if (tool !== 'git.log') expect(r.text).toContain('정책이 막은 경로');
    }
    // The rest is still there (control).
    const status = await g.call('git.status', { path: 'repo' });
    expect(status.text).toContain('repo/문서/보고서.txt');

    for (const [tool, args] of [
      ['git.blame', { file: 'repo/인사/급여.txt' }],
      ['git.diff', { file: 'repo/인사/급여.txt' }],
      ['git.log', { file: 'repo/인사/급여.txt' }],
      ['git.show', { ref: 'HEAD', file: 'repo/인사/급여.txt' }],
      ['git.status', { path: 'repo/인사' }],
    ] as const) {
      const r = await g.call(tool, args);
      expect({ tool, outcome: r.outcome }).toEqual({ tool, outcome: r.outcome === 'denied' ? 'denied' : 'refused' });
      expect(r.text).not.toContain('900');
    }
  });

  it("the git tools' own deny rule holds for the path they name and for what git lists", async () => {
    const g = await open({ lang: 'en', policy: { ...POLICY, rules: { deny: ['git.*(**/인사/**)'] } } });
    const repo = join(g.workspace, 'repo');
    officeRepo(repo);
    put(repo, '인사/급여.txt', '홍길동 500\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'pay');
    const r = await g.call('git.blame', { file: 'repo/인사/급여.txt' });
    expect(r.outcome).toBe('denied');
    // And for what git lists by itself (SPEC G-PERM: every path a tool lists).
    put(repo, '인사/급여.txt', '홍길동 900\n');
    put(repo, '문서/보고서.txt', '바뀜\n');
    for (const [tool, args] of [['git.status', { path: 'repo' }], ['git.diff', { path: 'repo' }], ['git.show', { ref: 'HEAD', path: 'repo' }]] as const) {
      const listed = await g.call(tool, args);
      expect({ tool, outcome: listed.outcome }).toEqual({ tool, outcome: 'ok' });
      expect(listed.text).not.toContain('급여');
      expect(listed.text).toContain('path(s) covered by a policy rule are not shown');
    }
  });
});

describe('fail closed without git', () => {
  it('git removed from shell.commands: a refusal that says to ask the administrator', async () => {
    const g = await open({ lang: 'ko', policy: { shell: { commands: { ping: {} }, trustedDirs: ['/usr/bin', '/bin'] } } });
    officeRepo(join(g.workspace, 'repo'));
    const r = await g.call('git.status', { path: 'repo' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('허용 프로그램 목록("shell" 항목의 "commands")에 git이 없습니다');
    expect(r.text).toContain('관리자에게');
  });

  it('git not installed (not in any trusted folder): a refusal that says to ask for git to be installed', async () => {
    const g = await open({ lang: 'en', policy: { shell: { commands: { git: {} }, trustedDirs: ['/nonexistent-bin'] } } });
    officeRepo(join(g.workspace, 'repo'));
    const r = await g.call('git.log', { path: 'repo' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('git is not installed on this PC');
    expect(r.text).toContain('Ask the administrator');
  });
});
