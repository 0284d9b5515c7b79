/** The browser capability (SPEC §5 browser.open / browser.screenshot; the allowlist is `http.allow`, §8). */
export {
  createBrowserHost,
  DEFAULT_BROWSER_MAX_REQUESTS,
  DEFAULT_BROWSER_MAX_RESPONSE_BYTES,
  DEFAULT_BROWSER_MAX_TOTAL_BYTES,
  DEFAULT_BROWSER_START_TIMEOUT_MS,
  DEFAULT_BROWSER_TIMEOUT_MS,
  MAX_SCREENSHOT_HEIGHT,
  type BrowserHost,
  type BrowserHostOptions,
} from './browser-host';
export { candidatePaths, findBrowser } from './find-browser';
