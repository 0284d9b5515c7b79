import type { Request, Route } from 'playwright-core';
import type { BrowserRefusalReason } from '../../../common/browser-capability';
import type { HttpMethod } from '../../../common/http-capability';
import type { Text } from '../../../common/i18n';
import { interpretBody, parseContentType } from '../http/body-decoding';
import { classifyError } from '../http/failures';
import { sendOnce, type Agents, type HopResult } from '../http/send-once';
import { judgeUrl, type UrlAllowlist } from '../http/url-allowlist';

/**
 * Every HTTP(S) request of the page, answered by the host: the browser has no network of its own
 * (launch.ts), so what the page sees is exactly what this file fetched, and it fetches only what
 * the allowlist covers — the same judgeUrl as http.request, on the request's URL and on every
 * redirect target before anything is sent there. The rest is aborted and counted.
 *
 * Redirects are followed here, hop by hop, never by the browser (an answered redirect would be
 * followed by the browser without interception, into the dead proxy). For the page's own document
 * a redirect is not answered at all: it is recorded, the navigation aborted, and the driver goes to
 * the (already judged) target itself, so the page's address and its relative links are the
 * target's.
 */

export interface NetworkLimits {
  /** Body bytes kept per response (after Content-Encoding is undone). */
  readonly maxResponseBytes: number;
  /** All responses of one call together; past it the page gets no more (counted as over the limit). */
  readonly maxTotalBytes: number;
  /** Requests one call may send (a script looping over fetch must not flood the intranet server). */
  readonly maxRequests: number;
  readonly maxRedirects: number;
  readonly maxHeaderBytes: number;
}

export interface RedirectRefused {
  readonly reason: BrowserRefusalReason;
  readonly from: string;
  readonly to: string;
  readonly message: Text;
}

/** What the page's network did during one call; read by the driver after the page settled. */
export class PageNetwork {
  blocked = 0;
  readonly blockedOrigins = new Set<string>();
  /** Allowed requests left unsent because a cap of the call was reached. */
  overLimit = 0;
  /** Requests sent to allowed servers (every redirect hop counts). */
  sent = 0;
  /** The main document's allowed redirect target, for the driver to navigate to. */
  pendingRedirect: string | null = null;
  /** The main document redirected outside the allowlist. */
  redirectRefused: RedirectRefused | null = null;
  /** The last navigation of the page's own frame that was refused (a script moving the page elsewhere). */
  mainBlocked: string | null = null;
  /** Too many redirects on the main document. */
  redirectLoop = false;
  /** Why the page's own document could not be fetched (DNS, connection, certificate …), as http.request says it. */
  mainError: Text | null = null;
  /** Status of the last main-document response. */
  mainStatus = 0;
  totalBytes = 0;
  readonly #stop = new AbortController();

  constructor(
    private readonly allowlist: UrlAllowlist,
    private readonly agents: Agents,
    private readonly limits: NetworkLimits,
    private readonly isMainDocument: (request: Request) => boolean,
  ) {}

  /** Ends every fetch still running (the call is over). */
  close(): void {
    this.#stop.abort();
  }

