import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, chromiumAvailable, recordingBrowser, sessionMembers } from '../helpers/chromium';
import { useTestGate } from '../helpers/gate-harness';
import { serve, type TestServer } from '../helpers/http-test-server';

/**
 * The browser dies with its call (SPEC §5 browser; S-SHELL's whole-tree rule applied to the
 * browser): on Stop during a page that never finishes, and after every normal call. The host
 * starts the browser with setsid, so its pid is the session id of every helper process it forks
 * (renderers, zygote, network and GPU services); /proc must hold none of them afterwards, and the
 * fresh profile folder must be gone. Linux only (/proc). Zombies do not count: a killed helper
 * reparented to a container's init that never reaps stays a zombie, which holds nothing.
 */
const open = useTestGate();
const servers: TestServer[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const c of cleanups.splice(0)) await c();
});

async function recorder() {
  const dir = await mkdtemp(join(tmpdir(), 'baram-browser-recorder-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return recordingBrowser(dir);
}

function profileOf(args: readonly string[]): string {
  const arg = args.find((a) => a.startsWith('--user-data-dir='));
  if (!arg) throw new Error(`no --user-data-dir in ${args.join(' ')}`);
  return arg.slice('--user-data-dir='.length);
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  // Polls without a time assertion: vitest's own test timeout is the only limit.
  for (;;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
    if (what === '') throw new Error('unreachable');
  }
}

describe.skipIf(!chromiumAvailable() || process.platform !== 'linux')('browser tools: no browser outlives its call', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('Stop during a page that never finishes loading kills every browser process and deletes the profile', async () => {
    let hung = 0;
    const site = await serve((req, res) => {
      if (req.path === '/intra/slow.png') return; // never answered
      hung++;
      // The document starts and never ends: 'load' never comes.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<!doctype html><title>끝나지 않는 페이지</title><p>기다리는 중');
    });
    servers.push(site);
    const browser = await recorder();
    const g = await open({ policy: { http: { allow: [`${site.origin}/intra/`] }, browser: { executablePath: browser.path } }, lang: 'en' });
    const stop = new AbortController();
    const pending = g.call('browser.open', { url: `${site.origin}/intra/forever` }, stop.signal);
    await until(() => hung > 0, 'the page was requested');
    const [start] = await browser.starts();
    expect(start).toBeDefined();
    const sid = start!.pid;
    // Positive control: the browser and its helpers are alive right now.
    expect(sessionMembers(sid).length).toBeGreaterThan(1);
    expect(existsSync(profileOf(start!.args))).toBe(true);

    stop.abort();
    const r = await pending;
    expect(r.outcome).toBe('cancelled');
    expect(r.text).toContain('Stopped by the user');
    expect(sessionMembers(sid)).toEqual([]);
    expect(existsSync(profileOf(start!.args))).toBe(false);
  });

  it('Stop while the document itself never arrives does the same', async () => {
    let asked = 0;
    const site = await serve(() => {
      asked++; // no answer at all
    });
    servers.push(site);
    const browser = await recorder();
    const g = await open({ policy: { http: { allow: [`${site.origin}/intra/`] }, browser: { executablePath: browser.path } }, lang: 'ko' });
    const stop = new AbortController();
    const pending = g.call('browser.screenshot', { url: `${site.origin}/intra/never`, path: 'never.png' }, stop.signal);
    await until(() => asked > 0, 'the page was requested');
    const [start] = await browser.starts();
    const sid = start!.pid;
    expect(sessionMembers(sid).length).toBeGreaterThan(1);
    stop.abort();
    const r = await pending;
    expect(r.outcome).toBe('cancelled');
    expect(r.text).toContain('사용자가 중지했습니다');
    expect(sessionMembers(sid)).toEqual([]);
    expect(existsSync(profileOf(start!.args))).toBe(false);
    expect(existsSync(join(g.workspace, 'never.png'))).toBe(false);
  });

  it('after a normal call no browser process is left and its profile is deleted', async () => {
    const site = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<title>보통 페이지</title><p>본문</p>');
    });
    servers.push(site);
    const browser = await recorder();
    const g = await open({ policy: { http: { allow: [`${site.origin}/intra/`] }, browser: { executablePath: browser.path } }, lang: 'ko' });
    const r = await g.call('browser.open', { url: `${site.origin}/intra/page` });
    expect(r.outcome).toBe('ok');
    const r2 = await g.call('browser.screenshot', { url: `${site.origin}/intra/page`, path: 'page.png' });
    expect(r2.outcome).toBe('ok');
    const starts = await browser.starts();
    // A fresh browser and profile per call.
    expect(starts).toHaveLength(2);
    expect(new Set(starts.map((s) => profileOf(s.args))).size).toBe(2);
    for (const start of starts) {
      expect(sessionMembers(start.pid)).toEqual([]);
      expect(existsSync(profileOf(start.args))).toBe(false);
    }
  });
});
