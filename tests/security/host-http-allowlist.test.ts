import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpOutcome, HttpRequestSpec } from '../../electron/common/http-capability';
import { createHttpClient } from '../../electron/main/host/http';
import { serve, type TestServer } from '../helpers/http-test-server';

/**
 * The attack suite of issue #4: a request to a host, port or path the policy does not allow, or a
 * redirect from an allowed URL to one it does not allow, is refused before anything is sent there.
 * "Nothing is sent" is measured where it happens: the refused server counts TCP connections.
 */

let allowed: TestServer; // 127.0.0.1:A, prefix /wiki/ allowed
let outside: TestServer; // 127.0.0.2:B, never allowed (Linux routes all of 127/8 to lo)
let otherPort: TestServer; // 127.0.0.1:C, same host as `allowed`, other port
let trap: TestServer; // stands in for a proxy named in the environment

beforeAll(async () => {
  outside = await serve((_req, res) => res.end('outside'), { host: '127.0.0.2' });
  otherPort = await serve((_req, res) => res.end('other port'));
  trap = await serve((_req, res) => res.end('proxied'));
  allowed = await serve((req, res) => {
    const redirect = (status: number, location: string) => res.writeHead(status, { location }).end();
    switch (req.path) {
      case '/wiki/page':
        return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('위키 페이지');
      case '/wiki/to-outside':
        return redirect(302, `${outside.origin}/wiki/page`);
      case '/wiki/to-outside-307':
        return redirect(307, `${outside.origin}/wiki/page`);
      case '/wiki/to-other-path':
        return redirect(302, '/admin');
      case '/wiki/to-sibling':
        return redirect(301, '../wikiX');
      case '/wiki/to-other-port':
        return redirect(302, `${otherPort.origin}/wiki/page`);
      case '/wiki/to-file':
        return redirect(302, 'file:///etc/passwd');
      case '/wiki/to-userinfo':
        return redirect(302, `http://admin:secret@127.0.0.1:${allowed.port}/wiki/page`);
      case '/wiki/protocol-relative':
        return redirect(302, `//127.0.0.2:${outside.port}/wiki/page`);
      case '/wiki/loop':
        return redirect(302, '/wiki/loop');
      case '/wiki/hop1':
        return redirect(301, '/wiki/hop2');
      case '/wiki/hop2':
        return redirect(302, 'page'); // relative to /wiki/hop2 → /wiki/page
      default:
        return res.writeHead(404).end('not here');
    }
  });
});

afterAll(async () => {
  await Promise.all([allowed, outside, otherPort, trap].map((s) => s?.close()));
});

const signal = () => new AbortController().signal;

function client() {
  return createHttpClient({ allow: [`${allowed.origin}/wiki/`], timeoutMs: 5000 });
}

async function get(url: string, extra: Partial<HttpRequestSpec> = {}): Promise<HttpOutcome> {
  return client().request({ url, method: 'GET', signal: signal(), ...extra });
}

