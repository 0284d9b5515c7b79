import { dirname, relative, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where the renderer page comes from, and the checks built on it: which URL the window may show,
 * which frames may talk to main over IPC, which requests the page may make. Pure (no 'electron'),
 * so it runs under plain Node in tests.
 */
export type RendererSource =
  | { readonly kind: 'file'; readonly indexFile: string }
  | { readonly kind: 'dev-server'; readonly url: string; readonly origin: string };

export interface RendererSourceInput {
  /** ELECTRON_RENDERER_URL, set by `electron-vite dev`. */
  readonly devServerUrl: string | undefined;
  /** app.isPackaged: a packaged app never loads a URL from the environment. */
  readonly isPackaged: boolean;
  /** Absolute path of the built renderer/index.html. */
  readonly indexFile: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The dev server URL is honoured only in an unpackaged build and only on a loopback http origin:
 * an environment variable must never be able to point the window at a remote page.
 */
export function rendererSource(input: RendererSourceInput): RendererSource {
  if (!input.isPackaged && input.devServerUrl) {
    let url: URL;
    try {
      url = new URL(input.devServerUrl);
    } catch {
      throw new Error(`ELECTRON_RENDERER_URL is not a URL: ${input.devServerUrl}`);
    }
    if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) {
      throw new Error(`ELECTRON_RENDERER_URL must be http on localhost, not ${url.origin}`);
    }
    return { kind: 'dev-server', url: url.href, origin: url.origin };
  }
  return { kind: 'file', indexFile: resolve(input.indexFile) };
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function isInside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function filePathOf(url: URL): string | null {
  try {
    return fileURLToPath(url);
  } catch {
    return null; // e.g. file://remote-host/share on POSIX
  }
}

/** Is `url` the app's own page (any hash or query)? */
export function isAppPage(url: string, source: RendererSource): boolean {
  const parsed = parse(url);
  if (!parsed) return false;
  if (source.kind === 'dev-server') return parsed.origin === source.origin;
  if (parsed.protocol !== 'file:') return false;
  parsed.hash = '';
  parsed.search = '';
  return parsed.href === pathToFileURL(source.indexFile).href;
}

/** The part of a frame an IPC check needs; Electron's WebFrameMain has both. */
export interface SenderFrame {
  readonly url: string;
  readonly parent: unknown;
}

/**
 * Only the app's own top-level page may call main. A null frame (navigated away or destroyed)
 * and any subframe are refused: the app has no iframes, so one that talks is not ours.
 */
export function isTrustedSender(frame: SenderFrame | null | undefined, source: RendererSource): boolean {
  if (!frame || frame.parent !== null) return false;
  return isAppPage(frame.url, source);
}

const WEB_SOCKET_TO_HTTP: Readonly<Record<string, string>> = { 'ws:': 'http:', 'wss:': 'https:' };

/**
 * Requests the renderer's session may make: the app's own files (file:// inside the renderer
 * folder) or the dev server (its http and HMR websocket), page-generated data:/blob: URLs (CSP
 * still governs them) and DevTools internals. Everything else (any other host, any other file on
 * disk) is cancelled: "no remote content" enforced below the page, not only by CSP.
 */
export function isAllowedRequest(url: string, source: RendererSource): boolean {
  const parsed = parse(url);
  if (!parsed) return false;
  switch (parsed.protocol) {
    case 'data:':
    case 'blob:':
    case 'devtools:':
      return true;
    case 'file:': {
      if (source.kind !== 'file') return false;
      const path = filePathOf(parsed);
      return path !== null && isInside(dirname(source.indexFile), path);
    }
    case 'http:':
    case 'https:':
      return source.kind === 'dev-server' && parsed.origin === source.origin;
    case 'ws:':
    case 'wss:': {
      if (source.kind !== 'dev-server') return false;
      const asHttp = `${WEB_SOCKET_TO_HTTP[parsed.protocol]}//${parsed.host}`;
      return asHttp === source.origin;
    }
    default:
      return false;
  }
}
