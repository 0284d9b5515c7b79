import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who may talk to the preview server (docs/2026-12-03-preview-harness.md). It binds 127.0.0.1
 * only, and still every API request must carry the random token of this run (other local users
 * and programs do not have it) and come from the preview's own origin: a page on another site open
 * in the same browser can send requests to 127.0.0.1, but its Origin header gives it away, and a
 * DNS-rebinding name fails the Host check.
 */
export interface GuardConfig {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  readonly token: string;
}

export type GuardVerdict = 'ok' | 'bad-host' | 'bad-token' | 'bad-origin';

function sameToken(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function checkHost(req: IncomingMessage, config: GuardConfig): boolean {
  return req.headers.host === new URL(config.origin).host;
}

/**
 * A state-changing call (POST): token in a header (a cross-site form cannot set one), Origin
 * present and ours.
 */
export function guardInvoke(req: IncomingMessage, config: GuardConfig): GuardVerdict {
  if (!checkHost(req, config)) return 'bad-host';
  if (!sameToken(header(req, 'x-baram-token'), config.token)) return 'bad-token';
  if (header(req, 'origin') !== config.origin) return 'bad-origin';
  return 'ok';
}

/**
 * The event stream (GET from EventSource, which cannot set headers): token in the query; a
 * browser marks a cross-site request with Sec-Fetch-Site or Origin, either of which refuses it.
 */
export function guardEvents(req: IncomingMessage, url: URL, config: GuardConfig): GuardVerdict {
  if (!checkHost(req, config)) return 'bad-host';
  if (!sameToken(url.searchParams.get('token'), config.token)) return 'bad-token';
  const site = header(req, 'sec-fetch-site');
  const origin = header(req, 'origin');
  if ((site !== undefined && site !== 'same-origin') || (origin !== undefined && origin !== config.origin)) return 'bad-origin';
  return 'ok';
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export { sameToken };
