import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppHandlers } from '../../../electron/main/app/handlers';
import { headerCsp } from '../../../electron/main/app/csp';
import { EventHub } from '../../../electron/main/preview/event-hub';
import { startPreviewServer, type PreviewServer } from '../../../electron/main/preview/server';
import http from 'node:http';

/** Raw HTTP (fetch forbids setting Host and Origin), so each guard is exercised as a browser or a stranger would. */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

let dir: string;
let server: PreviewServer;
const events = new EventHub();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'baram-preview-test-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>x</title></head><body></body></html>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'baram-outside.txt'), 'secret');
  server = await startPreviewServer({ rendererDir: dir, bridgeScript: '/* bridge */', handlers: createAppHandlers({ version: '9', lang: 'ko' }), events });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const invoke = (channel: string, headers: Record<string, string>, body = '{}') => request(`${server.origin}/__baram/invoke/${channel}`, { method: 'POST', headers, body });

describe('preview server', () => {
  it('listens on 127.0.0.1 and serves the page, with the bridge first, only with the token', async () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await request(server.url);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<head>\s*<script src="\.\/__baram\/bridge\.js"><\/script>/);
    expect(page.headers['content-security-policy']).toBe(headerCsp());
    expect((await request(`${server.origin}/`)).status).toBe(403);
    expect((await request(`${server.origin}/?token=${'x'.repeat(server.token.length)}`)).status).toBe(403);
  });

  it('answers a call from its own origin with the token', async () => {
    const r = await invoke('app:info', { origin: server.origin, 'x-baram-token': server.token });
    expect(JSON.parse(r.body)).toEqual({ ok: true, value: { version: '9', lang: 'ko' } });
  });

  it('refuses a foreign origin, a missing origin, a missing token and a rebound host name', async () => {
    const port = new URL(server.origin).port;
    expect((await invoke('app:info', { origin: 'http://evil.example', 'x-baram-token': server.token })).status).toBe(403);
    expect((await invoke('app:info', { 'x-baram-token': server.token })).status).toBe(403);
    expect((await invoke('app:info', { origin: server.origin })).status).toBe(403);
    expect((await invoke('app:info', { origin: server.origin, 'x-baram-token': server.token, host: `evil.example:${port}` })).status).toBe(403);
  });

  it('validates requests against the contract like main does', async () => {
    const headers = { origin: server.origin, 'x-baram-token': server.token };
    expect(JSON.parse((await invoke('chat:send', headers, '{"text":""}')).body)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(JSON.parse((await invoke('chat:send', headers, 'not json')).body)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect((await invoke('shell:open', headers)).status).toBe(404);
  });

  it('refuses a cross-site event stream and files outside the renderer folder', async () => {
    const cross = await request(`${server.origin}/__baram/events?token=${server.token}`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(cross.status).toBe(403);
    expect((await request(`${server.origin}/__baram/events`)).status).toBe(403);
    expect((await request(`${server.origin}/assets/app.js`)).status).toBe(200);
    expect((await request(`${server.origin}/%2e%2e/baram-outside.txt`)).status).toBe(404);
  });
});