  #block(url: string): void {
    this.blocked++;
    let origin = url;
    try {
      const parsed = new URL(url);
      origin = parsed.origin === 'null' ? `${parsed.protocol}` : parsed.origin;
    } catch {
      /* shown as written */
    }
    if (this.blockedOrigins.size < 5) this.blockedOrigins.add(origin.slice(0, 200));
  }

  /** Counts a request that never reached this handler (a WebSocket, a pop-up's first page). */
  blockOther(url: string): void {
    this.#block(url);
  }

  /** The route handler (context.route('**', …)). Never throws: a late answer to a dead browser is ignored. */
  async handle(route: Route): Promise<void> {
    try {
      await this.#answer(route);
    } catch {
      await route.abort('failed').catch(() => {});
    }
  }

  async #answer(route: Route): Promise<void> {
    const request = route.request();
    const main = this.isMainDocument(request);
    const first = judgeUrl(request.url(), this.allowlist);
    if (!first.ok) {
      this.#block(request.url());
      if (main) this.mainBlocked = first.shown;
      return route.abort('blockedbyclient');
    }
    let target = first.url;
    let method = request.method().toUpperCase() as HttpMethod;
    let body = request.postDataBuffer();
    let headers = forwardedHeaders(await request.allHeaders());
    for (let hops = 0; ; hops++) {
      if (this.totalBytes >= this.limits.maxTotalBytes || this.sent >= this.limits.maxRequests) {
        this.overLimit++;
        return route.abort('blockedbyclient');
      }
      this.sent++;
      const result: HopResult = await sendOnce({
        url: target,
        method,
        headers,
        body,
        signal: this.#stop.signal,
        maxBodyBytes: Math.min(this.limits.maxResponseBytes, this.limits.maxTotalBytes - this.totalBytes),
        maxHeaderBytes: this.limits.maxHeaderBytes,
        agents: this.agents,
      });
      if (result.kind === 'error') {
        if (main && !this.#stop.signal.aborted) this.mainError = classifyError(result.error, target, this.limits.maxHeaderBytes).message;
        return route.abort(this.#stop.signal.aborted ? 'aborted' : 'failed');
      }
      if (result.kind === 'response') {
        this.totalBytes += result.body.length;
        if (main) this.mainStatus = result.status;
        return route.fulfill({ status: result.status, headers: withCharset(fulfilledHeaders(result.headers), result.body, result.truncated), body: result.body });
      }
      let next: URL;
      try {
        next = new URL(result.location, target);
      } catch {
        return route.abort('failed');
      }
      const verdict = judgeUrl(next, this.allowlist, result.location);
      if (!verdict.ok) {
        this.#block(next.href);
        if (main) this.redirectRefused = { reason: verdict.reason, from: target.href, to: verdict.shown, message: verdict.message };
        return route.abort('blockedbyclient');
      }
      if (hops + 1 > this.limits.maxRedirects) {
        if (main) this.redirectLoop = true;
        return route.abort('failed');
      }
      if (main) {
        this.pendingRedirect = verdict.url.href;
        return route.abort('aborted');
      }
      // As browsers do (Fetch §4.4): 303, and 301/302 after POST, turn into a GET without a body.
      if (result.status === 303 || ((result.status === 301 || result.status === 302) && method === 'POST')) {
        method = 'GET';
        body = null;
        delete headers['content-type'];
      }
      if (verdict.url.origin !== target.origin) {
        headers = { ...headers };
        delete headers['cookie'];
        delete headers['authorization'];
      }
      target = verdict.url;
    }
  }
}

/** The browser's own headers, minus those the host's client manages (framing, connection, proxies). */
const NOT_FORWARDED = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'accept-encoding']);

function forwardedHeaders(all: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(all)) {
    const lower = name.toLowerCase();
    if (lower.startsWith(':') || lower.startsWith('proxy-') || NOT_FORWARDED.has(lower)) continue;
    // Values Node would refuse to send (a CR/LF from a hostile page) are dropped, not sent.
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) continue;
    out[lower] = value;
  }
  // The body comes back decoded (send-once.ts undoes gzip/deflate/br under the size cap).
  out['accept-encoding'] = 'gzip, deflate, br';
  return out;
}

/**
 * The response's headers as the browser gets them: the body is already decoded and complete, so
 * the framing and encoding headers go; Alt-Svc goes too (it invites QUIC, which is off anyway).
 */
const NOT_FULFILLED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'alt-svc']);

function fulfilledHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_FULFILLED.has(name)) continue;
    // playwright-core splits multi-valued headers (Set-Cookie) on newlines.
    out[name] = Array.isArray(value) ? value.join('\n') : value;
  }
  return out;
}

/**
 * Text that declares no charset anywhere (header, BOM, <meta>) is read by Chromium in its UI
 * locale's legacy encoding (windows-1252 on an English system), which turns both UTF-8 and EUC-KR
 * Korean into mojibake. The host decides as http.request does (valid UTF-8, else CP949) and says
 * so in the Content-Type; a page's own declaration is left to the browser.
 */
function withCharset(headers: Record<string, string>, body: Buffer, truncated: boolean): Record<string, string> {
  const declared = headers['content-type'];
  const media = parseContentType(declared);
  if (media.charset !== null || media.type === null || !(media.type.startsWith('text/') || media.type.includes('javascript'))) return headers;
  const decoded = interpretBody(body, declared, truncated);
  if (decoded.kind !== 'text' || decoded.charsetSource !== 'detected') return headers;
  return { ...headers, 'content-type': `${media.type}; charset=${decoded.charset === 'cp949' ? 'euc-kr' : 'utf-8'}` };
}
