import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpOutcome } from '../../electron/common/http-capability';
import { createHttpClient } from '../../electron/main/host/http';
import { useTestGate } from '../helpers/gate-harness';
import { serve, type TestServer } from '../helpers/http-test-server';

/**
 * Issue 14, class 10: HTTP prefix confusion. Under an allowed `/wiki/` prefix, `/wiki/..%2fadmin`
 * and `/wiki/..;/admin` reach `/admin` on servers that decode and normalise after routing (nginx,
 * IIS, Tomcat). The test server below does exactly that — decode (twice, as a proxy in front would),
 * drop `;params`, read `\` as `/`, fold `..` — and serves its admin page for anything that lands on
 * `/admin`. Such URLs are refused before prefix matching: by the permission layer (layer 1 of the
 * real gate, nothing runs) and by the HTTP client on the first request and on every redirect hop
 * (nothing is sent). Effects are measured on the server (requests and TCP connections it saw) and
 * in the ledger.
 */

/** How a normalising server reads a request path: what the prefix check must not be fooled by. */
function serverView(raw: string): string {
  let p = raw.split('?')[0] ?? '';
  for (let i = 0; i < 2; i++) {
    try {
      p = decodeURIComponent(p);
    } catch {
      // Old IIS read overlong UTF-8: %C0%AF is '/', %C0%AE is '.'.
      p = p.replace(/%c0%af/gi, '/').replace(/%c0%ae/gi, '.');
    }
  }
  p = p.replace(/;[^/]*/g, '').replace(/\\/g, '/');
  return path.posix.normalize(p);
}

/** Redirect targets, served by /wiki/hop/<index> (the first hop's own path stays plain). */
const HOPS = ['/wiki/..%2fadmin', '/wiki/..;/admin', '/wiki/%252e%252e%252fadmin', '/wiki\\..\\admin', '../page', '/wiki/page'];

let site: TestServer;
let outside: TestServer;
beforeAll(async () => {
  outside = await serve((_req, res) => res.end('outside'), { host: '127.0.0.2' });
  site = await serve((req, res) => {
    const seen = serverView(req.path);
    if (seen.startsWith('/admin')) return res.writeHead(200, { 'content-type': 'text/plain' }).end('ADMIN CONSOLE');
    const hop = /^\/wiki\/hop\/(\d+)$/.exec(req.path);
    if (hop) return res.writeHead(302, { location: HOPS[Number(hop[1])] }).end();
    if (seen.startsWith('/wiki/')) return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`wiki ${seen}`);
    return res.writeHead(404).end('not here');
  });
});
afterAll(async () => {
  await Promise.all([site, outside].map((s) => s?.close()));
});

/** Every spelling that lands on /admin at the server while its text starts with /wiki/. */
const CONFUSING_PATHS = [
  '/wiki/..%2fadmin',
  '/wiki/..%2Fadmin',
  '/wiki/..%5cadmin',
  '/wiki/..%5Cadmin',
  '/wiki/..;/admin',
  '/wiki/x;jsessionid=1/..;/..;/admin',
  '/wiki/%252e%252e%252fadmin',
  '/wiki/..%252fadmin',
  '/wiki/.%2E%2fadmin',
  '/wiki/%c0%ae%c0%ae%c0%afadmin',
  '/wiki/..%c0%afadmin',
];

