/**
 * The renderer's Content Security Policy. One source for both delivery paths: the response header
 * (set in onHeadersReceived) and the <meta> tag in renderer/index.html (a test compares the two),
 * because a file:// page gets no response headers at all, so the meta tag is what protects the
 * packaged app, while the header also covers the dev server.
 *
 * Everything comes from the app itself: no inline script, no eval, no remote hosts, no plugins,
 * no <base> rewriting, no framing. connect-src 'self' keeps a compromised renderer from talking
 * to the network; the model and every other connection live in the main process.
 */
export const CSP_DIRECTIVES: readonly (readonly [name: string, value: string])[] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['frame-ancestors', "'none'"],
  ['connect-src', "'self'"],
];

/**
 * Browsers ignore these in a <meta> policy (CSP3 §3.3) and Chromium logs a console error for each,
 * which an e2e test watching the console would trip over. They stay in the header.
 */
const HEADER_ONLY = new Set(['frame-ancestors', 'report-uri', 'sandbox']);

export interface CspOptions {
  /**
   * Dev server only: the per-run nonce Vite puts on the scripts and styles it injects (React
   * Fast Refresh preamble, HMR styles). Never set for the packaged app.
   */
  readonly devNonce?: string;
}

function render(directives: readonly (readonly [string, string])[], options: CspOptions): string {
  return directives
    .map(([name, value]) => {
      if (options.devNonce !== undefined && (name === 'script-src' || name === 'default-src')) {
        return `${name} ${value} 'nonce-${options.devNonce}'`;
      }
      return `${name} ${value}`;
    })
    .join('; ');
}

export function headerCsp(options: CspOptions = {}): string {
  return render(CSP_DIRECTIVES, options);
}

export function metaCsp(options: CspOptions = {}): string {
  return render(
    CSP_DIRECTIVES.filter(([name]) => !HEADER_ONLY.has(name)),
    options,
  );
}

/**
 * Response headers with our policy in place of whatever the server sent (header names are
 * case-insensitive, so a dev server's `content-security-policy` must not survive beside ours).
 */
export function withCspHeader(
  headers: Readonly<Record<string, readonly string[]>> | undefined,
  options: CspOptions = {},
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'content-security-policy' || lower === 'content-security-policy-report-only') continue;
    out[name] = [...values];
  }
  // The policy is computed, so a scanner reading this line sees code, not a policy; lint:electron
  // evaluates headerCsp()'s text itself (docs/2026-12-03-electronegativity.md).
  out['Content-Security-Policy'] = [headerCsp(options)]; // eng-disable CSP_GLOBAL_CHECK
  return out;
}
