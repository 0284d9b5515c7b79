import { describe, expect, it } from 'vitest';
import { evaluatePermission, parsePolicyText, urlAmbiguity, urlMatcher } from '../../../electron/main/policy';
import type { PermissionQuery } from '../../../electron/main/policy/types';
import { effectiveFrom, fakeEnv, rules } from './fixtures';

/** Issue 14 class 10: which URL paths are refused as ambiguous, and which pass. */

const amb = (u: string) => urlAmbiguity(new URL(u), u)?.kind ?? null;

describe('urlAmbiguity', () => {
  const refused: [string, string][] = [
    ['http://h/wiki/..%2fadmin', 'encoded-separator'],
    ['http://h/wiki/..%2Fadmin', 'encoded-separator'],
    ['http://h/wiki/..%5cadmin', 'encoded-separator'],
    ['http://h/wiki/a%3Fb', 'encoded-separator'],
    ['http://h/wiki/a%23b', 'encoded-separator'],
    ['http://h/wiki/%252fadmin', 'double-encoding'],
    ['http://h/wiki/%252E%252E/admin', 'double-encoding'],
    ['http://h/wiki/%2e%2E/admin', 'encoded-dot'], // folded by the parser: caught in the text as written
    ['http://h/wiki/.%2E/admin', 'encoded-dot'],
    ['http://h/wiki/x%2Ey', 'encoded-dot'],
    ['http://h/wiki/..;/admin', 'path-parameter'],
    ['http://h/wiki/page;jsessionid=1', 'path-parameter'],
    ['http://h/wiki/%C0%AF', 'bad-encoding'],
    ['http://h/wiki/%c0%ae%c0%ae/admin', 'bad-encoding'],
    ['http://h/wiki/%E0%80%AF', 'bad-encoding'],
    ['http://h/wiki/%ED%A0%80', 'bad-encoding'],
    ['http://h/wiki/%', 'bad-encoding'],
    ['http://h/wiki/%zz', 'bad-encoding'],
    ['http://h/wiki/a%00', 'control'],
    ['http://h/wiki/a%0d%0aX:1', 'control'],
    ['http://h/wiki\\..\\admin', 'backslash'],
    ['http://h/wiki/．．／admin', 'lookalike'],
    ['http://h/wiki/%EF%BC%8E%EF%BC%8E%EF%BC%8Fadmin', 'lookalike'],
    ['http://h/wiki/..∕admin', 'lookalike'],
    ['http://h/wiki/..＼admin', 'lookalike'],
    ['http://h/wiki/..；/admin', 'lookalike'],
    ['http://intranet.example@evil.test/wiki/', 'userinfo'],
    ['http://u:p@h/wiki/', 'userinfo'],
    ['http://evil.test/#@intranet.example/wiki/', 'fragment-host'],
  ];
  for (const [u, kind] of refused) it(`${u} → ${kind}`, () => expect(amb(u)).toBe(kind));

  const passed = [
    'http://h/wiki/page',
    'http://h/wiki/',
    'http://h/wiki/100%25.txt',
    'http://h/wiki/%ED%95%9C%EA%B8%80',
    'http://h/wiki/한글',
    'http://h/wiki/a%20b',
    'http://h/wiki/x?next=%2Fadmin;a=b', // the query is not routed on
    'http://h/wiki/x#section',
    'http://h:80/wiki/',
    'http://위키.회사/x',
  ];
  for (const u of passed) it(`${u} passes`, () => expect(amb(u)).toBeNull());

  it('surrounding white space does not hide the text as written', () => {
    expect(amb('  http://h/wiki/%2e%2e/admin ')).toBe('encoded-dot');
    expect(amb(' http://h/wiki/page?x=%2f ')).toBeNull();
  });

  it('the parsed URL is checked too (a redirect target built by the client, no text)', () => {
    expect(urlAmbiguity(new URL('../..%2fadmin', 'http://h/wiki/x/'))?.kind).toBe('encoded-separator');
  });
});

describe('URL prefixes in policy files and rules', () => {
  it('a prefix with an ambiguous path is a policy problem at its JSON path', () => {
    const r = parsePolicyText(JSON.stringify({ version: 1, http: { allow: ['http://intranet.example/wiki/', 'http://intranet.example/a;b/', 'http://intranet.example/a%2Fb/'] } }), '/home/u');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.path)).toEqual(['$.http.allow[1]', '$.http.allow[2]']);
    expect(r.problems[0]!.message.en).toMatch(/plain characters/);
  });

  it('urlMatcher cannot interpret an ambiguous prefix (a rule with one fails closed)', () => {
    expect(urlMatcher('http://intranet.example/wiki;x/')).toBeNull();
    expect(urlMatcher('http://intranet.example/wiki%2F/')).toBeNull();
    expect(urlMatcher('http://intranet.example/wiki/')).not.toBeNull();
  });

  const env = fakeEnv('linux', ['/nonexistent-ws'], '/nonexistent-home');
  const url = (u: string): PermissionQuery => ({ tool: 'http.request', known: true, risk: 'network', subject: { kind: 'URL', values: [u] } });

  it('the permission layer denies an ambiguous URL before any rule, with a ko and en signpost', async () => {
    const eff = effectiveFrom(rules(['http.request(http://intranet.example/wiki/)']));
    const v = await evaluatePermission(eff, url('http://intranet.example/wiki/..%2fadmin'), env);
    expect([v.decision, v.rule, v.source]).toEqual(['deny', 'ambiguous-url', 'builtin']);
    expect(v.reason?.en).toMatch(/Write separators unencoded/);
    expect(v.reason?.ko).toMatch(/인코딩하지 말고/);
  });

  it('default ports, host case and international names are equivalences, not ambiguities', async () => {
    const eff = effectiveFrom(rules(['http.request(http://intranet.example/wiki/)', 'http.request(https://위키.회사/)']));
    for (const u of ['http://intranet.example:80/wiki/a', 'HTTP://Intranet.Example/wiki/a', 'https://위키.회사:443/x', 'https://xn--9q5b29o.xn--vf4b131b/x']) {
      expect((await evaluatePermission(eff, url(u), env)).decision, u).toBe('allow');
    }
    // A look-alike host (Cyrillic 'і') is another host: its punycode differs.
    expect((await evaluatePermission(eff, url('http://іntranet.example/wiki/a'), env)).decision).toBe('ask');
    expect((await evaluatePermission(eff, url('http://intranet.example:443/wiki/a'), env)).decision).toBe('ask');
  });
});
