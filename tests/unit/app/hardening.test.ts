import type { Session, WebContents } from 'electron';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headerCsp } from '../../../electron/main/app/csp';
import { hardenSession, hardenWebContents } from '../../../electron/main/app/hardening';
import { rendererSource } from '../../../electron/main/app/renderer-origin';

/**
 * Electron cannot run here, so Session and WebContents are recording stand-ins: the test checks
 * that the real hardening code installs a handler for each hook and that each handler refuses.
 */
type Handler = (...args: never[]) => unknown;

function recorder() {
  const handlers = new Map<string, Handler>();
  const record = (name: string) => (handler: Handler) => void handlers.set(name, handler);
  return { handlers, record };
}

const indexFile = join(tmpdir(), 'baram-app', 'out', 'renderer', 'index.html');
const source = rendererSource({ devServerUrl: undefined, isPackaged: true, indexFile });

function hardenedSession() {
  const { handlers, record } = recorder();
  const fake = {
    setPermissionRequestHandler: record('permissionRequest'),
    setPermissionCheckHandler: record('permissionCheck'),
    setDevicePermissionHandler: record('devicePermission'),
    webRequest: { onBeforeRequest: record('beforeRequest'), onHeadersReceived: record('headersReceived') },
  };
  const log: string[] = [];
  hardenSession(fake as unknown as Session, source, {}, (m) => log.push(m));
  return { handlers, log };
}

function call<T>(handlers: Map<string, Handler>, name: string, ...args: unknown[]): T {
  const handler = handlers.get(name);
  if (!handler) throw new Error(`no handler installed for ${name}`);
  return (handler as (...a: unknown[]) => T)(...args);
}

describe('hardenSession', () => {
  it('refuses every permission request and check', () => {
    const { handlers, log } = hardenedSession();
    const answers: boolean[] = [];
    call(handlers, 'permissionRequest', {}, 'media', (granted: boolean) => answers.push(granted), {});
    call(handlers, 'permissionRequest', {}, 'notifications', (granted: boolean) => answers.push(granted), {});
    expect(answers).toEqual([false, false]);
    expect(call(handlers, 'permissionCheck', null, 'clipboard-read', 'file://', {})).toBe(false);
    expect(call(handlers, 'devicePermission', { deviceType: 'usb' })).toBe(false);
    expect(log).toEqual(['permission request refused: media', 'permission request refused: notifications']);
  });

  it('cancels requests outside the app and lets its own files through', () => {
    const { handlers, log } = hardenedSession();
    const decide = (url: string) => {
      let response: { cancel?: boolean } = {};
      call(handlers, 'beforeRequest', { url }, (r: { cancel?: boolean }) => (response = r));
      return response.cancel;
    };
    expect(decide('https://cdn.example.com/lib.js')).toBe(true);
    expect(decide(pathToFileURL(indexFile).href)).toBe(false);
    expect(log).toEqual(['request cancelled: https://cdn.example.com/lib.js']);
  });

  it('puts the strict CSP on every response', () => {
    const { handlers } = hardenedSession();
    let headers: Record<string, string[]> | undefined;
    call(handlers, 'headersReceived', { responseHeaders: { 'content-security-policy': ['default-src *'] } }, (r: { responseHeaders: Record<string, string[]> }) => {
      headers = r.responseHeaders;
    });
    expect(headers).toEqual({ 'Content-Security-Policy': [headerCsp()] });
  });
});

describe('hardenWebContents', () => {
  function hardenedContents() {
    const { handlers, record } = recorder();
    const fake = {
      on: (event: string, handler: Handler) => handlers.set(event, handler),
      setWindowOpenHandler: record('windowOpen'),
    };
    const log: string[] = [];
    hardenWebContents(fake as unknown as WebContents, (m) => log.push(m));
    return { handlers, log };
  }

  function navigationEvent(extra: Record<string, unknown>) {
    const event = { prevented: false, preventDefault: () => (event.prevented = true), ...extra };
    return event;
  }

  it('blocks navigation of the page and of subframes', () => {
    const { handlers } = hardenedContents();
    const top = navigationEvent({ url: 'https://evil.example/' });
    call(handlers, 'will-navigate', top);
    expect(top.prevented).toBe(true);
    const sub = navigationEvent({ url: 'https://evil.example/frame', isMainFrame: false });
    call(handlers, 'will-frame-navigate', sub);
    expect(sub.prevented).toBe(true);
  });

  it('blocks <webview> and denies window.open', () => {
    const { handlers, log } = hardenedContents();
    const attach = navigationEvent({});
    call(handlers, 'will-attach-webview', attach, {}, { src: 'https://evil.example/' });
    expect(attach.prevented).toBe(true);
    expect(call(handlers, 'windowOpen', { url: 'https://evil.example/popup' })).toEqual({ action: 'deny' });
    expect(log).toContain('window.open denied: https://evil.example/popup');
  });
});
