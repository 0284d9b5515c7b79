import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { HttpMethod } from '../../../common/http-capability';

/**
 * One request/response exchange on one fresh connection, with node:http(s) directly. No fetch or
 * undici (their dispatchers can be swapped process-wide, and newer Node versions let them read
 * HTTP_PROXY); no global agent. The agents come from the client: keepAlive off, so every hop is
 * its own connection to the address judged for it, and nothing lingers after a cap or an abort.
 */

export interface Agents {
  readonly http: http.Agent;
  readonly https: https.Agent;
}

export interface Hop {
  readonly url: URL;
  readonly method: HttpMethod;
  /** Lower-case names. Content-Length is added here from the body. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | null;
  /** Aborting destroys the socket at once. */
  readonly signal: AbortSignal;
  /** Body bytes kept (after Content-Encoding is undone); more closes the connection. */
  readonly maxBodyBytes: number;
  readonly maxHeaderBytes: number;
  readonly agents: Agents;
}

export type HopResult =
  | { readonly kind: 'redirect'; readonly status: number; readonly location: string }
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly statusText: string;
      readonly headers: http.IncomingHttpHeaders;
      readonly body: Buffer;
      readonly truncated: boolean;
      readonly remoteAddress: string | null;
    }
  | { readonly kind: 'error'; readonly error: unknown };

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * 100 is far beyond real responses (a busy page sends ~20); headers past it are dropped by Node's
 * parser, and the 16 KiB size cap stops a flood in any case.
 */
const MAX_RESPONSE_HEADER_COUNT = 100;

/** Marks an error of the content decoder (bad gzip/deflate/brotli data). */
export const CONTENT_ENCODING_ERROR = 'ERR_BARAM_CONTENT_ENCODING';

function decoderFor(encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      // identity, absent, or an encoding we do not undo: the raw bytes are judged (and most likely
      // summarised as binary), never decoded as something they are not.
      return null;
  }
}

/** Node wants an IPv6 literal without the URL's brackets. */
function connectHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export function sendOnce(hop: Hop): Promise<HopResult> {
  return new Promise((resolve) => {
    const isHttps = hop.url.protocol === 'https:';
    const headers: Record<string, string> = { ...hop.headers };
    if (hop.body !== null) headers['content-length'] = String(hop.body.length);
    else if (hop.method === 'POST' || hop.method === 'PUT' || hop.method === 'PATCH') headers['content-length'] = '0';

    const options: https.RequestOptions = {
      protocol: hop.url.protocol,
      hostname: connectHost(hop.url),
      port: hop.url.port === '' ? (isHttps ? 443 : 80) : Number(hop.url.port),
      // Exactly what was judged: the URL's serialised path and query (never the fragment).
      path: `${hop.url.pathname}${hop.url.search}`,
      method: hop.method,
      headers,
      agent: isHttps ? hop.agents.https : hop.agents.http,
      maxHeaderSize: hop.maxHeaderBytes,
      // Explicit, so NODE_OPTIONS=--insecure-http-parser cannot turn on lenient (smuggling-prone) parsing.
      insecureHTTPParser: false,
      // Explicit, so NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment cannot turn verification off.
      ...(isHttps ? { rejectUnauthorized: true } : {}),
    };

    let settled = false;
    const req = (isHttps ? https : http).request(options);
    req.maxHeadersCount = MAX_RESPONSE_HEADER_COUNT;

    const finish = (result: HopResult): void => {
      if (settled) return;
      settled = true;
      hop.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = (): void => {
      finish({ kind: 'error', error: hop.signal.reason });
      req.destroy();
    };

    req.on('error', (error) => finish({ kind: 'error', error }));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(status) && typeof location === 'string' && location !== '') {
        // The redirect's own body is never read: destroying the request closes the connection
        // (and makes the unread response emit 'aborted', which must not go unheard).
        res.on('error', () => {});
        finish({ kind: 'redirect', status, location: headerText(location) });
        req.destroy();
        return;
      }
      collectBody(res, hop, (result) => {
        finish(result);
        // After a cap, an error or the end alike: nothing more is read from this connection.
        req.destroy();
      });
    });

    if (hop.signal.aborted) {
      onAbort();
      return;
    }
    hop.signal.addEventListener('abort', onAbort, { once: true });
    req.end(hop.body ?? undefined);
  });
}

/**
 * Node hands header values over as Latin-1; a Location with raw UTF-8 bytes (non-ASCII paths
 * from some intranet servers) is re-read as UTF-8, as browsers do.
 */
function headerText(value: string): string {
  if (!/[\x80-\xff]/.test(value)) return value;
  const utf8 = Buffer.from(value, 'latin1').toString('utf8');
  return utf8.includes('\ufffd') ? value : utf8;
}

function collectBody(res: http.IncomingMessage, hop: Hop, done: (result: HopResult) => void): void {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = decoderFor(encoding);
  const chunks: Buffer[] = [];
  let kept = 0;
  let wireBytes = 0;
  let over = false;

  const response = (truncated: boolean): HopResult => ({
    kind: 'response',
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    headers: res.headers,
    body: Buffer.concat(chunks, kept),
    truncated,
    remoteAddress: res.socket?.remoteAddress ?? null,
  });
  const stopAtCap = (): void => {
    if (over) return;
    over = true;
    decoder?.destroy();
    done(response(true));
  };

  const source: Readable = decoder ?? res;
  source.on('data', (chunk: Buffer) => {
    if (over) return;
    const room = hop.maxBodyBytes - kept;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      kept += room;
      stopAtCap();
      return;
    }
    chunks.push(chunk);
    kept += chunk.length;
  });
  source.on('end', () => {
    if (!over) done(response(false));
  });
  if (decoder) {
    // Compressed bytes count against the cap too: a stream of empty gzip members decodes to
    // nothing and would otherwise be read until the time cap.
    res.on('data', (chunk: Buffer) => {
      wireBytes += chunk.length;
      if (wireBytes > hop.maxBodyBytes) stopAtCap();
    });
    decoder.on('error', () => {
      if (!over) done({ kind: 'error', error: Object.assign(new Error(`bad ${encoding} data`), { code: CONTENT_ENCODING_ERROR, encoding }) });
    });
    res.pipe(decoder);
  }
  res.on('error', (error) => done({ kind: 'error', error }));
  // A connection that closes before the declared end (Content-Length or the last chunk) is an
  // error, not a short answer: the model must not take half a page for the page.
  res.on('close', () => {
    if (!res.complete) done({ kind: 'error', error: Object.assign(new Error('response ended early'), { code: 'ECONNRESET' }) });
  });
}
