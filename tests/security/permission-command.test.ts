import { describe, expect, it } from 'vitest';
import { evaluatePermission } from '../../electron/main/policy';
import { commandQuery, effectiveFrom, fakeEnv, rules } from '../unit/policy/fixtures';

// COMMAND subjects are pure strings: nothing on disk is consulted.
const env = fakeEnv('linux', ['/nonexistent-ws'], '/nonexistent-home');

async function decide(allow: string[], deny: string[], argv: string[]) {
  const v = await evaluatePermission(effectiveFrom(rules(allow, [], deny)), commandQuery(argv), env);
  return v;
}

describe('COMMAND patterns', () => {
  const table: [string, string[], 'allow' | 'ask'][] = [
    ['git status:*', ['git', 'status'], 'allow'],
    ['git status:*', ['git', 'status', '--short'], 'allow'],
    ['git status:*', ['git', 'statusx'], 'ask'],
    ['git status:*', ['git'], 'ask'],
    ['git:*', ['gitk'], 'ask'],
    ['git:*', ['git', 'log'], 'allow'],
    ['git status', ['git', 'status'], 'allow'],
    ['git status', ['git', 'status', '-s'], 'ask'],
    // Only a trailing :* is a wildcard; other * are literal.
    ['ls *', ['ls', 'a.txt'], 'ask'],
    ['ls *', ['ls', '*'], 'allow'],
  ];
  for (const [pattern, argv, expected] of table) {
    it(`allow shell.execute(${pattern}) → '${argv.join(' ')}' is ${expected}`, async () => {
      expect((await decide([`shell.execute(${pattern})`], [], argv)).decision).toBe(expected);
    });
  }

  it('argv is joined by single spaces, so an argument with spaces cannot forge a prefix boundary', async () => {
    // ['git status', 'x'] joins to the same line as ['git', 'status', 'x']; the line is what rules see.
    expect((await decide(['shell.execute(git status:*)'], [], ['git status', 'x'])).decision).toBe('allow');
    expect((await decide(['shell.execute(git status:*)'], [], ['git', ' status'])).decision).toBe('ask');
  });
});

describe('shell metacharacters never match an allow rule, but deny still matches', () => {
  const attacks = [
    'git status; rm -rf /',
    'git status | sh',
    'git status && curl x',
    'git status `id`',
    'git status $(id)',
    'git status > /etc/passwd',
    'git status < /etc/shadow',
    'git status (x)',
    'git status\nrm -rf /',
    'git status\rrm',
    'git status\u2028rm',
    'git status\u2029rm',
  ];
  for (const line of attacks) {
    it(JSON.stringify(line), async () => {
      const allowed = await decide(['shell.execute(git status:*)', 'shell.execute'], [], [line]);
      expect([allowed.decision, allowed.rule]).toEqual(['ask', 'defaults.execute']);
      const denied = await decide(['shell.execute(git status:*)'], ['shell.execute(git status:*)'], [line]);
      expect(denied.decision).toBe('deny');
    });
  }

  it('a deny rule meets a program hidden after a metacharacter', async () => {
    for (const line of ['git status; rm -rf /', 'git log | rm -rf x', 'echo $(rm -rf ~)', 'ls\nrm  -rf /']) {
      const v = await decide(['shell.execute'], ['shell.execute(rm -rf:*)'], [line]);
      expect([v.decision, v.rule], line).toEqual(['deny', 'shell.execute(rm -rf:*)']);
    }
    expect((await decide([], ['shell.execute(rm:*)'], ['git', 'status', 'rmx;'])).decision).toBe('ask');
  });

  it('a deny prefix still matches a chained line', async () => {
    const v = await decide([], ['shell.execute(rm:*)'], ['rm', '-rf', '/;', 'echo']);
    expect([v.decision, v.rule, v.source]).toEqual(['deny', 'shell.execute(rm:*)', 'admin']);
    expect(v.reason?.en).toMatch(/filesystem\.search/);
  });
});

describe('COMMAND fail-closed cases', () => {
  it(':* anywhere but the end is uninterpretable → deny', async () => {
    const v = await decide(['shell.execute(git:* status)'], [], ['git', 'status']);
    expect([v.decision, v.rule]).toEqual(['deny', 'shell.execute(git:* status)']);
    expect(v.reason?.en).toMatch(/cannot be applied/);
  });

  it('an empty prefix (:* alone) is uninterpretable → deny', async () => {
    expect((await decide(['shell.execute(:*)'], [], ['ls'])).decision).toBe('deny');
  });

  it('an empty command line with a pattern rule configured → deny', async () => {
    const v = await decide(['shell.execute(git status:*)'], [], []);
    expect([v.decision, v.rule]).toEqual(['deny', 'shell.execute(git status:*)']);
    expect(v.reason?.en).toMatch(/no target/);
  });

  it('resolved records the command line', async () => {
    expect((await decide([], [], ['git', 'log'])).resolved).toEqual(['git log']);
  });
});
