import { describe, expect, it } from 'vitest';
import { evaluatePermission } from '../../electron/main/policy';
import { effectiveFrom, fakeEnv, pathQuery, rules } from '../unit/policy/fixtures';

// A simulated Windows machine: pure path arithmetic, the disk is never consulted for C:\ paths.
const env = fakeEnv('win32', ['C:\\Users\\kim\\Documents\\Baram'], 'C:\\Users\\kim', ['C:\\ProgramData\\Baram']);
const win = (fields: Record<string, unknown> = {}) => effectiveFrom(fields, { platform: 'win32', home: 'C:\\Users\\kim' });

async function read(values: string[], eff = win()) {
  return evaluatePermission(eff, pathQuery('filesystem.read', values), env);
}
async function write(values: string[], eff = win()) {
  return evaluatePermission(eff, pathQuery('filesystem.write', values, 'write'), env);
}

describe('PATH on Windows', () => {
  it('resolves relative paths with either separator against the first root', async () => {
    const v = await read(['reports\\2024/a.xlsx']);
    expect([v.decision, v.resolved]).toEqual(['allow', ['C:\\Users\\kim\\Documents\\Baram\\reports\\2024\\a.xlsx']]);
  });

  for (const escape of ['..\\..\\secret.txt', 'sub\\..\\..\\x', '..//x', 'C:\\Users\\kim\\Documents\\Baram\\..\\x', '~\\..\\..', '\\Windows\\System32\\config', 'D:\\data\\a.txt', '\\\\server\\share\\a.txt']) {
    it(`denies '${escape}' as outside the workspace`, async () => {
      expect((await read([escape])).rule).toBe('workspaceRoots');
    });
  }

  it("denies drive-relative 'D:x', which depends on the process's current folder on D:", async () => {
    expect((await read(['D:x'])).rule).toBe('invalid-path');
  });

  it('compares roots, rules and protected paths case-insensitively', async () => {
    expect((await read(['c:\\users\\KIM\\documents\\baram\\A.TXT'])).decision).toBe('allow');
    const eff = win(rules([], [], ['filesystem.*(**/.ssh/**)', 'filesystem.read(Secret/**)']));
    expect((await read(['.SSH\\id_rsa'], eff)).rule).toBe('filesystem.*(**/.ssh/**)');
    expect((await read(['secret\\x.txt'], eff)).rule).toBe('filesystem.read(Secret/**)');
    const rootEnv = { ...env, roots: ['C:\\ProgramData'] };
    const v = await evaluatePermission(win(), pathQuery('filesystem.read', ['C:\\PROGRAMDATA\\baram\\audit\\x']), rootEnv);
    expect(v.rule).toBe('protected');
  });

  it('a backslash pattern is a Windows path', async () => {
    const eff = win(rules([], [], ['filesystem.read(C:\\Users\\kim\\Documents\\Baram\\hr\\**)']));
    expect((await read(['HR\\pay.xlsx'], eff)).decision).toBe('deny');
  });

  it('Win32 name quirks cannot smuggle an execution-equivalent write', async () => {
    for (const p of ['run.bat.', 'run.bat ', 'run.bat::$DATA', 'RUN.BAT. . ', '.git.\\hooks\\pre-commit', '.git\\config']) {
      expect((await write([p])).rule, p).toBe('execution-equivalent-write');
    }
    expect((await write(['run.bat.txt'])).decision).toBe('ask');
  });
});
