import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileAccess } from '../../electron/common/file-access';
import { createFileAccess } from '../../electron/main/host/files';
import { createProcessHost, type ProcessHost } from '../../electron/main/host/process';
import { grammarFor } from '../../electron/main/host/process/grammar';
import { testShellPolicy, tempDir } from '../helpers/process-host';

/**
 * Issue 14 class 4: every program of the shipped whitelist (and find and tar, which an
 * administrator may add) refuses its code-running and path-escaping options in every spelling the
 * program itself accepts — long, abbreviated (git, getopt_long and GNU tar expand unambiguous
 * prefixes), glued short, `=value` and separate value — through the real process host, with its
 * path arguments held to a real FileAccess. Positive controls: the read-only uses still resolve
 * and run. docs/2026-12-03-programs-confined-by-grammar.md.
 *
 * On the old code (7c58b05^) resolve() took no call and the host ran any argv: every refusal row
 * here fails (checked in a worktree of that commit).
 */

let ws: string;
let outside: string;
let data: string;
let fake: string;
let cleanup: () => Promise<void>;
let files: FileAccess;
let host: ProcessHost;

beforeAll(async () => {
  const t = await tempDir('baram-grammar-');
  cleanup = t.cleanup;
  ws = join(t.dir, 'ws');
  outside = join(t.dir, 'outside');
  data = join(t.dir, 'data');
  fake = join(t.dir, 'bin');
  for (const d of [ws, outside, data, join(data, 'audit'), fake]) mkdirSync(d, { recursive: true });
  writeFileSync(join(data, 'audit', 'seal.key'), 'SECRET-SEAL-KEY\n');
  writeFileSync(join(outside, 'secret.txt'), 'outside secret\n');
  // ping is not installed here and hostname must never really be set: stand-ins that print their arguments.
  for (const name of ['ping', 'hostname']) {
    writeFileSync(join(fake, name), `#!/bin/sh\necho ${name} "$@"\n`, { mode: 0o755 });
  }
  const env = { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  execFileSync('/usr/bin/git', ['init', '-q'], { cwd: ws, env });
  writeFileSync(join(ws, 'a.txt'), 'one\n');
  execFileSync('/usr/bin/git', ['-c', 'user.name=t', '-c', 'user.email=t@x', 'add', 'a.txt'], { cwd: ws, env });
  execFileSync('/usr/bin/git', ['-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-q', '-m', 'one'], { cwd: ws, env });
  execFileSync('/usr/bin/tar', ['-cf', join(ws, 'a.tar'), 'a.txt'], { cwd: ws });
  files = await createFileAccess({ roots: [ws], trashDir: join(data, 'trash'), protectedPaths: [data] });
  host = createProcessHost({ shell: testShellPolicy(['git', 'tar', 'find', 'ping', 'hostname'], { trustedDirs: [fake, '/usr/bin', '/bin'] }), paths: files });
});

afterAll(async () => {
  await host?.closeAll();
  await cleanup?.();
});

async function verdict(command: string, args: readonly string[]): Promise<string> {
  const r = await host.resolve(command, { args, cwd: ws });
  return r.kind === 'refused' ? r.code : 'resolved';
}

const o = (p: string): string => join('..', 'outside', p); // relative escape
const D = (p: string): string => `@DATA@/${p}`;

/** Rows: [program, args]; '@OUT@' and '@DATA@' are replaced by the outside and data folders. */
const REFUSED: Record<string, readonly (readonly string[])[]> = {
  git: [
    // run a command through a shell
    ['grep', '-Otouch /tmp/x', 'one'],
    ['grep', '-O', 'touch /tmp/x', 'one'],
    ['grep', '--open-files-in-pager=touch /tmp/x', 'one'],
    ['grep', '--open-files-in-pager', 'touch /tmp/x', 'one'],
    ['grep', '--open=touch /tmp/x', 'one'],
    ['clone', '-u', 'touch /tmp/x', '.', 'y'],
    ['clone', '-utouch /tmp/x', '.', 'y'],
    ['clone', '--upload-pack=touch /tmp/x', '.', 'y'],
    ['clone', '--upload-pack', 'touch /tmp/x', '.', 'y'],
    ['clone', '--upl=touch /tmp/x', '.', 'y'],
    ['difftool', '-x', 'touch /tmp/x'],
    ['difftool', '--extcmd=touch /tmp/x'],
    ['difftool', '--extc', 'touch /tmp/x'],
    ['rebase', '-x', 'touch /tmp/x', 'HEAD'],
    ['rebase', '--exec=touch /tmp/x', 'HEAD'],
    ['config', 'core.fsmonitor', 'touch /tmp/x'],
    ['-c', 'core.pager=touch /tmp/x', 'log'],
    ['-ccore.pager=touch /tmp/x', 'log'],
    ['--config-env=core.pager=X', 'log'],
    ['--exec-path=/tmp', 'status'],
    ['log', '--ext-diff'],
    ['log', '--ext'],
    ['diff', '--textconv'],
    ['log', '--show-signature'],
    ['log', '--sh'],
    // write a file
    ['log', '--output=@OUT@/x'],
    ['log', '--output', '@OUT@/x'],
    ['log', '--out=@OUT@/x'],
    ['diff', '--outp', '@OUT@/x'],
    ['init', D('audit/x')],
    ['init', '@OUT@/r'],
    // read outside the workspace
    ['-C', '@OUT@', 'status'],
    ['-C@OUT@', 'status'],
    ['--git-dir=@OUT@/.git', 'log'],
    ['--git-dir', '@OUT@/.git', 'log'],
    ['--git-d=@OUT@/.git', 'log'],
    ['--work-tree=@OUT@', 'status'],
    ['--work-tree', '@OUT@', 'status'],
    ['--work=@OUT@', 'status'],
    ['diff', '--no-index', D('audit/seal.key'), 'a.txt'],
    ['diff', '--no-ind', D('audit/seal.key'), 'a.txt'],
    ['diff', D('audit/seal.key'), 'a.txt'],
    ['diff', '--', D('audit/seal.key')],
    ['diff', '@OUT@/secret.txt', 'a.txt'],
    ['diff', o('secret.txt'), 'a.txt'],
    ['diff', '-O@OUT@/secret.txt'],
    ['diff', '-O', '@OUT@/secret.txt'],
    ['log', '--', o('secret.txt')],
    ['status', '--', D('audit')],
    ['blame', '--contents', '@OUT@/secret.txt', 'a.txt'],
    ['blame', '--contents=@OUT@/secret.txt', 'a.txt'],
    ['blame', '-S', '@OUT@/secret.txt', 'a.txt'],
    ['ls-files', '--exclude-from=@OUT@/secret.txt'],
    ['ls-files', '-X', '@OUT@/secret.txt'],
    ['ls-files', '-X@OUT@/secret.txt'],
    // creates a branch (writes the repository)
    ['branch', 'newname'],
    ['branch', '-a', 'newname'],
    ['tag', 'v9'],
    ['branch', '-D', 'master'],
    [],
  ],
  tar: [
    ['-t', '-f', 'a.tar', '--checkpoint=1', '--checkpoint-action=exec=touch /tmp/x'],
    ['-t', '-f', 'a.tar', '--checkpoint-action', 'exec=touch /tmp/x'],
    ['-t', '-f', 'a.tar', '--checkpoint-a=exec=touch /tmp/x'],
    ['-tf', 'a.tar', '-I', 'touch /tmp/x'],
    ['-tf', 'a.tar', '-Itouch /tmp/x'],
    ['-tIsh', '-f', 'a.tar'],
    ['-t', '-f', 'a.tar', '--use-compress-program=touch /tmp/x'],
    ['-t', '-f', 'a.tar', '--use-compress-program', 'touch /tmp/x'],
    ['-t', '-f', 'a.tar', '--use-c=touch /tmp/x'],
    ['-t', '-f', 'a.tar', '--to-command=sh'],
    ['-t', '-f', 'a.tar', '--rsh-command=/bin/sh'],
    ['-t', '-f', 'a.tar', '-F', 'touch /tmp/x'],
    ['-t', '-f', 'a.tar', '--info-script=touch /tmp/x'],
    ['-t', '-f', 'a.tar', '--new-volume-script', 'x'],
    ['-x', '-f', 'a.tar'],
    ['-xf', 'a.tar'],
    ['--extract', '--file=a.tar'],
    ['--ext', '--file=a.tar'],
    ['-c', '-f', '@OUT@/w.tar', 'a.txt'],
    ['-cf', '@OUT@/w.tar', 'a.txt'],
    ['-cf@OUT@/w.tar', 'a.txt'],
    ['--create', '--file=@OUT@/w.tar', 'a.txt'],
    ['--create', '--file', '@OUT@/w.tar', 'a.txt'],
    ['-t', '-f', '@OUT@/w.tar'],
    ['-tf', o('w.tar')],
    ['-t', '--file=@OUT@/w.tar'],
    ['-tf', D('audit/seal.key')],
    ['-t', '-C', '@OUT@', '-f', 'a.tar'],
    ['tvf', 'a.tar'],
    ['-t', 'a.tar'],
  ],
  find: [
    ['.', '-exec', 'touch', '/tmp/x', ';'],
    ['.', '-execdir', 'touch', 'x', ';'],
    ['.', '-ok', 'touch', 'x', ';'],
    ['.', '-okdir', 'touch', 'x', ';'],
    ['.', '-delete'],
    ['.', '-fprint', '@OUT@/list'],
    ['.', '-fprint0', '@OUT@/list'],
    ['.', '-fprintf', '@OUT@/list', '%p'],
    ['.', '-fls', '@OUT@/list'],
    ['-L', '.'],
    ['-H', '.'],
    ['.', '-follow'],
    ['@OUT@'],
    [o('')],
    ['.', '@OUT@', '-name', 'x'],
    [D('audit')],
    ['.', '-newer', '@OUT@/secret.txt'],
    ['.', '-files0-from', '@OUT@/secret.txt'],
    ['-files0-from=@OUT@/secret.txt'],
  ],
  ping: [
    ['-f', 'localhost'],
    ['-c', '1', '-f', 'localhost'],
    ['-fc1', 'localhost'],
    ['-b', '255.255.255.255'],
    ['-I', 'eth0', 'localhost'],
    ['-Ieth0', 'localhost'],
    ['-p', 'ff', 'localhost'],
    ['-i', '0.001', 'localhost'],
    ['-i0', 'localhost'],
    ['-l', '100', 'localhost'],
    ['--flood', 'localhost'],
    ['-c', '1'],
    ['-c', '1', 'a', 'b'],
    ['-c', '1', '--', '-f'],
    ['-c', '1', '/etc/hosts'],
  ],
  hostname: [
    ['evil-name'],
    ['-s', 'evil-name'],
    ['-F', '/etc/hostname'],
    ['-F/etc/hostname'],
    ['--file=/etc/hostname'],
    ['--file', '/etc/hostname'],
    ['--fi=/etc/hostname'],
    ['-b', 'evil'],
    ['--boot'],
    ['--short=evil'],
  ],
};

const ALLOWED: Record<string, readonly (readonly string[])[]> = {
  git: [
    ['status'],
    ['status', '-sb'],
    ['status', '--porcelain=v2', '-uno'],
    ['--version'],
    ['log', '--oneline', '-n', '5'],
    ['log', '-n5', '--format=%H %s', '--', 'a.txt'],
    ['log', '-3', '--stat'],
    ['diff', 'HEAD', '--', 'a.txt'],
    ['diff', '--cached', '--name-only'],
    ['show', 'HEAD:a.txt'],
    ['show', '--stat', 'HEAD~0'],
    ['blame', '-L', '1,1', 'a.txt'],
    ['branch', '--list', 'ma*'],
    ['branch', '-vv'],
    ['rev-parse', '--abbrev-ref', 'HEAD'],
    ['ls-files'],
    ['describe', '--always'],
  ],
  tar: [['-tf', 'a.tar'], ['-tvf', 'a.tar'], ['--list', '--file=a.tar'], ['-t', '-v', '-f', 'a.tar', 'a.txt']],
  find: [[], ['.'], ['.', '-name', '*.txt', '-type', 'f'], ['.', '-maxdepth', '1', '-newer', 'a.txt', '-print'], ['.', '(', '-name', 'a*', '-o', '-name', 'b*', ')', '-size', '+0']],
  ping: [['-c', '1', 'localhost'], ['-c1', '-W', '1', '127.0.0.1'], ['-n', '-q', '-c', '2', '-i', '0.2', 'intranet.example'], ['-6', '-c', '1', '::1']],
  hostname: [[], ['-s'], ['--fqdn'], ['-I']],
};

const subst = (args: readonly string[]): string[] => args.map((a) => a.replace('@OUT@', outside).replace('@DATA@', data));

describe('program grammars refuse code-running and path-escaping options in every spelling', () => {
  for (const [program, rows] of Object.entries(REFUSED)) {
    it(`${program}: ${rows.length} refused spellings`, async () => {
      const results: Record<string, string> = {};
      for (const args of rows) results[JSON.stringify(args)] = await verdict(program, subst(args));
      const notRefused = Object.entries(results).filter(([, v]) => v === 'resolved');
      expect(notRefused).toEqual([]);
    });
  }
  for (const [program, rows] of Object.entries(ALLOWED)) {
    it(`${program}: read-only uses still resolve (control)`, async () => {
      for (const args of rows) expect({ args, v: await verdict(program, args) }).toEqual({ args, v: 'resolved' });
    });
  }

  it('the run path refuses too (not only precheck), and runs the read-only ones', async () => {
    const marker = join(outside, 'ran');
    const refused = await host.run({ command: 'find', args: ['.', '-exec', 'touch', marker, ';'], cwd: ws });
    expect(refused.kind).toBe('refused');
    const tar = await host.run({ command: 'tar', args: ['-tf', 'a.tar', '--checkpoint=1', `--checkpoint-action=exec=touch ${marker}`], cwd: ws });
    expect(tar.kind).toBe('refused');
    const listed = await host.run({ command: 'tar', args: ['-tf', 'a.tar'], cwd: ws });
    expect(listed.kind === 'exited' && listed.output.text).toBe('a.txt\n');
    const found = await host.run({ command: 'find', args: ['.', '-name', '*.txt'], cwd: ws });
    expect(found.kind === 'exited' && found.output.text).toBe('./a.txt\n');
    const ping = await host.run({ command: 'ping', args: ['-c', '1', 'localhost'], cwd: ws });
    expect(ping.kind === 'exited' && ping.output.text).toBe('ping -c 1 localhost\n');
    const git = await host.run({ command: 'git', args: ['log', '--format=%s'], cwd: ws });
    expect(git.kind === 'exited' && git.output.text).toBe('one\n');
    expect(() => execFileSync('ls', [marker])).toThrow();
  });

  it('git ignores GIT_* variables even when the administrator whitelists them (GIT_DIR, GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF)', async () => {
    const marker = join(outside, 'env-ran');
    const env = { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    execFileSync('/usr/bin/git', ['init', '-q', join(outside, 'other')], { env });
    const leaky = createProcessHost({
      shell: testShellPolicy(['git'], { env: ['PATH', 'GIT_*'] }),
      paths: files,
      environment: {
        PATH: '/usr/bin:/bin',
        GIT_DIR: join(outside, 'other', '.git'),
        GIT_WORK_TREE: outside,
        GIT_CONFIG_PARAMETERS: `'core.pager=touch ${marker}' 'diff.external=touch ${marker}'`,
        GIT_EXTERNAL_DIFF: `/bin/sh -c 'touch ${marker}'`,
        GIT_PAGER: `touch ${marker}`,
      },
    });
    try {
      writeFileSync(join(ws, 'a.txt'), 'changed\n');
      const r = await leaky.run({ command: 'git', args: ['diff', '--stat'], cwd: ws });
      expect(r.kind === 'exited' && r.output.text).toContain('a.txt');
      const log = await leaky.run({ command: 'git', args: ['log', '--format=%s'], cwd: ws });
      expect(log.kind === 'exited' && log.output.text).toBe('one\n'); // this repository, not GIT_DIR's (empty) one
      expect(() => execFileSync('ls', [marker])).toThrow();
    } finally {
      writeFileSync(join(ws, 'a.txt'), 'one\n');
      await leaky.closeAll();
    }
  });

  it('a refusal says what to write instead (abbreviation → the full spelling)', async () => {
    const r = await host.resolve('git', { args: ['log', '--onel'], cwd: ws });
    expect(r.kind === 'refused' && r.message.en).toContain("'--oneline'");
    const sub = await host.resolve('git', { args: ['grep', 'x'], cwd: ws });
    expect(sub.kind === 'refused' && sub.message.en).toMatch(/read-only git subcommands status, log, show, diff/);
    const path = await host.resolve('git', { args: ['log', '--', join(outside, 'secret.txt')], cwd: ws });
    expect(path.kind === 'refused' && path.code).toBe('PATH_NOT_ALLOWED');
  });

  it('Windows spellings: ping.exe takes -n/-w/-l, hostname.exe takes nothing, git.exe is judged as git', () => {
    const ok = (c: string, args: string[]) => grammarFor(c, 'win32')?.check(args, 'win32').ok;
    expect(ok('ping', ['-n', '2', '-w', '1000', 'intranet'])).toBe(true);
    expect(ok('ping', ['-t', 'intranet'])).toBe(false); // ping until stopped
    expect(ok('ping', ['-c', '1', 'intranet'])).toBe(false);
    expect(ok('ping', ['/n', '1', 'intranet'])).toBe(false);
    expect(ok('hostname', [])).toBe(true);
    expect(ok('hostname', ['-s'])).toBe(false);
    expect(ok('hostname', ['evil'])).toBe(false);
    expect(ok('Git.exe', ['-C', 'C:\\x', 'status'])).toBe(false);
    expect(ok('git', ['status', '-sb'])).toBe(true);
  });

  it('a whitelisted alias of git (a link named g) is judged by git\'s grammar', async () => {
    symlinkSync('/usr/bin/git', join(fake, 'g'));
    const aliased = createProcessHost({ shell: testShellPolicy(['g'], { trustedDirs: [fake, '/usr/bin'] }), paths: files });
    try {
      const r = await aliased.resolve('g', { args: ['-C', outside, 'status'], cwd: ws });
      expect(r.kind === 'refused' && r.code).toBe('ARGUMENT_NOT_ALLOWED');
      const ok = await aliased.run({ command: 'g', args: ['log', '--format=%s'], cwd: ws });
      expect(ok.kind === 'exited' && ok.output.text).toBe('one\n');
    } finally {
      await aliased.closeAll();
    }
  });
});