function expectRefused(outcome: HttpOutcome) {
  if (outcome.outcome !== 'refused') throw new Error(`expected a refusal, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('requests outside the allowed prefixes are refused without a connection', () => {
  it('another host', async () => {
    const before = outside.connections();
    const r = expectRefused(await get(`${outside.origin}/wiki/page`));
    expect([r.reason, r.stage, r.url]).toEqual(['not-allowed', 'request', `${outside.origin}/wiki/page`]);
    expect(r.message.ko).toContain(`${allowed.origin}/wiki/`);
    expect(r.message.en).toContain('Allowed:');
    expect(outside.connections()).toBe(before);
  });

  it('the allowed host on another port (the port is part of the prefix)', async () => {
    const before = otherPort.connections();
    expectRefused(await get(`${otherPort.origin}/wiki/page`));
    expect(otherPort.connections()).toBe(before);
  });

  it('paths that only look like the prefix: /wikiX, /wiki, dot segments, encoded dot segments', async () => {
    const before = allowed.connections();
    for (const p of ['/wikiX', '/wikiX/page', '/wiki', '/wiki/../admin', '/WIKI/page']) {
      const r = expectRefused(await get(`${allowed.origin}${p}`));
      expect(r.reason, p).toBe('not-allowed');
    }
    // Encoded dots are refused as ambiguous before the prefix is compared (issue 14, class 10).
    expect(expectRefused(await get(`${allowed.origin}/wiki/%2e%2e/admin`)).reason).toBe('ambiguous-path');
    // https on the allowed host and port is another prefix too.
    expect(expectRefused(await get(`https://127.0.0.1:${allowed.port}/wiki/page`)).reason).toBe('not-allowed');
    expect(allowed.connections()).toBe(before);
  });

  it('schemes other than http and https, with a signpost for files', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/wiki/', 'data:text/plain,hi', 'javascript:alert(1)', 'gopher://127.0.0.1/']) {
      const r = expectRefused(await get(url));
      expect(r.reason, url).toBe('scheme');
    }
    expect(expectRefused(await get('file:///etc/passwd')).message.ko).toContain('filesystem.read');
  });

  it('a URL with a user name or password, even under an allowed prefix; the password is not echoed', async () => {
    const before = allowed.connections();
    const r = expectRefused(await get(`http://admin:hunter2@127.0.0.1:${allowed.port}/wiki/page`));
    expect(r.reason).toBe('userinfo');
    expect(JSON.stringify(r)).not.toContain('hunter2');
    expect(r.message.ko).toContain('Authorization');
    expect(allowed.connections()).toBe(before);
  });

  it('not a URL at all', async () => {
    expect(expectRefused(await get('intranet/wiki/page')).reason).toBe('invalid-url');
  });

  it('a Host header (another virtual host behind an allowed address) or a CR/LF in a header', async () => {
    const before = allowed.connections();
    const host = expectRefused(await get(`${allowed.origin}/wiki/page`, { headers: { Host: 'admin.internal' } }));
    expect([host.reason, host.message.en]).toEqual(['header', expect.stringContaining("'Host'")]);
    const crlf = expectRefused(await get(`${allowed.origin}/wiki/page`, { headers: { 'X-A': 'a\r\nHost: admin.internal' } }));
    expect(crlf.reason).toBe('header');
    for (const name of ['Content-Length', 'Transfer-Encoding', 'Connection', 'Upgrade', 'Proxy-Authorization']) {
      expect(expectRefused(await get(`${allowed.origin}/wiki/page`, { headers: { [name]: '1' } })).reason, name).toBe('header');
    }
    expect(allowed.connections()).toBe(before);
  });

  it('check() gives the same refusal with no network at all, and null for an allowed request', () => {
    const c = client();
    const before = outside.connections();
    expect(c.check({ url: `${outside.origin}/wiki/page`, method: 'GET' })?.reason).toBe('not-allowed');
    expect(c.check({ url: `${allowed.origin}/wiki/page`, method: 'GET' })).toBeNull();
    expect(outside.connections()).toBe(before);
  });

  it('an empty allowlist refuses everything and says the administrator must add addresses', async () => {
    const c = createHttpClient({ allow: [] });
    const r = expectRefused(await c.request({ url: `${allowed.origin}/wiki/page`, method: 'GET', signal: signal() }));
    expect(r.message.en).toContain('http.allow');
  });
});

describe('redirects are re-checked before any connection to the target', () => {
  it('allowed → another host: refused, the target named, and the other host receives nothing', async () => {
    const before = outside.connections();
    const seen = allowed.requests.length;
    const r = expectRefused(await get(`${allowed.origin}/wiki/to-outside`));
    expect([r.reason, r.stage, r.url, r.redirectedFrom]).toEqual(['not-allowed', 'redirect', `${outside.origin}/wiki/page`, `${allowed.origin}/wiki/to-outside`]);
    expect(r.message.ko).toContain(`${outside.origin}/wiki/page`);
    expect(r.message.en).toContain('nothing was sent there');
    expect(outside.connections()).toBe(before);
    expect(allowed.requests.slice(seen).map((q) => q.path)).toEqual(['/wiki/to-outside']);
  });

  it('a 307 (which would resend a POST body) to another host: the body goes nowhere', async () => {
    const before = outside.connections();
    const r = expectRefused(await get(`${allowed.origin}/wiki/to-outside-307`, { method: 'POST', body: 'secret payload' }));
    expect(r.stage).toBe('redirect');
    expect(outside.connections()).toBe(before);
  });

  it('to another path, port, scheme, credentials, or a protocol-relative host', async () => {
    const beforeOutside = outside.connections();
    const beforeOther = otherPort.connections();
    const seen = allowed.requests.length;
    const cases: [string, string][] = [
      ['/wiki/to-other-path', 'not-allowed'],
      ['/wiki/to-sibling', 'not-allowed'],
      ['/wiki/to-other-port', 'not-allowed'],
      ['/wiki/to-file', 'scheme'],
      ['/wiki/to-userinfo', 'userinfo'],
      ['/wiki/protocol-relative', 'not-allowed'],
    ];
    for (const [p, reason] of cases) {
      const r = expectRefused(await get(`${allowed.origin}${p}`));
      expect([r.reason, r.stage], p).toEqual([reason, 'redirect']);
    }
    expect(outside.connections()).toBe(beforeOutside);
    expect(otherPort.connections()).toBe(beforeOther);
    // Only the redirecting URLs themselves reached the allowed server: no /admin, no /wikiX.
    expect(allowed.requests.slice(seen).map((q) => q.path)).toEqual(cases.map(([p]) => p));
    const userinfo = expectRefused(await get(`${allowed.origin}/wiki/to-userinfo`));
    expect(JSON.stringify(userinfo)).not.toContain('secret');
  });

  it('a redirect loop stops at the limit (5 redirects followed, 6 requests)', async () => {
    const seen = allowed.requests.length;
    const r = await get(`${allowed.origin}/wiki/loop`);
    if (r.outcome !== 'failed') throw new Error(JSON.stringify(r));
    expect(r.reason).toBe('too-many-redirects');
    expect(r.redirects).toHaveLength(5);
    expect(allowed.requests.length - seen).toBe(6);
    const zero = createHttpClient({ allow: [`${allowed.origin}/wiki/`], maxRedirects: 0 });
    const none = await zero.request({ url: `${allowed.origin}/wiki/hop1`, method: 'GET', signal: signal() });
    expect(none.outcome === 'failed' && none.reason).toBe('too-many-redirects');
  });

  it('redirects within the allowed prefix are followed (relative Locations resolved against the current URL)', async () => {
    const r = await get(`${allowed.origin}/wiki/hop1`);
    if (r.outcome !== 'response') throw new Error(JSON.stringify(r));
    expect(r.status).toBe(200);
    expect(r.url).toBe(`${allowed.origin}/wiki/page`);
    expect(r.redirects.map((x) => [x.status, x.to])).toEqual([
      [301, `${allowed.origin}/wiki/hop2`],
      [302, `${allowed.origin}/wiki/page`],
    ]);
    expect(r.body).toMatchObject({ kind: 'text', text: '위키 페이지' });
  });
});

