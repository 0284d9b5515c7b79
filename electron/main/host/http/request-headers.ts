import type { Text } from '../../../common/i18n';
import { httpMessages } from './messages';

/**
 * Request headers from the caller (ultimately the model). Refused rather than silently dropped,
 * so the model learns what happened and the approved request is the one that is sent:
 * - Host: the allowlist judges the URL's host; a Host header would let a request to an allowed
 *   address reach another virtual host on the same server.
 * - Content-Length, Transfer-Encoding: the client frames the body itself; a caller-chosen length
 *   that disagrees with the body is request smuggling.
 * - Connection, Keep-Alive, Upgrade, TE, Trailer, Expect, Proxy-*: hop-by-hop; the client owns
 *   the connection (one request per connection, never upgraded, never through a proxy).
 * Authorization and Cookie are allowed (intranet APIs need them) and are dropped when a redirect
 * leaves the origin.
 */
const MANAGED = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect']);

/** RFC 9110 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Printable ASCII and tab: no CR/LF (header injection), no NUL, nothing a server may read as Latin-1 or UTF-8 differently. */
const VALUE = /^[\t\x20-\x7e]*$/;

/** Well above what an API call needs (a token, a content type, a few X- headers). */
export const MAX_REQUEST_HEADERS = 50;
/** The same 16 KiB Node allows for response headers; servers commonly reject more (nginx: 8 KiB per line). */
export const MAX_REQUEST_HEADER_BYTES = 16 * 1024;

export function isManagedHeader(lowerName: string): boolean {
  return MANAGED.has(lowerName) || lowerName.startsWith('proxy-');
}

/** Null when the caller's headers may be sent; otherwise what is wrong, for the model. */
export function requestHeaderProblem(headers: Readonly<Record<string, string>> | undefined): Text | null {
  if (headers === undefined) return null;
  const entries = Object.entries(headers);
  const bytes = entries.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
  if (entries.length > MAX_REQUEST_HEADERS || bytes > MAX_REQUEST_HEADER_BYTES) {
    return httpMessages.tooManyHeaders(entries.length, MAX_REQUEST_HEADERS, MAX_REQUEST_HEADER_BYTES);
  }
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    if (!TOKEN.test(name)) return httpMessages.headerName(name);
    const lower = name.toLowerCase();
    if (isManagedHeader(lower)) return httpMessages.managedHeader(name);
    if (typeof value !== 'string' || !VALUE.test(value)) return httpMessages.headerValue(name);
    if (seen.has(lower)) return httpMessages.duplicateHeader(name);
    seen.add(lower);
  }
  return null;
}

/**
 * The headers sent on the first hop: the caller's (lower-cased names), plus defaults the caller
 * did not set. Accept-Encoding defaults to identity: compressed answers are still undone if a
 * server sends them anyway (or the caller asked), under the same size cap.
 */
export function firstHopHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  hasBody: boolean,
  userAgent: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  out['user-agent'] ??= userAgent;
  out['accept'] ??= '*/*';
  out['accept-encoding'] ??= 'identity';
  // A body with no declared type is text we encoded as UTF-8; say so rather than leave servers guessing.
  if (hasBody) out['content-type'] ??= 'text/plain; charset=utf-8';
  return out;
}

/** Headers that describe a body; they go when a redirect turns the request into a GET (Fetch §4.4). */
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];
/** Credentials for the origin they were written for; a redirect elsewhere must not carry them. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie'];

export function redirectHeaders(
  headers: Readonly<Record<string, string>>,
  change: { readonly crossOrigin: boolean; readonly bodyDropped: boolean },
): Record<string, string> {
  const out = { ...headers };
  if (change.bodyDropped) for (const name of BODY_HEADERS) delete out[name];
  if (change.crossOrigin) for (const name of CREDENTIAL_HEADERS) delete out[name];
  return out;
}
