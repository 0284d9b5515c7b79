import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { rootCertificates } from 'node:tls';
import {
  HTTP_METHODS,
  type HttpCapability,
  type HttpFailure,
  type HttpMethod,
  type HttpOutcome,
  type HttpRedirect,
  type HttpRefusal,
  type HttpRefusalReason,
  type HttpRequest,
  type HttpRequestSpec,
  type HttpResponse,
} from '../../../common/http-capability';
import type { Text } from '../../../common/i18n';
import { interpretBody, parseContentType } from './body-decoding';
import { classifyError } from './failures';
import { httpMessages } from './messages';
import { firstHopHeaders, redirectHeaders, requestHeaderProblem } from './request-headers';
import { sendOnce, type Agents, type HopResult } from './send-once';
import { compileAllowlist, judgeUrl, type UrlAllowlist } from './url-allowlist';

/** Intranet pages and APIs answer in well under a second; 30 s covers a slow report export without letting a stuck server hold a turn. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
/**
 * 5 MiB: a large wiki page or API answer is tens to hundreds of KiB; more than this is a file to
 * download, not something a model with a context of tens of thousands of tokens can read.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** Browsers allow 20; a legitimate intranet chain (login → landing → page) needs 2–3. */
export const DEFAULT_MAX_REDIRECTS = 5;
/** A model writes request bodies token by token; a megabyte is far beyond any it can produce. */
export const DEFAULT_MAX_REQUEST_BODY_BYTES = 1024 * 1024;
/** Node's own default for response headers; real responses use 1–4 KiB. */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;

export interface HttpClientOptions {
  /** The policy's `http.allow` URL prefixes (SPEC §8). Empty: every request is refused. */
  readonly allow: readonly string[];
  /** Total time for one request, redirects and body included. */
  readonly timeoutMs?: number;
  /** Response body bytes kept; the connection is closed beyond and the response marked truncated. */
  readonly maxResponseBytes?: number;
  readonly maxRedirects?: number;
  readonly maxRequestBodyBytes?: number;
  readonly maxHeaderBytes?: number;
  /** Extra trusted certificate authorities (PEM), e.g. the office's own, added to Node's bundled roots. */
  readonly ca?: readonly string[];
  readonly userAgent?: string;
}

/** The response headers worth showing the model and the audit record; Set-Cookie is deliberately absent. */
const SHOWN_RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-disposition',
  'last-modified',
  'etag',
  'date',
  'location',
  'retry-after',
  'www-authenticate',
];

function positiveInteger(name: string, value: number | undefined, fallback: number, min = 1): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < min) throw new Error(`createHttpClient: ${name} must be an integer ≥ ${min}: ${String(value)}`);
  return v;
}

interface Limits {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxRedirects: number;
  readonly maxRequestBodyBytes: number;
  readonly maxHeaderBytes: number;
  readonly userAgent: string;
}

interface Prepared {
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body: Buffer | null;
}

function refusal(
  reason: HttpRefusalReason,
  url: string,
  message: Text,
  at: { readonly stage: 'request' } | { readonly stage: 'redirect'; readonly from: string; readonly redirects: readonly HttpRedirect[] },
): HttpRefusal {
  return {
    outcome: 'refused',
    reason,
    url,
    stage: at.stage,
    redirectedFrom: at.stage === 'redirect' ? at.from : null,
    redirects: at.stage === 'redirect' ? at.redirects : [],
    message,
  };
}

/** Every check that needs no network, in the order a model most needs to hear about: where, how, what. */
function prepare(spec: HttpRequestSpec, allowlist: UrlAllowlist, limits: Limits): Prepared | HttpRefusal {
  const verdict = judgeUrl(spec.url, allowlist);
  if (!verdict.ok) return refusal(verdict.reason, verdict.shown, verdict.message, { stage: 'request' });
  const shown = verdict.url.href;
  if (!HTTP_METHODS.includes(spec.method)) {
    return refusal('method', shown, httpMessages.method(String(spec.method), HTTP_METHODS), { stage: 'request' });
  }
  const headerProblem = requestHeaderProblem(spec.headers);
  if (headerProblem) return refusal('header', shown, headerProblem, { stage: 'request' });
  // An empty body is no body: a model filling every field sends body: "" with a GET.
  const body = spec.body === undefined || spec.body === '' ? null : Buffer.from(spec.body, 'utf8');
  if (body !== null && (spec.method === 'GET' || spec.method === 'HEAD')) {
    return refusal('body', shown, httpMessages.bodyWithoutPayloadMethod(spec.method), { stage: 'request' });
  }
  if (body !== null && body.length > limits.maxRequestBodyBytes) {
    return refusal('body', shown, httpMessages.bodyTooLarge(body.length, limits.maxRequestBodyBytes), { stage: 'request' });
  }
  return { url: verdict.url, headers: firstHopHeaders(spec.headers, body !== null, limits.userAgent), body };
}

/**
 * The method after a redirect, as browsers do (Fetch §4.4): 303 makes anything but HEAD a GET;
 * 301 and 302 turn POST into GET (historic behaviour every server expects); 307 and 308 keep the
 * method and body, which is what they exist for.
 */
