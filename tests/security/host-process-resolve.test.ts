import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgramRefusal, ProgramRefusalCode, ResolvedProgram } from '../../electron/common/process-capability';
import type { ProgramFileView, ProgramStat } from '../../electron/main/host/process/program-files';
import { locateProgram } from '../../electron/main/host/process/resolve-program';
import { tempDir, testHost } from '../helpers/process-host';

/**
 * SPEC S-SHELL: the command is a bare whitelisted name, resolved only in the policy's trusted
 * folders (never the working folder, never PATH), the resolved path recorded; Windows .bat/.cmd are
 * refused. Real files, real symlinks and real processes on this host; the Windows rules through a
 * simulated file view (they cannot run here).
 */

const gitPath = (() => {
  try {
    return execFileSync('/usr/bin/which', ['git'], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
})();

let work: { readonly dir: string; cleanup(): Promise<void> };
let ws: string;
let trusted: string;
let outside: string;
let marker: string;

/** An executable shell script that leaves `marker` behind if it ever runs. */
async function plantScript(file: string, mode = 0o755): Promise<void> {
  await writeFile(file, `#!/bin/sh\necho planted-ran\ntouch '${marker}'\n`);
  await chmod(file, mode);
}

beforeAll(async () => {
  work = await tempDir('baram-resolve-');
  ws = path.join(work.dir, 'workspace');
  trusted = path.join(work.dir, 'trusted');
  outside = path.join(work.dir, 'outside');
  marker = path.join(work.dir, 'MARKER');
  await Promise.all([mkdir(ws), mkdir(trusted, { mode: 0o755 }), mkdir(outside)]);
  // Plants in the workspace: the program itself, and a git helper git would look up by name.
  await plantScript(path.join(ws, 'git'));
  await plantScript(path.join(ws, 'git-planted'));
  await plantScript(path.join(ws, 'tool'));
  // The trusted folder: a real tool, a link out of the trusted folders, a non-executable file, a
  // folder, a world-writable tool, and a link to a tool in another trusted folder.
  await writeFile(path.join(trusted, 'good'), '#!/bin/sh\necho good-ran\n', { mode: 0o755 });
  await plantScript(path.join(outside, 'escape'));
  await symlink(path.join(outside, 'escape'), path.join(trusted, 'escape'));
  await writeFile(path.join(trusted, 'noexec'), '#!/bin/sh\necho hi\n', { mode: 0o644 });
  await mkdir(path.join(trusted, 'folder'));
  await writeFile(path.join(trusted, 'loose'), '#!/bin/sh\necho loose\n');
  await chmod(path.join(trusted, 'loose'), 0o777);
  await symlink('/usr/bin/env', path.join(trusted, 'envlink'));
});

afterAll(async () => {
  await work.cleanup();
});

function refusedWith(result: ResolvedProgram | ProgramRefusal | { kind: string }, code: ProgramRefusalCode): ProgramRefusal {
  expect(result.kind).toBe('refused');
  const refusal = result as ProgramRefusal;
  expect(refusal.code).toBe(code);
  expect(refusal.message.ko.length).toBeGreaterThan(10);
  expect(refusal.message.en.length).toBeGreaterThan(10);
  return refusal;
}

describe('program names: bare names only', () => {
  const host = testHost(['git', 'env']);
  const cases: readonly (readonly [string, ProgramRefusalCode])[] = [
    ['./git', 'PATH_SEPARATOR'],
    ['/usr/bin/git', 'PATH_SEPARATOR'],
    ['..\\git', 'PATH_SEPARATOR'],
    ['C:\\x\\git.exe', 'PATH_SEPARATOR'],
    ['git\u0000x', 'INVALID_CHARACTERS'],
    ['git\nrm', 'INVALID_CHARACTERS'],
    ['FOO=1', 'ENVIRONMENT_ASSIGNMENT'],
    ['FOO=1 git', 'ENVIRONMENT_ASSIGNMENT'],
    ['git status', 'ARGUMENTS_IN_NAME'],
    ['git|sh', 'SHELL_SYNTAX'],
    ['git>out', 'SHELL_SYNTAX'],
    ['$(git)', 'SHELL_SYNTAX'],
    ['g*t', 'SHELL_SYNTAX'],
    ['..', 'INVALID_NAME'],
    ['.', 'INVALID_NAME'],
    ['', 'EMPTY'],
    ['   ', 'EMPTY'],
    ['rm', 'NOT_WHITELISTED'],
    ['Git', 'NOT_WHITELISTED'],
  ];
  for (const [command, code] of cases) {
    it(`${JSON.stringify(command)} → ${code}`, async () => {
      refusedWith(await host.resolve(command), code);
    });
  }

  it('the signposts say what to write instead', async () => {
    const dotSlash = refusedWith(await host.resolve('./git'), 'PATH_SEPARATOR');
    expect(dotSlash.message.ko).toContain("'git'처럼 이름만 쓰세요");
    expect(dotSlash.message.en).toContain("use the bare name 'git'");
    const glued = refusedWith(await host.resolve('git status'), 'ARGUMENTS_IN_NAME');
    expect(glued.message.en).toContain("command 'git', args [\"status\"]");
    const caseSlip = refusedWith(await host.resolve('Git'), 'NOT_WHITELISTED');
    expect(caseSlip.message.en).toContain("If you meant 'git'");
  });

  it('an argument with NUL is refused before anything runs', async () => {
    refusedWith(await host.run({ command: 'env', args: ['a\u0000b'], cwd: '/' }), 'INVALID_ARGUMENT');
  });
});

describe('resolution in trusted folders only', () => {
  it.skipIf(gitPath === '')('a planted git in the workspace never runs; /usr/bin/git does, and is recorded', async () => {
    const previousPath = process.env['PATH'];
    process.env['PATH'] = `${ws}:.:${previousPath ?? ''}`; // even this process's PATH points at the plant
    try {
      const host = testHost(['git']);
      const outcome = await host.run({ command: 'git', args: ['--version'], cwd: ws });
      expect(outcome.kind).toBe('exited');
      if (outcome.kind !== 'exited') return;
      expect(outcome.output.text).toMatch(/^git version /);
      expect(outcome.program.path).toBe('/usr/bin/git');
      expect(outcome.program.realPath).toBe(gitPath === '/usr/bin/git' ? '/usr/bin/git' : outcome.program.realPath);
      expect(outcome.program.sha256).toMatch(/^[0-9a-f]{64}$/);
      // git looks helpers up on PATH ('git planted' → git-planted): PATH is the trusted folders only,
      // and git's grammar refuses a subcommand it does not list before git could look (issue 14).
      const helper = await host.run({ command: 'git', args: ['planted'], cwd: ws });
      expect(helper.kind).toBe('refused');
      expect(existsSync(marker)).toBe(false);
    } finally {
      process.env['PATH'] = previousPath;
    }
  });

  it('a program that exists only in the workspace is not found, and the plant never runs', async () => {
    const host = testHost(['tool']);
    const refusal = refusedWith(await host.run({ command: 'tool', args: [], cwd: ws }), 'NOT_FOUND');
    expect(refusal.message.en).toContain('/usr/bin');
    expect(existsSync(marker)).toBe(false);
  });

  it('a symlink in a trusted folder that points outside every trusted folder is refused', async () => {
    const host = testHost(['escape'], { trustedDirs: [trusted] });
    const refusal = refusedWith(await host.run({ command: 'escape', args: [], cwd: ws }), 'OUTSIDE_TRUSTED_DIRS');
    expect(refusal.message.en).toContain(path.join(outside, 'escape'));
    expect(existsSync(marker)).toBe(false);
  });

  it('a symlink to a program in another trusted folder is fine: the real path is what runs and is hashed', async () => {
    const host = testHost(['envlink'], { trustedDirs: [trusted, '/usr/bin'] });
    const program = await host.resolve('envlink');
    expect(program.kind).toBe('resolved');
    if (program.kind !== 'resolved') return;
    expect(program.path).toBe(path.join(trusted, 'envlink'));
    expect(program.realPath).toBe('/usr/bin/env');
    const direct = await testHost(['env']).resolve('env');
    expect(direct.kind === 'resolved' && direct.sha256).toBe(program.sha256);
  });

  it('a non-executable file and a folder are refused', async () => {
    const host = testHost(['noexec', 'folder'], { trustedDirs: [trusted] });
    refusedWith(await host.resolve('noexec'), 'NOT_EXECUTABLE');
    refusedWith(await host.resolve('folder'), 'NOT_EXECUTABLE');
  });

  it('a world-writable program is refused (anyone could swap it)', async () => {
    const host = testHost(['loose'], { trustedDirs: [trusted] });
    refusedWith(await host.resolve('loose'), 'UNSAFE_PERMISSIONS');
  });

  it('the first trusted folder with the name decides; a relative trusted folder is ignored', async () => {
    const host = testHost(['good', 'tool'], { trustedDirs: ['workspace', trusted, '/usr/bin'] });
    const good = await host.resolve('good');
    expect(good.kind === 'resolved' && good.path).toBe(path.join(trusted, 'good'));
    const previousCwd = process.cwd();
    process.chdir(work.dir); // 'workspace' would now name the planted folder
    try {
      refusedWith(await host.resolve('tool'), 'NOT_FOUND');
    } finally {
      process.chdir(previousCwd);
    }
  });

  it('a program changed after approval is refused (CHANGED) and does not run', async () => {
    const host = testHost(['good'], { trustedDirs: [trusted] });
    const approved = await host.resolve('good');
    if (approved.kind !== 'resolved') throw new Error(approved.message.en);
    await writeFile(path.join(trusted, 'good'), `#!/bin/sh\ntouch '${marker}'\n`);
    try {
      const outcome = await host.run({ command: 'good', args: [], cwd: ws, expected: approved });
      refusedWith(outcome, 'CHANGED');
      expect(existsSync(marker)).toBe(false);
    } finally {
      await writeFile(path.join(trusted, 'good'), '#!/bin/sh\necho good-ran\n');
    }
    const again = await host.run({ command: 'good', args: [], cwd: ws });
    expect(again.kind === 'exited' && again.output.text).toBe('good-ran\n');
  });

  it('a missing working folder is a start failure, not a crash; a relative one is a bug (throws)', async () => {
    const host = testHost(['env']);
    const missing = await host.run({ command: 'env', args: [], cwd: path.join(work.dir, 'nope') });
    expect(missing.kind).toBe('failed-to-start');
    if (missing.kind === 'failed-to-start') expect(missing.code).toBe('CWD_NOT_FOUND');
    await expect(host.run({ command: 'env', args: [], cwd: 'relative' })).rejects.toThrow(/absolute/);
  });
});

describe('Windows rules (simulated file view; cannot run on this host)', () => {
  /** A case-insensitive Windows file system: lower-cased path → entry; links by realpath. */
  function windowsView(files: Readonly<Record<string, { readonly link?: string; readonly dir?: boolean }>>): ProgramFileView {
    const entries = new Map(Object.entries(files).map(([p, e]) => [p.toLowerCase(), e]));
    const dirs = new Set(['c:\\windows\\system32', 'c:\\program files\\git\\cmd', 'c:\\tools', 'c:\\users\\me\\ws']);
    const real = (p: string): string | null => {
      const key = p.toLowerCase();
      if (dirs.has(key)) return p;
      const entry = entries.get(key);
      if (!entry) return null;
      return entry.link ?? p;
    };
    const stat = (p: string): ProgramStat | null => {
      const target = real(p);
      if (target === null) return null;
      const key = target.toLowerCase();
      if (dirs.has(key) || entries.get(key)?.dir) return { isFile: false, isDirectory: true, mode: 0, size: 0, mtimeMs: 0, ino: 0 };
      return { isFile: true, isDirectory: false, mode: 0, size: 100, mtimeMs: 1, ino: 1 };
    };
    return {
      platform: 'win32',
      stat: async (p) => stat(p),
      realpath: async (p) => real(p),
      canExecute: async () => true,
    };
  }

  const view = windowsView({
    'C:\\Program Files\\Git\\cmd\\git.exe': {},
    'C:\\Windows\\System32\\where.exe': {},
    'C:\\Windows\\System32\\more.com': {},
    'C:\\Tools\\npm.cmd': {},
    'C:\\Tools\\build.bat': {},
    'C:\\Tools\\hostname.bat': {},
    'C:\\Windows\\System32\\hostname.exe': {},
    'C:\\Tools\\sneaky.exe': { link: 'C:\\Users\\me\\ws\\sneaky.exe' },
    'C:\\Users\\me\\ws\\sneaky.exe': {},
    'C:\\Tools\\wrapped.exe': { link: 'C:\\Tools\\wrapped.cmd' },
    'C:\\Tools\\wrapped.cmd': {},
  });
  const trustedDirs = ['C:\\Tools', 'C:\\Windows\\System32', 'C:\\Program Files\\Git\\cmd'];
  const lookup = (commands: readonly string[]) => ({ trustedDirs, commands, view });

  it('finds git.exe by its bare name, case-insensitively inside the trusted folder', async () => {
    const found = await locateProgram('git', lookup(['git']));
    expect(found.kind).toBe('located');
    if (found.kind === 'located') expect(found.path).toBe('C:\\Program Files\\Git\\cmd\\git.exe');
    const com = await locateProgram('more', lookup(['more']));
    expect(com.kind === 'located' && com.path).toBe('C:\\Windows\\System32\\more.com');
  });

  it('refuses .bat and .cmd, whether named or found first by extension order', async () => {
    refusedWith(await locateProgram('npm', lookup(['npm'])), 'BATCH_FILE');
    refusedWith(await locateProgram('build.bat', lookup(['build.bat'])), 'BATCH_FILE');
    refusedWith(await locateProgram('npm.CMD', lookup(['npm.CMD'])), 'BATCH_FILE');
    // hostname.bat in the first trusted folder shadows hostname.exe in a later one: refused, not skipped.
    const shadow = refusedWith(await locateProgram('hostname', lookup(['hostname'])), 'BATCH_FILE');
    expect(shadow.message.en).toContain('C:\\Tools\\hostname.bat');
    // An .exe name that is really a link to a batch file.
    refusedWith(await locateProgram('wrapped', lookup(['wrapped'])), 'BATCH_FILE');
  });

  it('refuses paths, drive prefixes, streams, device names, trailing dots and other script types', async () => {
    const cases: readonly (readonly [string, ProgramRefusalCode])[] = [
      ['C:\\x\\git.exe', 'PATH_SEPARATOR'],
      ['C:git.exe', 'PATH_SEPARATOR'],
      ['git.exe:evil', 'PATH_SEPARATOR'],
      ['.\\git', 'PATH_SEPARATOR'],
      ['NUL', 'INVALID_NAME'],
      ['com1.exe', 'INVALID_NAME'],
      ['git.', 'INVALID_NAME'],
      ['build.bat.', 'INVALID_NAME'],
      ['git ', 'ARGUMENTS_IN_NAME'],
      ['setup.ps1', 'NOT_A_PROGRAM'],
      ['run.vbs', 'NOT_A_PROGRAM'],
    ];
    for (const [command, code] of cases) refusedWith(await locateProgram(command, lookup([command])), code);
    const suggestion = refusedWith(await locateProgram('C:\\x\\git.exe', lookup(['git'])), 'PATH_SEPARATOR');
    expect(suggestion.message.en).toContain("'git'");
  });

  it("'git.exe' is not the whitelisted 'git' (exact match), with a hint", async () => {
    const refusal = refusedWith(await locateProgram('git.exe', lookup(['git'])), 'NOT_WHITELISTED');
    expect(refusal.message.en).toContain("If you meant 'git'");
  });

  it('a link from a trusted folder into the workspace is refused', async () => {
    refusedWith(await locateProgram('sneaky', lookup(['sneaky'])), 'OUTSIDE_TRUSTED_DIRS');
  });

  it('never looks in the working folder: a program only in the workspace is not found', async () => {
    refusedWith(await locateProgram('evil', lookup(['evil'])), 'NOT_FOUND');
  });
});
