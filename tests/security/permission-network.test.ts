import { describe, expect, it } from 'vitest';
import { evaluatePermission } from '../../electron/main/policy';
import type { PermissionQuery } from '../../electron/main/policy/types';
import { effectiveFrom, fakeEnv, rules } from '../unit/policy/fixtures';

const env = fakeEnv('linux', ['/nonexistent-ws'], '/nonexistent-home');
const url = (u: string): PermissionQuery => ({ tool: 'http.request', known: true, risk: 'network', subject: { kind: 'URL', values: [u] } });
const host = (h: string): PermissionQuery => ({ tool: 'ssh.execute', known: true, risk: 'execute', subject: { kind: 'HOST', values: [h] } });

async function urlDecision(pattern: string, u: string) {
  return (await evaluatePermission(effectiveFrom(rules([`http.request(${pattern})`])), url(u), env)).decision;
}

describe('URL prefixes', () => {
  const table: [string, string, 'allow' | 'ask' | 'deny'][] = [
    ['http://intranet.example/wiki/', 'http://intranet.example/wiki/Main', 'allow'],
    ['http://intranet.example/wiki/', 'http://intranet.example/wiki/', 'allow'],
    ['http://intranet.example/wiki/', 'http://intranet.example/wikiX', 'ask'],
    ['http://intranet.example/wiki/', 'http://intranet.example/wiki', 'ask'],
    ['http://intranet.example/wiki', 'http://intranet.example/wiki', 'allow'],
    ['http://intranet.example/wiki', 'http://intranet.example/wiki/a?b=c', 'allow'],
    ['http://intranet.example/wiki', 'http://intranet.example/wikiX', 'ask'],
    // WHATWG normalisation: case of host, default port, dot segments (also percent-encoded ones).
    ['http://intranet.example/wiki/', 'HTTP://INTRANET.example:80/wiki/a', 'allow'],
    ['http://intranet.example/wiki/', 'http://intranet.example/wiki/../admin', 'ask'],
    // Encoded dots are refused before matching, even where the parser folds them (issue 14 class 10).
    ['http://intranet.example/wiki/', 'http://intranet.example/wiki/%2e%2e/admin', 'deny'],
    // Scheme, host and port must be equal.
    ['http://intranet.example/wiki/', 'https://intranet.example/wiki/a', 'ask'],
    ['http://intranet.example/wiki/', 'http://intranet.example:8080/wiki/a', 'ask'],
    ['http://intranet.example/wiki/', 'http://intranet.example.evil.test/wiki/a', 'ask'],
    ['http://intranet.example/wiki/', 'http://evil.test/http://intranet.example/wiki/', 'ask'],
    // A user name before '@' hides the real host from a reader: refused outright (issue 14 class 10).
    ['http://intranet.example/wiki/', 'http://intranet.example@evil.test/wiki/', 'deny'],
    ['http://intranet.example/', 'http://intranet.example/anything', 'allow'],
  ];
  for (const [pattern, u, expected] of table) {
    it(`${pattern} → ${u} is ${expected}`, async () => {
      expect(await urlDecision(pattern, u)).toBe(expected);
    });
  }

  it('an unparseable pattern, or one with a query, is uninterpretable and denies', async () => {
    for (const pattern of ['intranet.example/wiki/', 'http://intranet.example/?q=1', 'http://u:p@intranet.example/']) {
      const v = await evaluatePermission(effectiveFrom(rules([`http.request(${pattern})`])), url('http://intranet.example/wiki/'), env);
      expect([v.decision, v.rule], pattern).toEqual(['deny', `http.request(${pattern})`]);
    }
  });

  it('an unparseable URL with a pattern rule configured denies; records the normalised URL', async () => {
    const eff = effectiveFrom(rules(['http.request(http://intranet.example/)']));
    expect((await evaluatePermission(eff, url('not a url'), env)).decision).toBe('deny');
    expect((await evaluatePermission(eff, url('HTTP://Intranet.example'), env)).resolved).toEqual(['http://intranet.example/']);
  });
});

describe('HOST', () => {
  const table: [string, string, 'allow' | 'ask' | 'deny'][] = [
    ['build01', 'build01', 'allow'],
    ['build01', 'BUILD01', 'allow'],
    ['build01', 'build01.', 'allow'],
    ['build01', 'build011', 'ask'],
    ['build01', 'build01.evil.test', 'ask'],
    ['10.1.2.3', '10.1.2.3', 'allow'],
    ['10.1.2.3', '10.1.2.30', 'ask'],
    ['::1', '[::1]', 'allow'],
    ['*', 'anything', 'allow'],
  ];
  for (const [pattern, h, expected] of table) {
    it(`${pattern} → ${h} is ${expected}`, async () => {
      const v = await evaluatePermission(effectiveFrom(rules([`ssh.execute(${pattern})`])), host(h), env);
      expect(v.decision).toBe(expected);
    });
  }

  it('a partial wildcard or a non-host pattern is uninterpretable and denies', async () => {
    for (const pattern of ['build*', '*.example', 'http://build01/', '**/.ssh/**']) {
      const v = await evaluatePermission(effectiveFrom(rules([`ssh.execute(${pattern})`])), host('build01'), env);
      expect([v.decision, v.rule], pattern).toEqual(['deny', `ssh.execute(${pattern})`]);
      expect(v.reason?.en).toMatch(/cannot be applied/);
    }
  });
});
