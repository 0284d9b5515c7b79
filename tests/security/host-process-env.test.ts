import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProgramRefusal, RunOutcome } from '../../electron/common/process-capability';
import { testHost } from '../helpers/process-host';

/**
 * SPEC S-SHELL: only whitelisted variables reach a child; nothing else leaks (tokens, proxies).
 * The variables are set in THIS process's environment, the runner's default source, and the child
 * is the real /usr/bin/env printing what it received.
 */

const PLANTED: Readonly<Record<string, string>> = {
  BARAM_TEST_SECRET_TOKEN: 'hunter2',
  HTTPS_PROXY: 'http://proxy.invalid:8080',
  https_proxy: 'http://proxy.invalid:8080',
  NODE_OPTIONS: '--require /tmp/evil.js',
  LD_PRELOAD: '/tmp/evil.so',
  GIT_SSH_COMMAND: 'touch /tmp/pwned',
  LANG: 'ko_KR.UTF-8',
  LC_TIME: 'ko_KR.UTF-8',
  LC_MESSAGES: 'en_US.UTF-8',
};

let saved: Record<string, string | undefined> = {};

beforeEach(() => {
  saved = {};
  for (const [name, value] of Object.entries(PLANTED)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  saved['PATH'] = process.env['PATH'];
  process.env['PATH'] = `.:/tmp/workspace-bin:${process.env['PATH'] ?? ''}`;
});

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function childEnv(outcome: RunOutcome | ProgramRefusal): Map<string, string> {
  if (outcome.kind !== 'exited') throw new Error(`env did not run: ${outcome.kind}`);
  expect(outcome.exitCode).toBe(0);
  const env = new Map<string, string>();
  for (const line of outcome.output.text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) env.set(line.slice(0, eq), line.slice(eq + 1));
  }
  return env;
}

describe('child environment', () => {
  it('passes whitelisted variables and nothing else: no secret, no proxy, no loader variables', async () => {
    const host = testHost(['env'], { env: ['PATH', 'HOME', 'LANG', 'LC_*'] });
    const outcome = await host.run({ command: 'env', args: [], cwd: '/' });
    const env = childEnv(outcome);

    expect(env.has('BARAM_TEST_SECRET_TOKEN')).toBe(false);
    if (outcome.kind === 'exited') expect(outcome.output.text).not.toContain('hunter2');
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'NODE_OPTIONS', 'LD_PRELOAD', 'GIT_SSH_COMMAND']) expect(env.has(name)).toBe(false);

    expect(env.get('LANG')).toBe('ko_KR.UTF-8');
    expect(env.get('LC_TIME')).toBe('ko_KR.UTF-8'); // matched by the prefix entry LC_*
    expect(env.get('LC_MESSAGES')).toBe('en_US.UTF-8');
    if (process.env['HOME'] !== undefined) expect(env.get('HOME')).toBe(process.env['HOME']);
    // PATH is the trusted folders, not this process's PATH with '.' and a workspace folder in it.
    expect(env.get('PATH')).toBe('/usr/bin');
    // Nothing outside the whitelist at all, whatever else this machine's environment holds.
    expect([...env.keys()].filter((k) => !['PATH', 'HOME', 'LANG'].includes(k) && !k.startsWith('LC_'))).toEqual([]);
  });

  it('an empty whitelist gives an empty environment', async () => {
    const host = testHost(['env'], { env: [] });
    expect(childEnv(await host.run({ command: 'env', args: [], cwd: '/' })).size).toBe(0);
  });

  it("a lone '*' in the whitelist passes nothing rather than everything", async () => {
    const host = testHost(['env'], { env: ['*'] });
    expect(childEnv(await host.run({ command: 'env', args: [], cwd: '/' })).size).toBe(0);
  });

  it('a variable set after the host was created is still judged by the whitelist at run time', async () => {
    const host = testHost(['env'], { env: ['LANG'] });
    process.env['BARAM_LATE_SECRET'] = 'late';
    try {
      const env = childEnv(await host.run({ command: 'env', args: [], cwd: '/' }));
      expect([...env.keys()]).toEqual(['LANG']);
    } finally {
      delete process.env['BARAM_LATE_SECRET'];
    }
  });
});
