import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isAllowedRequest, isAppPage, isTrustedSender, rendererSource } from '../../../electron/main/app/renderer-origin';

const outDir = join(tmpdir(), 'baram-app', 'out');
const indexFile = join(outDir, 'renderer', 'index.html');
const packaged = rendererSource({ devServerUrl: 'http://localhost:5173/', isPackaged: true, indexFile });
const dev = rendererSource({ devServerUrl: 'http://localhost:5173/', isPackaged: false, indexFile });
const fileUrl = (...parts: string[]) => pathToFileURL(join(...parts)).href;

describe('rendererSource', () => {
  it('ignores the dev server URL in a packaged app', () => {
    expect(packaged).toEqual({ kind: 'file', indexFile: resolve(indexFile) });
  });

  it('uses the dev server only on loopback http', () => {
    expect(dev).toEqual({ kind: 'dev-server', url: 'http://localhost:5173/', origin: 'http://localhost:5173' });
    expect(rendererSource({ devServerUrl: 'http://127.0.0.1:4000', isPackaged: false, indexFile }).kind).toBe('dev-server');
    for (const url of ['https://localhost:5173/', 'http://intranet.example:5173/', 'http://localhost.evil.example/', 'not a url']) {
      expect(() => rendererSource({ devServerUrl: url, isPackaged: false, indexFile })).toThrow(/ELECTRON_RENDERER_URL/);
    }
  });

  it('falls back to the built page when no dev server is given', () => {
    expect(rendererSource({ devServerUrl: '', isPackaged: false, indexFile }).kind).toBe('file');
  });
});

describe('isAppPage / isTrustedSender', () => {
  it('recognises the packaged page with any hash or query, nothing else', () => {
    expect(isAppPage(fileUrl(indexFile), packaged)).toBe(true);
    expect(isAppPage(`${fileUrl(indexFile)}#/audit?x=1`, packaged)).toBe(true);
    expect(isAppPage(fileUrl(outDir, 'renderer', 'other.html'), packaged)).toBe(false);
    expect(isAppPage('http://localhost:5173/', packaged)).toBe(false);
    expect(isAppPage('garbage', packaged)).toBe(false);
  });

  it('recognises the dev server by origin', () => {
    expect(isAppPage('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isAppPage('http://localhost:5174/', dev)).toBe(false);
    expect(isAppPage(fileUrl(indexFile), dev)).toBe(false);
  });

  it('trusts only the top-level frame of the app page', () => {
    expect(isTrustedSender({ url: fileUrl(indexFile), parent: null }, packaged)).toBe(true);
    expect(isTrustedSender({ url: fileUrl(indexFile), parent: {} }, packaged)).toBe(false);
    expect(isTrustedSender(null, packaged)).toBe(false);
    expect(isTrustedSender(undefined, packaged)).toBe(false);
  });
});

describe('isAllowedRequest', () => {
  it('lets the packaged page load its own files and nothing else from disk', () => {
    expect(isAllowedRequest(fileUrl(indexFile), packaged)).toBe(true);
    expect(isAllowedRequest(fileUrl(outDir, 'renderer', 'assets', 'index-abc.js'), packaged)).toBe(true);
    expect(isAllowedRequest(fileUrl(outDir, 'main', 'index.js'), packaged)).toBe(false);
    // Dot segments are folded by the URL parser, encoded ones too: still outside.
    expect(isAllowedRequest(`${fileUrl(outDir, 'renderer')}/../main/index.js`, packaged)).toBe(false);
    expect(isAllowedRequest(`${fileUrl(outDir, 'renderer')}/%2e%2e/main/index.js`, packaged)).toBe(false);
    expect(isAllowedRequest(`${fileUrl(outDir, 'renderer')}/a%2f..%2f..%2fmain/index.js`, packaged)).toBe(false);
    expect(isAllowedRequest('file:///etc/passwd', packaged)).toBe(false);
  });

  it('cancels every network request of the packaged page', () => {
    for (const url of ['https://example.com/x.js', 'http://127.0.0.1:8080/v1/chat', 'ws://localhost:5173/', 'ftp://x/']) {
      expect(isAllowedRequest(url, packaged)).toBe(false);
    }
  });

  it('lets the dev page reach its dev server (http and HMR websocket) only', () => {
    expect(isAllowedRequest('http://localhost:5173/src/main.tsx', dev)).toBe(true);
    expect(isAllowedRequest('ws://localhost:5173/?token=x', dev)).toBe(true);
    expect(isAllowedRequest('ws://localhost:9999/', dev)).toBe(false);
    expect(isAllowedRequest('https://localhost:5173/', dev)).toBe(false);
    expect(isAllowedRequest(fileUrl(indexFile), dev)).toBe(false);
  });

  it('allows page-generated and DevTools URLs (CSP still governs them)', () => {
    for (const url of ['data:image/png;base64,AAAA', 'blob:file:///0c7d', 'devtools://devtools/bundled/inspector.html']) {
      expect(isAllowedRequest(url, packaged)).toBe(true);
    }
    expect(isAllowedRequest('chrome-extension://abc/x.js', packaged)).toBe(false);
  });
});
