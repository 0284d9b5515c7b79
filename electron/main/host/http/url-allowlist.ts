import type { Text } from '../../../common/i18n';
import { ambiguousUrlMessage, urlAmbiguity, urlMatcher, type ValueMatcher } from '../../policy';
import { httpMessages } from './messages';

/**
 * The policy's `http.allow` prefixes, judged with the permission layer's own URL matcher
 * (policy/patterns.ts): scheme, host and port equal, path under the prefix at a segment boundary.
 * One function for both, so the gate and the client can never disagree about what a prefix covers.
 *
 * Host names are compared, not addresses, and that is the whole check: the administrator allows
 * names, and where a name points is the office DNS's word (and /etc/hosts'). A DNS answer that
 * changes between this check and the connect ("rebinding") gains nothing, because no rule here is
 * about addresses that a second answer could slip past; whoever controls the office DNS for an
 * allowed name controls that name already. The address actually connected to is reported with
 * every response (remoteAddress) so the audit record shows it.
 */
export interface UrlAllowlist {
  readonly prefixes: readonly string[];
  allows(url: URL): boolean;
}

export function compileAllowlist(prefixes: readonly string[]): UrlAllowlist {
  // A prefix the matcher cannot interpret allows nothing (fail closed); policy loading already
  // reports such prefixes to the administrator with their JSON path.
  const matchers = prefixes.map((p) => urlMatcher(p)).filter((m): m is ValueMatcher => m !== null);
  return {
    prefixes,
    // An ambiguous path is under no prefix, whoever asks (judgeUrl says why before this runs).
    allows: (url) => urlAmbiguity(url) === null && matchers.some((matches) => matches(url.href)),
  };
}

export type UrlVerdict =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly reason: 'invalid-url' | 'scheme' | 'userinfo' | 'ambiguous-path' | 'not-allowed'; readonly shown: string; readonly message: Text };

/** The URL with any user name and password replaced, for messages and records. */
export function withoutCredentials(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = '***';
  copy.password = '';
  return copy.href;
}

/**
 * Everything a URL must pass before a byte is sent to it: an absolute http(s) URL, no credentials
 * (they end up in logs, audit records and proxies' access logs), a path no server can read as
 * another location (policy/url-shape.ts: `%2F`, `..;/`, `%252f`, `\\`, …), under an allowed prefix.
 * `written` is the text as it came (a redirect's Location), checked as well as the parsed URL.
 */
export function judgeUrl(raw: string | URL, allowlist: UrlAllowlist, written?: string): UrlVerdict {
  let url: URL;
  if (typeof raw === 'string') {
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, reason: 'invalid-url', shown: raw, message: httpMessages.invalidUrl(raw, allowlist.prefixes) };
    }
  } else {
    url = raw;
  }
  const shown = withoutCredentials(url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'scheme', shown, message: httpMessages.scheme(shown, url.protocol) };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'userinfo', shown, message: httpMessages.userinfo(shown) };
  }
  const ambiguity = urlAmbiguity(url, written ?? (typeof raw === 'string' ? raw : undefined));
  if (ambiguity) return { ok: false, reason: 'ambiguous-path', shown, message: ambiguousUrlMessage(shown, ambiguity) };
  if (!allowlist.allows(url)) {
    return { ok: false, reason: 'not-allowed', shown, message: httpMessages.notAllowed(shown, allowlist.prefixes) };
  }
  return { ok: true, url };
}
