import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative, resolve, isAbsolute } from 'node:path';
import { isIpcChannel, ipcFail } from '../../common/ipc-contract';
import { headerCsp } from '../app/csp';
import { dispatch, type IpcHandlers, type IpcProblem } from '../app/ipc';
import { guardEvents, guardInvoke, checkHost, sameToken, type GuardConfig } from './request-guard';
import type { EventHub } from './event-hub';

/**
 * The browser preview of the desktop app (issue 17 scope 7): the built renderer served on
 * 127.0.0.1, with the preload's `window.baram` replaced by a small bridge script that speaks HTTP
 * to the same IPC dispatcher main uses (same contract, same validation, same handlers). Plain
 * Node; the e2e tests drive exactly this.
 */
export interface PreviewServerOptions {
  /** The built renderer folder (out/renderer). */
  readonly rendererDir: string;
  /** The bundled preview bridge (renderer/preview/bridge.ts), served as /__baram/bridge.js. */
  readonly bridgeScript: string;
  readonly handlers: IpcHandlers;
  readonly events: EventHub;
  /** Port to bind on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
  readonly report?: (problem: PreviewProblem) => void;
}

export type PreviewProblem =
  | IpcProblem
  | { readonly kind: 'refused'; readonly why: string; readonly path: string }
  | { readonly kind: 'server-error'; readonly error: unknown };

export interface PreviewServer {
  /** The address to open: origin + token. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const BRIDGE_TAG = '<script src="./__baram/bridge.js"></script>';

export async function startPreviewServer(o: PreviewServerOptions): Promise<PreviewServer> {
  const token = randomBytes(24).toString('base64url');
  const rendererDir = resolve(o.rendererDir);
  const indexHtml = await readFile(join(rendererDir, 'index.html'), 'utf8');
  // The bridge must define window.baram before the app's module script runs: a classic script
  // placed first in <head> runs before every (deferred) module script.
  const previewHtml = indexHtml.replace('<head>', `<head>\n    ${BRIDGE_TAG}`);
  if (previewHtml === indexHtml) throw new Error(`${rendererDir}/index.html has no <head>`);
  const report = o.report ?? (() => undefined);
  let config: GuardConfig = { origin: '', token };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      report({ kind: 'server-error', error });
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', config.origin);
    const refuse = (status: number, why: string) => {
      report({ kind: 'refused', why, path: url.pathname });
      send(res, status, 'text/plain; charset=utf-8', why);
    };
    if (url.pathname.startsWith('/__baram/invoke/') && req.method === 'POST') {
      const verdict = guardInvoke(req, config);
      if (verdict !== 'ok') return refuse(403, verdict);
      const channel = decodeURIComponent(url.pathname.slice('/__baram/invoke/'.length));
      if (!isIpcChannel(channel)) return sendJson(res, 404, ipcFail('BAD_REQUEST', 'no such channel'));
      const body = await readBody(req);
      let request: unknown;
      try {
        request = body === null ? undefined : JSON.parse(body);
      } catch {
        return sendJson(res, 400, ipcFail('BAD_REQUEST', 'the body is not JSON'));
      }
      // The page's origin plays the sender frame: the dispatcher applies its own check to it.
      const result = await dispatch(channel, o.handlers, { senderFrame: { url: `${req.headers.origin}/`, parent: null } }, [request], {
        isTrustedSender: (frame) => frame !== null && new URL(frame.url).origin === config.origin,
        report,
      });
      return sendJson(res, 200, result);
    }
    if (req.method !== 'GET') return refuse(405, 'method not allowed');
    if (url.pathname === '/__baram/events') {
      const verdict = guardEvents(req, url, config);
      if (verdict !== 'ok') return refuse(403, verdict);
      return o.events.attach(res);
    }
    if (!checkHost(req, config)) return refuse(403, 'bad-host');
    if (url.pathname === '/__baram/bridge.js') return send(res, 200, TYPES['.js']!, o.bridgeScript);
    if (url.pathname === '/' || url.pathname === '/index.html') {
      if (!sameToken(url.searchParams.get('token'), token)) return refuse(403, 'bad-token');
      return send(res, 200, TYPES['.html']!, previewHtml);
    }
    const file = resolve(rendererDir, `.${decodeURIComponent(url.pathname)}`);
    const rel = relative(rendererDir, file);
    if (rel.startsWith('..') || isAbsolute(rel)) return refuse(404, 'not found');
    let content: Buffer;
    try {
      content = await readFile(file);
    } catch {
      return refuse(404, 'not found');
    }
    send(res, 200, TYPES[extname(file)] ?? 'application/octet-stream', content);
  }

  await new Promise<void>((done) => server.listen(o.port ?? 0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  config = { origin: `http://127.0.0.1:${port}`, token };
  return {
    url: `${config.origin}/?token=${token}`,
    origin: config.origin,
    token,
    close: () =>
      new Promise<void>((done) => {
        o.events.close();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    'content-type': type,
    'content-security-policy': headerCsp(),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

/** The request body as text, or null when it is larger than MAX_BODY (then the request is refused as malformed). */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((done, fail) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) parts.push(chunk);
    });
    req.on('end', () => done(size > MAX_BODY ? null : Buffer.concat(parts).toString('utf8')));
    req.on('error', fail);
  });
}
