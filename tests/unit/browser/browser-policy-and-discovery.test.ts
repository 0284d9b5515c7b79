import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserCapability } from '../../../electron/common/browser-capability';
import { CapabilityRefused, executionCapabilities, type HostCapabilities } from '../../../electron/main/gate/scoped-capabilities';
import { candidatePaths, findBrowser } from '../../../electron/main/host/browser';
import { browserArgs } from '../../../electron/main/host/browser/launch';
import { mergePolicies, parsePolicyText, parseUserSettings } from '../../../electron/main/policy';
import { inEnglish } from '../policy/fixtures';

/** Where the browser comes from (never a download) and the policy key that names it (admin-only). */

const HOME = '/home/kim';
const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('browser discovery', () => {
  it('looks where Chrome, Edge and Chromium install themselves on each platform', () => {
    const win = candidatePaths({ platform: 'win32', env: { ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)', LOCALAPPDATA: 'C:\\Users\\kim\\AppData\\Local' } });
    expect(win).toContain('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe');
    expect(win).toContain('C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe');
    // The per-user install (writable by whoever is logged in) comes last.
    expect(win.at(-1)).toBe('C:\\Users\\kim\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe');
    expect(candidatePaths({ platform: 'darwin', env: {} })).toContain('/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge');
    const linux = candidatePaths({ platform: 'linux', env: {} });
    expect(linux).toContain('/usr/bin/google-chrome');
    expect(linux).toContain('/usr/bin/chromium');
  });

  it('the policy path, when set, is the only one tried: a missing one is an error, not a fall-back', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'baram-find-browser-'));
    dirs.push(dir);
    const missing = path.join(dir, 'chrome');
    expect(findBrowser(missing, { platform: 'linux', env: {} })).toEqual({ ok: false, tried: [missing] });
    await writeFile(missing, '#!/bin/sh\n');
    // Not executable: not a browser.
    expect(findBrowser(missing, { platform: 'linux', env: {} }).ok).toBe(false);
    await chmod(missing, 0o755);
    expect(findBrowser(missing, { platform: 'linux', env: {} })).toEqual({ ok: true, path: missing });
  });

  it('the browser is started without a network of its own', () => {
    const args = browserArgs('/tmp/profile', 4567);
    expect(args).toContain('--headless');
    expect(args).toContain('--user-data-dir=/tmp/profile');
    expect(args).toContain('--proxy-server=http://127.0.0.1:4567');
    expect(args).toContain('--proxy-bypass-list=<-loopback>');
    expect(args).toContain('--host-resolver-rules=MAP * ~NOTFOUND');
    expect(args).toContain('--disable-quic');
    expect(args).toContain('--force-webrtc-ip-handling-policy=disable_non_proxied_udp');
  });
});

describe('policy browser.executablePath', () => {
  it('is kept absolute (~ expanded); a relative path is refused with its JSON path', () => {
    const ok = parsePolicyText('{"version":1, "browser": {"executablePath": "~/bin/chrome"}}', HOME, { platform: 'linux' });
    expect(ok.ok && ok.value.browser).toEqual({ executablePath: '/home/kim/bin/chrome' });
    const none = parsePolicyText('{"version":1}', HOME, { platform: 'linux' });
    // No section, no field: the digest of existing policies does not change.
    expect(none.ok && 'browser' in none.value).toBe(false);
    const bad = parsePolicyText('{"version":1, "browser": {"executablePath": "chrome.exe"}}', HOME, { platform: 'linux' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(inEnglish(bad.problems)[0]?.path).toBe('$.browser.executablePath');
    const unknown = parsePolicyText('{"version":1, "browser": {"path": "/usr/bin/chromium"}}', HOME, { platform: 'linux' });
    expect(unknown.ok).toBe(false);
  });

  it('user settings cannot set it (admin-only), and the merged policy keeps the administrator\'s', () => {
    const r = parseUserSettings('{ "browser": { "executablePath": "/home/kim/evil" } }', HOME, { platform: 'linux' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(inEnglish(r.problems)[0]?.message).toMatch(/^'browser' can only be set in the administrator's policy/);
    const admin = parsePolicyText('{"version":1, "workspaceRoots": ["~/w"], "browser": {"executablePath": "/usr/bin/chromium"}}', HOME, { platform: 'linux' });
    if (!admin.ok) throw new Error('admin policy invalid');
    const merged = mergePolicies(admin.value, 'admin', undefined, 'linux');
    expect(merged.ok && merged.value.policy.browser).toEqual({ executablePath: '/usr/bin/chromium' });
  });
});

describe('plan-scoped browser capability', () => {
  it('opens only the planned URL; a tool that did not declare it gets nothing', async () => {
    const calls: string[] = [];
    const browser: BrowserCapability = {
      allowedPrefixes: ['http://intranet.example/'],
      check: () => null,
      open: async (r) => {
        calls.push(r.url);
        return { outcome: 'failed', reason: 'aborted', url: r.url, blocked: { count: 0, origins: [], overLimit: 0 }, message: { ko: '', en: '' } };
      },
      screenshot: async (r) => {
        calls.push(r.url);
        return { outcome: 'failed', reason: 'aborted', url: r.url, blocked: { count: 0, origins: [], overLimit: 0 }, message: { ko: '', en: '' } };
      },
    };
    const host = { browser } as unknown as HostCapabilities;
    const plan = { targets: [], network: { kind: 'url' as const, url: 'http://intranet.example/a' } };
    const scoped = executionCapabilities(host, ['browser'], plan, 'browser.open');
    const signal = new AbortController().signal;
    await scoped.browser.open({ url: 'http://intranet.example/a', signal, maxTextChars: 10 });
    expect(() => scoped.browser.open({ url: 'http://intranet.example/b', signal, maxTextChars: 10 })).toThrow(CapabilityRefused);
    expect(() => scoped.browser.screenshot({ url: 'http://intranet.example/b', signal, fullPage: false })).toThrow(CapabilityRefused);
    const undeclared = executionCapabilities(host, [], plan, 'system.info');
    expect(() => undeclared.browser.open({ url: 'http://intranet.example/a', signal, maxTextChars: 10 })).toThrow(/did not declare the 'browser' capability/);
    expect(calls).toEqual(['http://intranet.example/a']);
  });
});
