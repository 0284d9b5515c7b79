import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserHost } from '../../../electron/main/host/browser';
import { BROWSER_TEST_TIMEOUT_MS, CHROMIUM, chromiumAvailable } from '../../helpers/chromium';
import { freePort, serve, type TestServer } from '../../helpers/http-test-server';

/**
 * The browser host's caps, with small limits so the tests stay short (the tools use the defaults:
 * 30 s, 2,000 requests, 50 MiB). Real Chromium, real servers; no timing assertions.
 */
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function server(handler: Parameters<typeof serve>[0]): Promise<TestServer> {
  const s = await serve(handler);
  servers.push(s);
  return s;
}

const signal = () => new AbortController().signal;

describe.skipIf(!chromiumAvailable())('browser host limits (real Chromium)', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('a page that loops over fetch gets no more than the request cap, and the rest is reported', async () => {
    const site = await server((req, res) => {
      if (req.path.startsWith('/intra/api/')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<title>반복</title><p id="n">0</p><script>let done = 0; for (let i = 0; i < 20; i++) fetch("/intra/api/" + i).catch(() => {}).finally(() => { document.getElementById("n").textContent = String(++done); });</script>');
    });
    const host = createBrowserHost({ allow: [`${site.origin}/intra/`], executablePath: CHROMIUM, maxRequests: 5 });
    const r = await host.open({ url: `${site.origin}/intra/loop`, signal: signal(), maxTextChars: 1000 });
    expect(r.outcome).toBe('page');
    if (r.outcome !== 'page') return;
    // The document and four fetches; sixteen not sent.
    expect(site.requests).toHaveLength(5);
    expect(r.blocked.overLimit).toBe(16);
    expect(r.blocked.count).toBe(0);
    expect(r.text).toBe('20');
  });

  it('a document that never finishes loading is read as it rendered when the time runs out', async () => {
    const site = await server((req, res) => {
      if (req.path === '/intra/never.png') return; // never answered: 'load' never comes
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<title>느린 페이지</title><p>먼저 나온 글</p><img src="/intra/never.png">');
    });
    const host = createBrowserHost({ allow: [`${site.origin}/intra/`], executablePath: CHROMIUM, timeoutMs: 5_000 });
    const r = await host.open({ url: `${site.origin}/intra/slow`, signal: signal(), maxTextChars: 1000 });
    expect(r.outcome).toBe('page');
    if (r.outcome !== 'page') return;
    expect(r.partial).toBe(true);
    expect(r.text).toContain('먼저 나온 글');
  });

  it('a document that never arrives is a timeout with a message saying what to do', async () => {
    const site = await server(() => {});
    const host = createBrowserHost({ allow: [`${site.origin}/intra/`], executablePath: CHROMIUM, timeoutMs: 2_000 });
    const r = await host.open({ url: `${site.origin}/intra/never`, signal: signal(), maxTextChars: 1000 });
    expect(r.outcome).toBe('failed');
    if (r.outcome !== 'failed') return;
    expect(r.reason).toBe('timeout');
    expect(r.message.en).toContain('did not open within 2 s');
  });

  it('an HTTPS intranet page: an untrusted certificate is said to be one; with the office CA the page opens', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baram-browser-tls-'));
    try {
      // A self-signed certificate for 127.0.0.1, made by the real openssl for this run only.
      execFileSync('openssl', [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
        '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      ], { stdio: 'ignore' });
      const cert = await readFile(join(dir, 'cert.pem'), 'utf8');
      const key = await readFile(join(dir, 'key.pem'), 'utf8');
      const site = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<title>보안 페이지</title><p>사내 인증서로 연 글</p>');
      }, { tls: { key, cert } });
      servers.push(site);
      const untrusted = createBrowserHost({ allow: [`${site.origin}/intra/`], executablePath: CHROMIUM });
      const r = await untrusted.open({ url: `${site.origin}/intra/page`, signal: signal(), maxTextChars: 1000 });
      expect(r.outcome).toBe('failed');
      if (r.outcome === 'failed') expect(r.message.ko).toContain('인증서');
      expect(site.requests).toHaveLength(0);
      const trusted = createBrowserHost({ allow: [`${site.origin}/intra/`], executablePath: CHROMIUM, ca: [cert] });
      const ok = await trusted.open({ url: `${site.origin}/intra/page`, signal: signal(), maxTextChars: 1000 });
      expect(ok.outcome).toBe('page');
      if (ok.outcome === 'page') expect(ok.text).toBe('사내 인증서로 연 글');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a server that is not running: the message says the connection was refused', async () => {
    const port = await freePort();
    const host = createBrowserHost({ allow: [`http://127.0.0.1:${port}/intra/`], executablePath: CHROMIUM });
    const r = await host.open({ url: `http://127.0.0.1:${port}/intra/x`, signal: signal(), maxTextChars: 1000 });
    expect(r.outcome).toBe('failed');
    if (r.outcome === 'failed') expect(r.message.en).toMatch(/refused|not running|connect/i);
  });

  it('no installed browser at the configured path: a clear failure, nothing started', async () => {
    const host = createBrowserHost({ allow: ['http://127.0.0.1:9/intra/'], executablePath: '/nonexistent/chrome' });
    const r = await host.open({ url: 'http://127.0.0.1:9/intra/x', signal: signal(), maxTextChars: 1000 });
    expect(r.outcome).toBe('failed');
    if (r.outcome !== 'failed') return;
    expect(r.reason).toBe('no-browser');
    expect(r.message.ko).toContain('browser.executablePath');
  });
});
