import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../helpers/gate-harness';

/**
 * Found in an attacker's read of the git grammar (issue 14's area). A path argument of git is
 * judged by the confinement as the literal path it names; git must read it the same way. Without
 * GIT_LITERAL_PATHSPECS git took `secre*` as a glob and printed the history of a `secret/` folder
 * a deny rule covers (the literal `secre*` is covered by nothing).
 * And with no path argument, `git log -p` printed a denied file's history: under a policy that
 * hides paths, the subcommands that list paths or contents are refused for shell.execute (the git
 * tools filter their output and say so). The last test guards git.log's handling of a bracketed
 * office file name (it held before too).
 */
const open = useTestGate();

function git(cwd: string, ...args: string[]): string {
  return execFileSync('/usr/bin/git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd,
    env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    encoding: 'utf8',
  });
}

describe('git reads a path argument literally', () => {
  it('a glob in a pathspec does not reach a folder a deny rule covers', async () => {
    const g = await open({
      policy: { version: 1, rules: { deny: ['filesystem.read(secret/**)'], allow: ['shell.execute(git:*)'] }, shell: { commands: { git: {} }, trustedDirs: ['/usr/bin', '/bin'] } },
    });
    git(g.workspace, 'init', '-q');
    mkdirSync(join(g.workspace, 'secret'));
    writeFileSync(join(g.workspace, 'secret', 'pw.txt'), 'hunter2\n');
    writeFileSync(join(g.workspace, 'a.txt'), 'one\n');
    git(g.workspace, 'add', '.');
    git(g.workspace, 'commit', '-q', '-m', 'first');

    // Control: naming the folder itself is refused by the confinement.
    expect((await g.call('shell.execute', { command: 'git', args: ['log', '-p', '--', 'secret'] })).outcome).toBe('refused');
    for (const spec of ['secre*', 'secret?pw.txt', '[s]ecret', ':(glob)**/pw.txt', ':/secret']) {
      const r = await g.call('shell.execute', { command: 'git', args: ['log', '-p', '--', spec] });
      expect({ spec, leaked: r.text.includes('hunter2') || r.text.includes('pw.txt') }).toEqual({ spec, leaked: false });
    }
    // Without a path: git would print every file's history. Under a policy that hides paths, the
    // subcommands that can are refused, pointing to the git tools, which leave hidden paths out.
    for (const args of [['log', '-p'], ['log', '--stat'], ['show', 'HEAD'], ['diff', 'HEAD~0'], ['status'], ['ls-files']]) {
      const r = await g.call('shell.execute', { command: 'git', args });
      expect({ args, outcome: r.outcome, leaked: r.text.includes('hunter2') || r.text.includes('pw.txt') }).toEqual({ args, outcome: 'refused', leaked: false });
      expect(r.text).toContain('git.log');
    }
    // An object named by its id prints whatever path it had: refused whichever way it comes.
    const blob = git(g.workspace, 'rev-parse', 'HEAD:secret/pw.txt').trim();
    const other = git(g.workspace, 'rev-parse', 'HEAD:a.txt').trim();
    for (const args of [['show', blob], ['show', blob, '--', 'a.txt'], ['diff', other, blob], ['diff', other, blob, '--', 'a.txt'], ['log', '-p', 'HEAD', blob, '--', 'a.txt']]) {
      const r = await g.call('shell.execute', { command: 'git', args });
      expect({ args, leaked: r.text.includes('hunter2') }).toEqual({ args, leaked: false });
    }
    // A folder may hold hidden paths: refused too.
    expect((await g.call('shell.execute', { command: 'git', args: ['diff', 'HEAD', '--', '.'] })).outcome).toBe('refused');
    // What still runs: named files, subcommands that print no paths, and the git tools themselves.
    const named = await g.call('shell.execute', { command: 'git', args: ['log', '-p', '--', 'a.txt'] });
    expect(named.outcome).toBe('ok');
    expect(named.text).toContain('+one');
    expect(named.text).not.toContain('hunter2');
    expect((await g.call('shell.execute', { command: 'git', args: ['show', 'HEAD:a.txt'] })).text).toBe('one\n');
    expect((await g.call('shell.execute', { command: 'git', args: ['rev-parse', 'HEAD'] })).outcome).toBe('ok');
    const shown = await g.call('git.show', { ref: 'HEAD' });
    expect(shown.outcome).toBe('ok');
    expect(shown.text).toContain('a.txt');
    expect(shown.text).not.toContain('hunter2');
  });

  it('without a deny rule, git log -p through shell.execute runs as before', async () => {
    const g = await open({ policy: { version: 1, rules: { allow: ['shell.execute(git:*)'] }, shell: { commands: { git: {} }, trustedDirs: ['/usr/bin', '/bin'] } } });
    git(g.workspace, 'init', '-q');
    writeFileSync(join(g.workspace, 'a.txt'), 'one\n');
    git(g.workspace, 'add', '.');
    git(g.workspace, 'commit', '-q', '-m', 'first');
    const r = await g.call('shell.execute', { command: 'git', args: ['log', '-p'] });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('+one');
  });

  it("git.log of '[최종]보고서.docx' lists that file's commits only", async () => {
    const g = await open();
    git(g.workspace, 'init', '-q');
    writeFileSync(join(g.workspace, '[최종]보고서.docx'), 'final\n');
    git(g.workspace, 'add', '.');
    git(g.workspace, 'commit', '-q', '-m', 'the final report');
    writeFileSync(join(g.workspace, '최보고서.docx'), 'other\n');
    git(g.workspace, 'add', '.');
    git(g.workspace, 'commit', '-q', '-m', 'another file');
    const r = await g.call('git.log', { file: '[최종]보고서.docx' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('the final report');
    expect(r.text).not.toContain('another file');
  });
});
