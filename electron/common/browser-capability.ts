import type { Text } from './i18n';

/**
 * The browser capability handed to tools (implemented by electron/main/host/browser). Tools never
 * start a browser themselves: the host drives the office's installed Chrome or Edge headless, with
 * a fresh profile per call, and every request the page makes (the page itself, subresources,
 * XHR/fetch, iframes, redirects) is judged against the same allowlist as http.request (policy
 * `http.allow`) and fetched by the host, never by the browser. Everything else is aborted and counted.
 *
 * Every outcome is a value (SPEC G-NOTHROW); the methods reject only on a bug.
 */

export interface BrowserPageRequest {
  /** Absolute http(s) URL under one of the allowed prefixes. */
  readonly url: string;
  /** Aborting (Stop) kills the browser's whole process tree at once; the outcome is failed/aborted. */
  readonly signal: AbortSignal;
}

export interface BrowserOpenRequest extends BrowserPageRequest {
  /** Most characters of page text to return; the rest is cut and reported as `truncated`. */
  readonly maxTextChars: number;
}

export interface BrowserScreenshotRequest extends BrowserPageRequest {
  /** The whole scrollable page (up to the height cap), not only the first screen. */
  readonly fullPage: boolean;
}

/** Requests the page tried to make that were not under the allowlist, and were never sent. */
export interface BlockedRequests {
  readonly count: number;
  /** A few of the origins (scheme://host:port) refused, for the message and the audit record. */
  readonly origins: readonly string[];
  /** Allowed requests not sent because the call's request or byte cap was reached. */
  readonly overLimit: number;
}

interface Loaded {
  /** The URL the page ended on (after allowed redirects). */
  readonly url: string;
  readonly title: string;
  /** HTTP status of the main document. */
  readonly status: number;
  readonly blocked: BlockedRequests;
  /** Pop-up windows the page tried to open (closed at once). */
  readonly popupsClosed: number;
  /** The page had not finished loading when the time cap ran out; what had rendered is returned. */
  readonly partial: boolean;
  /** The browser program used, for the audit record. */
  readonly browser: string;
  readonly durationMs: number;
}

export interface BrowserPage extends Loaded {
  readonly outcome: 'page';
  /** Readable text: headings, paragraphs, list items, table rows (cells joined by " | "), link texts. */
  readonly text: string;
  readonly truncated: boolean;
  /** Characters of text before the cut. */
  readonly totalChars: number;
}

export interface BrowserScreenshot extends Loaded {
  readonly outcome: 'screenshot';
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** fullPage asked for more than the size cap (16,384 px high, 4,096 px wide); the image stops there. */
  readonly clipped: boolean;
}

export type BrowserRefusalReason = 'invalid-url' | 'scheme' | 'userinfo' | 'ambiguous-path' | 'not-allowed';

/** Nothing was sent to `url`. Stage 'redirect': the allowed page redirected to it. */
export interface BrowserRefusal {
  readonly outcome: 'refused';
  readonly reason: BrowserRefusalReason;
  readonly url: string;
  readonly stage: 'request' | 'redirect';
  readonly redirectedFrom: string | null;
  readonly message: Text;
}

export type BrowserFailureReason =
  | 'no-browser' // no Chrome/Edge/Chromium found (or the policy's path is not one)
  | 'launch' // it would not start
  | 'timeout' // the page's time cap ran out before anything loaded
  | 'aborted' // Stop
  | 'navigation' // the page could not be loaded (connection refused, DNS, TLS …)
  | 'too-many-redirects';

export interface BrowserFailure {
  readonly outcome: 'failed';
  readonly reason: BrowserFailureReason;
  readonly url: string;
  readonly blocked: BlockedRequests;
  readonly message: Text;
}

export type BrowserOpenOutcome = BrowserPage | BrowserRefusal | BrowserFailure;
export type BrowserScreenshotOutcome = BrowserScreenshot | BrowserRefusal | BrowserFailure;

export interface BrowserCapability {
  /** The allowed URL prefixes (policy `http.allow`), as written. */
  readonly allowedPrefixes: readonly string[];
  /** The URL checks `open`/`screenshot` make first, without starting a browser: for a tool's precheck. */
  check(url: string): BrowserRefusal | null;
  open(request: BrowserOpenRequest): Promise<BrowserOpenOutcome>;
  screenshot(request: BrowserScreenshotRequest): Promise<BrowserScreenshotOutcome>;
}