describe('no proxy from the environment', () => {
  const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy', 'NODE_USE_ENV_PROXY', 'NO_PROXY', 'no_proxy'];
  const saved = new Map<string, string | undefined>();
  afterEach(() => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    saved.clear();
  });

  it('proxy variables set while the client runs: the request goes straight to the server, the trap gets nothing', async () => {
    for (const k of PROXY_VARIABLES) saved.set(k, process.env[k]);
    for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy']) process.env[k] = trap.origin;
    process.env['NODE_USE_ENV_PROXY'] = '1';
    delete process.env['NO_PROXY'];
    delete process.env['no_proxy'];
    const seen = allowed.requests.length;
    const r = await get(`${allowed.origin}/wiki/page`);
    expect(r.outcome === 'response' && r.body).toMatchObject({ kind: 'text', text: '위키 페이지' });
    expect(trap.connections()).toBe(0);
    // Through a proxy the server would see an absolute-form target; it saw the plain path.
    expect(allowed.requests.slice(seen).map((q) => q.path)).toEqual(['/wiki/page']);
  });

  it('a process started with proxy variables (and NODE_USE_ENV_PROXY=1) does not use them either', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_USE_ENV_PROXY: '1', NO_PROXY: '', no_proxy: '' };
    for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy']) env[k] = trap.origin;
    const script = path.resolve(__dirname, '..', 'fixtures', 'http', 'request-once.ts');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', script, `${allowed.origin}/wiki/`, `${allowed.origin}/wiki/page`], { env, timeout: 20_000 }, (error, out) =>
        error ? reject(error) : resolve(out),
      ),
    );
    const outcome = JSON.parse(stdout) as HttpOutcome;
    expect(outcome.outcome === 'response' && outcome.body).toMatchObject({ kind: 'text', text: '위키 페이지' });
    expect(trap.connections()).toBe(0);
  });
});

describe('TLS verification cannot be switched off from the environment', () => {
  let dir: string;
  let tlsServer: TestServer;
  let cert: string;
  const saved = process.env['NODE_TLS_REJECT_UNAUTHORIZED'];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'baram-tls-'));
    // A self-signed certificate for 127.0.0.1, made by the real openssl for this run only.
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    cert = await readFile(path.join(dir, 'cert.pem'), 'utf8');
    const key = await readFile(path.join(dir, 'key.pem'), 'utf8');
    tlsServer = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('보안 페이지'), { tls: { key, cert } });
  });

  afterAll(async () => {
    if (saved === undefined) delete process.env['NODE_TLS_REJECT_UNAUTHORIZED'];
    else process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = saved;
    await tlsServer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('an untrusted certificate fails as tls even with NODE_TLS_REJECT_UNAUTHORIZED=0; no request reaches the server', async () => {
    process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = '0';
    const c = createHttpClient({ allow: [`${tlsServer.origin}/`], timeoutMs: 5000 });
    const r = await c.request({ url: `${tlsServer.origin}/page`, method: 'GET', signal: signal() });
    if (r.outcome !== 'failed') throw new Error(JSON.stringify(r));
    expect(r.reason).toBe('tls');
    expect(r.code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/);
    expect(r.message.ko).toContain('인증서');
    expect(tlsServer.requests).toHaveLength(0);
  });

  it('the office CA given as an option is trusted', async () => {
    const c = createHttpClient({ allow: [`${tlsServer.origin}/`], timeoutMs: 5000, ca: [cert] });
    const r = await c.request({ url: `${tlsServer.origin}/page`, method: 'GET', signal: signal() });
    expect(r.outcome === 'response' && r.body).toMatchObject({ kind: 'text', text: '보안 페이지' });
  });
});