describe('the HTTP client refuses ambiguous paths before prefix matching, on every hop', () => {
  const client = () => createHttpClient({ allow: [`${site.origin}/wiki/`], timeoutMs: 5000 });
  const get = (url: string): Promise<HttpOutcome> => client().request({ url, method: 'GET', signal: new AbortController().signal });

  it('positive control: the test server really does serve /admin for these paths (what nginx would do)', () => {
    for (const p of CONFUSING_PATHS) expect(serverView(p), p).toBe('/admin');
    expect(serverView('/wiki/page')).toBe('/wiki/page');
  });

  it('attack: first request — refused as ambiguous-path with a signpost, no connection made', async () => {
    const before = site.connections();
    for (const p of CONFUSING_PATHS) {
      const r = await get(`${site.origin}${p}`);
      expect(r.outcome, p).toBe('refused');
      if (r.outcome !== 'refused') continue;
      expect(r.reason, p).toBe('ambiguous-path');
      expect(r.stage).toBe('request');
      expect(r.message.en, p).toMatch(/was not sent|Write|Remove|Encode/);
      expect(r.message.ko, p).toMatch(/보내지 않았습니다|쓰세요|하세요/);
    }
    expect(site.connections()).toBe(before);
    expect(site.requests.some((q) => serverView(q.path).startsWith('/admin'))).toBe(false);
  });

  it('attack: backslash, encoded ? and #, control characters, a #@ host trick — refused before anything is sent', async () => {
    const before = site.connections();
    const outsideBefore = outside.connections();
    for (const url of [
      `${site.origin}/wiki\\..\\admin`,
      `${site.origin}/wiki/a%3F/../../admin`,
      `${site.origin}/wiki/a%23b`,
      `${site.origin}/wiki/a%00b`,
      `${site.origin}/wiki/%`,
      `${site.origin}/wiki/．．／admin`,
      `${site.origin}/wiki/..∕admin`,
      `${outside.origin}/#@${site.host}:${site.port}/wiki/page`,
    ]) {
      const r = await get(url);
      expect(r.outcome, url).toBe('refused');
      if (r.outcome === 'refused') expect(r.reason, url).toBe('ambiguous-path');
    }
    // A user name before '@' hides the real host: still refused as userinfo, and nothing reaches 127.0.0.2.
    const u = await get(`http://${site.host}:${site.port}@127.0.0.2:${outside.port}/wiki/page`);
    expect(u.outcome === 'refused' && u.reason).toBe('userinfo');
    expect(site.connections()).toBe(before);
    expect(outside.connections()).toBe(outsideBefore);
  });

  it('attack: a redirect to an ambiguous path is not followed; the server saw only the first hop', async () => {
    for (const [i, target] of HOPS.slice(0, 4).entries()) {
      const seenBefore = site.requests.length;
      const r = await get(`${site.origin}/wiki/hop/${i}`);
      expect(r.outcome, target).toBe('refused');
      if (r.outcome !== 'refused') continue;
      expect([r.reason, r.stage], target).toEqual(['ambiguous-path', 'redirect']);
      expect(r.message.en).toMatch(/not followed/);
      const seen = site.requests.slice(seenBefore).map((q) => q.path);
      expect(seen, target).toHaveLength(1);
      expect(seen[0]).toMatch(/^\/wiki\/hop\//);
    }
  });

  it('positive control: plain paths, a percent sign written once, Korean in UTF-8 and a redirect inside the prefix all go through', async () => {
    for (const p of ['/wiki/page', '/wiki/100%25.txt', '/wiki/%ED%95%9C%EA%B8%80', '/wiki/x?q=a%2Fb;c']) {
      const r = await get(`${site.origin}${p}`);
      expect(r.outcome, p).toBe('response');
      if (r.outcome === 'response') expect(r.status, p).toBe(200);
    }
    for (const i of [4, 5]) {
      const hop = await get(`${site.origin}/wiki/hop/${i}`);
      expect(hop.outcome === 'response' && hop.status).toBe(200);
      expect(site.requests.at(-1)?.path).toBe('/wiki/page');
    }
  });
});

describe('the permission layer refuses ambiguous URLs before any rule (real gate, real host)', () => {
  const open = useTestGate();
  const policyFor = () => ({ http: { allow: [`${site.origin}/wiki/`] }, rules: { allow: [`http.request(${site.origin}/wiki/)`] } });

  it('attack: /wiki/..%2fadmin and /wiki/..;/admin are denied at layer 1; nothing runs, nothing is sent', async () => {
    const g = await open({ policy: policyFor() });
    const before = site.connections();
    for (const p of ['/wiki/..%2fadmin', '/wiki/..;/admin', '/wiki/%252e%252e%252fadmin', '/wiki/%2e%2E/admin']) {
      const r = await g.call('http.request', { url: `${site.origin}${p}` });
      expect(r.outcome, p).toBe('denied');
      expect(r.text, p).toMatch(/was not sent/);
    }
    expect(site.connections()).toBe(before);
    const events = await g.auditEvents();
    const decided = events.filter((e) => e.type === 'permission.decided');
    expect(decided).toHaveLength(4);
    for (const d of decided) expect(d).toMatchObject({ decision: 'deny', rule: 'ambiguous-url', ruleSource: 'builtin' });
    expect(events.some((e) => e.type === 'execution.started')).toBe(false);
    expect(g.approvals).toEqual([]);
  });

  it('attack: an admin deny rule for /admin is not dodged by spelling it under /wiki/ (even with an ask default)', async () => {
    const g = await open({ policy: { http: { allow: [`${site.origin}/`] }, rules: { deny: [`http.request(${site.origin}/admin)`] } } });
    const before = site.connections();
    const r = await g.call('http.request', { url: `${site.origin}/wiki/..%2fadmin` });
    expect(r.outcome).toBe('denied');
    expect(site.connections()).toBe(before);
    expect(g.approvals).toEqual([]);
  });

  it('attack: a user name before @ hides the real host; denied at layer 1, the name (a token?) is neither echoed nor recorded', async () => {
    const g = await open({ policy: policyFor() });
    const outsideBefore = outside.connections();
    const r = await g.call('http.request', { url: `http://${site.host}:${site.port}:tok3n-value@127.0.0.2:${outside.port}/wiki/page` });
    expect(r.outcome).toBe('denied');
    expect(r.text).toMatch(/user name before '@'/);
    expect(r.text).not.toContain('tok3n-value');
    expect(outside.connections()).toBe(outsideBefore);
    const decided = (await g.auditEvents()).filter((e) => e.type === 'permission.decided');
    expect(decided[0]).toMatchObject({ decision: 'deny', rule: 'ambiguous-url' });
    expect(JSON.stringify(decided)).not.toContain('tok3n-value');
  });

  it('Korean signpost for the model', async () => {
    const g = await open({ policy: policyFor(), lang: 'ko' });
    const r = await g.call('http.request', { url: `${site.origin}/wiki/..;/admin` });
    expect(r.outcome).toBe('denied');
    expect(r.text).toMatch(/';'/);
    expect(r.text).toMatch(/쿼리로 보내세요/);
  });

  it('positive control: the allowed page is fetched without approval and recorded', async () => {
    const g = await open({ policy: policyFor() });
    const r = await g.call('http.request', { url: `${site.origin}/wiki/page` });
    expect(r.outcome, r.text).toBe('ok');
    expect(r.text).toContain('wiki /wiki/page');
    expect(site.requests.at(-1)?.path).toBe('/wiki/page');
    const decided = (await g.auditEvents()).filter((e) => e.type === 'permission.decided');
    expect(decided[0]).toMatchObject({ decision: 'allow', rule: `http.request(${site.origin}/wiki/)` });
  });
});
