import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { rootCertificates } from 'node:tls';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import type {
  BlockedRequests,
  BrowserCapability,
  BrowserFailure,
  BrowserFailureReason,
  BrowserRefusal,
  BrowserScreenshot,
  BrowserPage,
} from '../../../common/browser-capability';
import type { Text } from '../../../common/i18n';
import type { Agents } from '../http/send-once';
import { compileAllowlist, judgeUrl } from '../http/url-allowlist';
import { findBrowser } from './find-browser';
import { launchBrowser, type LaunchedBrowser } from './launch';
import { browserMessages } from './messages';
import { PageNetwork, type NetworkLimits } from './page-network';
import { pageTextScript, pngSize } from './page-text';

/** An intranet page that needs longer than this to load is broken; the same 30 s as http.request. */
export const DEFAULT_BROWSER_TIMEOUT_MS = 30_000;
/** Chrome starts in 1–3 s on an office PC; a cold start on a loaded machine can take several times that. */
export const DEFAULT_BROWSER_START_TIMEOUT_MS = 20_000;
/** Per response, as http.request's cap. */
export const DEFAULT_BROWSER_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** A heavy groupware page loads 5–15 MiB of scripts and images; more is not a page to read. */
export const DEFAULT_BROWSER_MAX_TOTAL_BYTES = 50 * 1024 * 1024;
/** A heavy groupware page makes 100–300 requests; thousands is a script in a loop. */
export const DEFAULT_BROWSER_MAX_REQUESTS = 2_000;
/** Chromium's own limit for one image is 16,384 px; a longer page is cut there (and said so). */
export const MAX_SCREENSHOT_HEIGHT = 16_384;
/** A page wider than this (a runaway table) is cut at it: four screens across is already unreadable as one image. */
export const MAX_SCREENSHOT_WIDTH = 4_096;
/** After 'load', how long to let scripts fetch and render (JS-built pages) before reading. */
const SETTLE_MS = 3_000;
/** What the driver itself may take after the page time (reading the text, the screenshot). */
const WORK_MS = 15_000;
const VIEWPORT = { width: 1280, height: 800 };