function methodAfterRedirect(status: number, method: HttpMethod): HttpMethod {
  if (status === 303) return method === 'HEAD' ? 'HEAD' : 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

function headerValue(headers: http.IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function shownHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SHOWN_RESPONSE_HEADERS) {
    const value = headerValue(headers, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function totalBytesOf(hop: Extract<HopResult, { kind: 'response' }>): number | null {
  if (!hop.truncated) return hop.body.length;
  // Content-Length counts the bytes on the wire; with a Content-Encoding it says nothing about the decoded size.
  if (headerValue(hop.headers, 'content-encoding') !== undefined) return null;
  const declared = headerValue(hop.headers, 'content-length');
  return declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : null;
}

export function createHttpClient(options: HttpClientOptions): HttpCapability {
  const limits: Limits = {
    timeoutMs: positiveInteger('timeoutMs', options.timeoutMs, DEFAULT_HTTP_TIMEOUT_MS),
    maxResponseBytes: positiveInteger('maxResponseBytes', options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES),
    maxRedirects: positiveInteger('maxRedirects', options.maxRedirects, DEFAULT_MAX_REDIRECTS, 0),
    maxRequestBodyBytes: positiveInteger('maxRequestBodyBytes', options.maxRequestBodyBytes, DEFAULT_MAX_REQUEST_BODY_BYTES),
    maxHeaderBytes: positiveInteger('maxHeaderBytes', options.maxHeaderBytes, DEFAULT_MAX_HEADER_BYTES, 1024),
    userAgent: options.userAgent ?? 'Baram',
  };
  const allowlist = compileAllowlist([...options.allow]);
  // Dedicated agents: never http.globalAgent (which other code, or a future Node reading
  // NODE_USE_ENV_PROXY, could configure), never a proxy, one connection per request.
  const agents: Agents = {
    http: new http.Agent({ keepAlive: false }),
    https: new https.Agent({
      keepAlive: false,
      rejectUnauthorized: true,
      ...(options.ca && options.ca.length > 0 ? { ca: [...rootCertificates, ...options.ca] } : {}),
    }),
  };

  return {
    allowedPrefixes: allowlist.prefixes,
    check(spec) {
      const prepared = prepare(spec, allowlist, limits);
      return 'outcome' in prepared ? prepared : null;
    },
    request: (request) => perform(request, allowlist, limits, agents),
  };
}

async function perform(request: HttpRequest, allowlist: UrlAllowlist, limits: Limits, agents: Agents): Promise<HttpOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const prepared = prepare(request, allowlist, limits);
  if ('outcome' in prepared) return prepared;

  // One controller stops whatever hop is running, for either reason; `stopped` says which came first.
  const control = new AbortController();
  const state: { stopped: 'timeout' | 'aborted' | null } = { stopped: null };
  const stop = (why: 'timeout' | 'aborted') => {
    state.stopped ??= why;
    control.abort(why);
  };
  const timer = setTimeout(() => stop('timeout'), limits.timeoutMs);
  const onCallerAbort = () => stop('aborted');
  if (request.signal.aborted) stop('aborted');
  else request.signal.addEventListener('abort', onCallerAbort, { once: true });

  let url = prepared.url;
  let method = request.method;
  let headers = prepared.headers;
  let body = prepared.body;
  const redirects: HttpRedirect[] = [];
  const failed = (reason: HttpFailure['reason'], code: string | null, message: Text): HttpFailure => ({
    outcome: 'failed',
    reason,
    url: url.href,
    redirects: [...redirects],
    code,
    durationMs: elapsed(),
    message,
  });

  try {
    for (;;) {
      const hop = await sendOnce({
        url,
        method,
        headers,
        body,
        signal: control.signal,
        maxBodyBytes: limits.maxResponseBytes,
        maxHeaderBytes: limits.maxHeaderBytes,
        agents,
      });
      if (state.stopped === 'timeout') return failed('timeout', null, httpMessages.timeout(limits.timeoutMs));
      if (state.stopped === 'aborted') return failed('aborted', null, httpMessages.aborted);
      if (hop.kind === 'error') {
        const failure = classifyError(hop.error, url, limits.maxHeaderBytes);
        return failed(failure.reason, failure.code, failure.message);
      }
      if (hop.kind === 'response') return response(hop, url, redirects, elapsed());

      if (redirects.length >= limits.maxRedirects) {
        return failed('too-many-redirects', null, httpMessages.tooManyRedirects(limits.maxRedirects, url.href));
      }
      let target: URL;
      try {
        target = new URL(hop.location, url);
      } catch {
        return failed('protocol', null, httpMessages.badLocation(url.href));
      }
      // Judged before any connection to the target: a refused redirect sends it nothing.
      const verdict = judgeUrl(target, allowlist, hop.location);
      if (!verdict.ok) {
        return refusal(verdict.reason, verdict.shown, httpMessages.redirectNotAllowed(url.href, verdict.shown, verdict.message), {
          stage: 'redirect',
          from: url.href,
          redirects: [...redirects],
        });
      }
      const nextMethod = methodAfterRedirect(hop.status, method);
      const bodyDropped = nextMethod !== method;
      headers = redirectHeaders(headers, { crossOrigin: target.origin !== url.origin, bodyDropped });
      if (bodyDropped) body = null;
      redirects.push({ status: hop.status, from: url.href, to: target.href, method: nextMethod });
      url = target;
      method = nextMethod;
    }
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', onCallerAbort);
  }
}

function response(hop: Extract<HopResult, { kind: 'response' }>, url: URL, redirects: readonly HttpRedirect[], durationMs: number): HttpResponse {
  const contentType = headerValue(hop.headers, 'content-type');
  return {
    outcome: 'response',
    status: hop.status,
    statusText: hop.statusText,
    url: url.href,
    remoteAddress: hop.remoteAddress,
    redirects: [...redirects],
    headers: shownHeaders(hop.headers),
    contentType: parseContentType(contentType).type,
    body: interpretBody(hop.body, contentType, hop.truncated),
    truncated: hop.truncated,
    receivedBytes: hop.body.length,
    totalBytes: totalBytesOf(hop),
    durationMs,
  };
}