export interface BrowserHostOptions {
  /** The policy's `http.allow` URL prefixes: the page and everything it loads must be under one. */
  readonly allow: readonly string[];
  /** The policy's `browser.executablePath`; absent: the installed Chrome/Edge/Chromium is found. */
  readonly executablePath?: string;
  readonly timeoutMs?: number;
  readonly startTimeoutMs?: number;
  readonly maxResponseBytes?: number;
  readonly maxTotalBytes?: number;
  readonly maxRequests?: number;
  /** Extra trusted certificate authorities (PEM) for the host's own fetches, as the HTTP client takes. */
  readonly ca?: readonly string[];
  /** For discovery (tests); defaults to this process's. */
  readonly platform?: NodeJS.Platform;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface BrowserHost extends BrowserCapability {
  /** Kills every browser still running (the session is closing). */
  closeAll(): Promise<void>;
}

type Loaded = Omit<BrowserPage, 'outcome' | 'text' | 'truncated' | 'totalChars'>;

const noneBlocked: BlockedRequests = { count: 0, origins: [], overLimit: 0 };

function refusalOf(verdict: Extract<ReturnType<typeof judgeUrl>, { ok: false }>): BrowserRefusal {
  return { outcome: 'refused', reason: verdict.reason, url: verdict.shown, stage: 'request', redirectedFrom: null, message: verdict.message };
}

function failed(reason: BrowserFailureReason, url: string, message: Text, blocked: BlockedRequests = noneBlocked): BrowserFailure {
  return { outcome: 'failed', reason, url, blocked, message };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').replace(/^page\.goto: /, '').slice(0, 200);
}

type Extracted = { text: string; total: number };

/**
 * The page's text, then each frame's on an allowed address, in document order, within one budget.
 * Groupware often shows its content in frames (a <frameset> page has no text of its own); a frame
 * elsewhere was never loaded (its requests were blocked) and has nothing to give.
 */
async function readableText(page: Page, maxChars: number, allowlist: ReturnType<typeof compileAllowlist>): Promise<Extracted> {
  const main = (await page.evaluate(pageTextScript(maxChars))) as Extracted;
  let text = main.text;
  let total = main.total;
  for (const frame of page.frames()) {
    if (frame === page.mainFrame() || !judgeUrl(frame.url(), allowlist).ok) continue;
    const head = `${text === '' ? '' : '\n\n'}[frame ${frame.url()}]\n`;
    const room = maxChars - text.length - head.length;
    const part = room > 0 ? ((await frame.evaluate(pageTextScript(room)).catch(() => ({ text: '', total: 0 }))) as Extracted) : null;
    if (part === null) {
      total += head.length; // counted as left out, without reading it
      continue;
    }
    if (part.total === 0) continue;
    text += head + part.text;
    total += head.length + part.total;
  }
  return { text, total };
}

export function createBrowserHost(options: BrowserHostOptions): BrowserHost {
  const allowlist = compileAllowlist([...options.allow]);
  const timeoutMs = options.timeoutMs ?? DEFAULT_BROWSER_TIMEOUT_MS;
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_BROWSER_START_TIMEOUT_MS;
  const limits: NetworkLimits = {
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_BROWSER_MAX_RESPONSE_BYTES,
    maxTotalBytes: options.maxTotalBytes ?? DEFAULT_BROWSER_MAX_TOTAL_BYTES,
    maxRequests: options.maxRequests ?? DEFAULT_BROWSER_MAX_REQUESTS,
    maxRedirects: 5,
    maxHeaderBytes: 16 * 1024,
  };
  // As the HTTP client's: never the global agent, never a proxy, one connection per request.
  const agents: Agents = {
    http: new http.Agent({ keepAlive: false }),
    https: new https.Agent({ keepAlive: false, rejectUnauthorized: true, ...(options.ca && options.ca.length > 0 ? { ca: [...rootCertificates, ...options.ca] } : {}) }),
  };
  const live = new Set<LaunchedBrowser>();

  const check = (url: string): BrowserRefusal | null => {
    const verdict = judgeUrl(url, allowlist);
    return verdict.ok ? null : refusalOf(verdict);
  };

  /**
   * One call: judge, start a fresh browser, load the page with every request answered by the host,
   * run `work` on it, and kill the browser whatever happened.
   */
  async function withPage<T extends { outcome: string }>(
    url: string,
    signal: AbortSignal,
    work: (page: Page, loaded: Loaded) => Promise<T>,
  ): Promise<T | BrowserRefusal | BrowserFailure> {
    const refused = check(url);
    if (refused) return refused;
    const started = performance.now();
    const location = findBrowser(options.executablePath, { platform: options.platform ?? process.platform, env: options.env ?? process.env });
    if (!location.ok) return failed('no-browser', url, browserMessages.noBrowser(location.tried, options.executablePath !== undefined));
    if (signal.aborted) return failed('aborted', url, browserMessages.aborted);

    const launched = await launchBrowser(location.path, signal, startTimeoutMs);
    if (!launched.ok) {
      return signal.aborted ? failed('aborted', url, browserMessages.aborted) : failed('launch', url, browserMessages.launch(launched.detail));
    }
    const running = launched.browser;
    live.add(running);
    // Stop, or a driver step that hangs past every cap: the tree dies at once, which ends every wait below.
    const state: { stopped: 'aborted' | 'ceiling' | null } = { stopped: null };
    const kill = (why: 'aborted' | 'ceiling') => {
      state.stopped ??= why;
      void running.dispose();
    };
    const onAbort = () => kill('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    const ceiling = setTimeout(() => kill('ceiling'), timeoutMs + WORK_MS);
    let page: Page | null = null;
    const network = new PageNetwork(allowlist, agents, limits, (request: Request) => {
      try {
        return page !== null && request.isNavigationRequest() && request.frame() === page.mainFrame();
      } catch {
        return false; // a service worker's request has no frame (and service workers are blocked)
      }
    });
    const blocked = (): BlockedRequests => ({ count: network.blocked, origins: [...network.blockedOrigins], overLimit: network.overLimit });
    const stoppedFailure = (): BrowserFailure =>
      state.stopped === 'aborted' ? failed('aborted', url, browserMessages.aborted, blocked()) : failed('timeout', url, browserMessages.timeout(url, timeoutMs), blocked());
    let browser: Browser | null = null;
    try {
      const { chromium } = await import('playwright-core');
      browser = await chromium.connectOverCDP(running.endpoint, { timeout: startTimeoutMs });
      const context: BrowserContext = await browser.newContext({
        serviceWorkers: 'block',
        acceptDownloads: false,
        viewport: VIEWPORT,
        locale: 'ko-KR',
        permissions: [],
      });
      await context.route('**/*', (route) => network.handle(route));
      // WebSockets never reach the host's fetcher: refused here, and the browser's dead proxy stops
      // those this cannot see (from workers).
      await context.routeWebSocket(/.*/, (ws) => {
        network.blockOther(ws.url());
        ws.close({ code: 1008, reason: 'blocked by Baram' });
      });
      let popupsClosed = 0;
      context.on('page', (opened) => {
        if (page === null || opened === page) return;
        popupsClosed++;
        void opened.close().catch(() => {});
      });
      page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.dismiss().catch(() => {}));

      // Navigate; a redirect of the document is judged by the network handler and followed here.
      let target = url;
      let partial = false;
      // The page's time starts at the navigation: a slow browser start has its own cap and must not eat it.
      const deadline = performance.now() + timeoutMs;
      for (let redirects = 0; ; redirects++) {
        const left = Math.max(1, Math.round(deadline - performance.now()));
        network.pendingRedirect = null;
        try {
          await page.goto(target, { waitUntil: 'load', timeout: left });
          break;
        } catch (error) {
          if (state.stopped) return stoppedFailure();
          if (network.redirectRefused) {
            const r = network.redirectRefused;
            return { outcome: 'refused', reason: r.reason, url: r.to, stage: 'redirect', redirectedFrom: r.from, message: browserMessages.redirectNotAllowed(r.from, r.to, r.message) };
          }
          if (network.redirectLoop) return failed('too-many-redirects', target, browserMessages.tooManyRedirects(target, limits.maxRedirects), blocked());
          const next = network.pendingRedirect;
          if (next !== null) {
            if (redirects + 1 > limits.maxRedirects) return failed('too-many-redirects', target, browserMessages.tooManyRedirects(url, limits.maxRedirects), blocked());
            target = next;
            continue;
          }
          const isTimeout = error instanceof Error && error.name === 'TimeoutError';
          // The document arrived but something on it never finished: read what rendered.
          if (isTimeout && page.url() !== 'about:blank' && !page.url().startsWith('chrome-error:')) {
            partial = true;
            break;
          }
          if (isTimeout) return failed('timeout', url, browserMessages.timeout(url, timeoutMs), blocked());
          // The host's own fetch of the document failed: its reason (a certificate, DNS, a refused connection) says more than Chromium's.
          if (network.mainError !== null) return failed('navigation', target, network.mainError, blocked());
          return failed('navigation', target, browserMessages.navigation(target, firstLine(error)), blocked());
        }
      }
      // Scripts that build the page after 'load' (fetch → render) get a moment to finish.
      if (!partial) await page.waitForLoadState('networkidle', { timeout: Math.min(SETTLE_MS, Math.max(1, deadline - performance.now())) }).catch(() => {});
      if (state.stopped) return stoppedFailure();
      const finalUrl = page.url();
      if (!judgeUrl(finalUrl, allowlist).ok) {
        // A script moved the page to a refused address (the error page is what is left): say where it tried to go.
        const tried = network.mainBlocked;
        if (tried !== null) return { outcome: 'refused', reason: 'not-allowed', url: tried, stage: 'redirect', redirectedFrom: target, message: browserMessages.leftAllowlist(tried) };
        return failed('navigation', finalUrl, browserMessages.leftAllowlist(finalUrl), blocked());
      }
      const loaded: Loaded = {
        url: finalUrl,
        title: (await page.title().catch(() => '')).slice(0, 500),
        status: network.mainStatus,
        blocked: blocked(),
        popupsClosed,
        partial,
        browser: location.path,
        durationMs: 0,
      };
      const result = await work(page, loaded);
      if (state.stopped) return stoppedFailure();
      // Counts as of now: the work may have triggered more (lazy images during a full-page shot).
      return { ...result, blocked: blocked(), popupsClosed, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      if (state.stopped) return stoppedFailure();
      return failed('navigation', url, browserMessages.navigation(url, firstLine(error)), blocked());
    } finally {
      clearTimeout(ceiling);
      signal.removeEventListener('abort', onAbort);
      network.close();
      await running.dispose();
      live.delete(running);
      await browser?.close().catch(() => {});
    }
  }

  return {
    allowedPrefixes: allowlist.prefixes,
    check,
    open: (request) =>
      withPage(request.url, request.signal, async (page, loaded): Promise<BrowserPage> => {
        const { text, total } = await readableText(page, request.maxTextChars, allowlist);
        return { outcome: 'page', ...loaded, text, totalChars: total, truncated: total > text.length };
      }),
    screenshot: (request) =>
      withPage(request.url, request.signal, async (page, loaded): Promise<BrowserScreenshot> => {
        let clipped = false;
        let shot: Buffer;
        if (request.fullPage) {
          const size = (await page.evaluate(
            '({ width: Math.max(document.documentElement.scrollWidth, document.body ? document.body.scrollWidth : 0), height: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0) })',
          )) as { width: number; height: number };
          clipped = size.height > MAX_SCREENSHOT_HEIGHT || size.width > MAX_SCREENSHOT_WIDTH;
          shot = await page.screenshot({
            type: 'png',
            fullPage: true,
            animations: 'disabled',
            timeout: WORK_MS,
            ...(clipped ? { clip: { x: 0, y: 0, width: Math.min(size.width, MAX_SCREENSHOT_WIDTH), height: Math.min(size.height, MAX_SCREENSHOT_HEIGHT) } } : {}),
          });
        } else {
          shot = await page.screenshot({ type: 'png', animations: 'disabled', timeout: WORK_MS });
        }
        const png = new Uint8Array(shot);
        return { outcome: 'screenshot', ...loaded, png, ...pngSize(png), clipped };
      }),
    async closeAll() {
      await Promise.all([...live].map((b) => b.dispose()));
      live.clear();
    },
  };
}


