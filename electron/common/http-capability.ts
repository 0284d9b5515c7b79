import type { Text } from './i18n';

/**
 * The HTTP capability handed to tools (implemented by electron/main/host/http). Tools never touch
 * node:http: every request goes through this interface, so the URL allowlist (policy `http.allow`,
 * SPEC §8), redirect re-checks, size and time caps and text decoding live in exactly one place.
 *
 * Every outcome is a value (SPEC G-NOTHROW): `request` resolves with a response, a refusal (nothing
 * was sent to the refused URL) or a failure. It rejects only on a bug.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A request as the tool's arguments describe it; everything `check` needs, no signal. */
export interface HttpRequestSpec {
  /** Absolute http: or https: URL under one of the allowed prefixes. */
  readonly url: string;
  readonly method: HttpMethod;
  /**
   * Extra request headers. Refused: Host, Content-Length, Transfer-Encoding and the hop-by-hop
   * headers (Connection, Keep-Alive, Upgrade, TE, Trailer, Expect, Proxy-*), which the client
   * manages; names must be HTTP tokens and values printable ASCII/Latin-1 without CR, LF or NUL.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as UTF-8. Not allowed with GET or HEAD. */
  readonly body?: string;
}

export interface HttpRequest extends HttpRequestSpec {
  /** Aborting stops the request at once (the socket is destroyed); the outcome is failed/aborted. */
  readonly signal: AbortSignal;
}

/** One redirect the client followed (each target was checked against the allowlist first). */
export interface HttpRedirect {
  readonly status: number;
  readonly from: string;
  readonly to: string;
  /** Method used for `to` (303, and 301/302 after POST, turn into GET). */
  readonly method: HttpMethod;
}

/** What a binary body is, from its first bytes (never from the server's word alone). */
export type BinaryKind =
  | 'pdf'
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'bmp'
  | 'zip'
  | 'xlsx'
  | 'docx'
  | 'pptx'
  | 'hwpx'
  /** OLE compound file: HWP 5, or Office 97–2003 (.doc/.xls/.ppt). */
  | 'ole'
  | 'gzip'
  | '7z'
  /** A Windows (PE) or Linux (ELF) executable. */
  | 'exe'
  | 'unknown';

/** Where the charset used for decoding came from. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'detected';

export type HttpBody =
  | {
      readonly kind: 'text';
      readonly text: string;
      /** Canonical name of the decoding used: 'utf-8', 'cp949', 'utf-16le', 'windows-1252', … */
      readonly charset: string;
      readonly charsetSource: CharsetSource;
    }
  | {
      /** Binary content is summarised, never dumped into the model's context. */
      readonly kind: 'binary';
      /** Bytes received (the whole body unless the response is truncated). */
      readonly bytes: number;
      /** SHA-256 (hex) of the bytes received: of the whole body only when not truncated. */
      readonly sha256: string;
      readonly detected: BinaryKind;
    };

export interface HttpResponse {
  readonly outcome: 'response';
  /** Any status, 4xx and 5xx included: a status is an answer, not a failure. */
  readonly status: number;
  readonly statusText: string;
  /** The URL that answered (after redirects). */
  readonly url: string;
  /** The address actually connected to, for the audit record. */
  readonly remoteAddress: string | null;
  readonly redirects: readonly HttpRedirect[];
  /**
   * A fixed subset of the response headers (lower-case names): content-type, content-length,
   * content-encoding, content-language, content-disposition, last-modified, etag, date, location,
   * retry-after, www-authenticate. Set-Cookie and the rest are left out (secrets, noise).
   */
  readonly headers: Readonly<Record<string, string>>;
  /** Media type from Content-Type, lower case, without parameters; null when absent. */
  readonly contentType: string | null;
  readonly body: HttpBody;
  /** True when the body was cut at the size cap (the connection was closed there). */
  readonly truncated: boolean;
  /** Body bytes received (after Content-Encoding was undone). */
  readonly receivedBytes: number;
  /** Size of the whole body when known: receivedBytes if complete, else Content-Length if declared, else null. */
  readonly totalBytes: number | null;
  readonly durationMs: number;
}

export type HttpRefusalReason =
  | 'invalid-url' // not an absolute URL
  | 'scheme' // not http: or https:
  | 'userinfo' // user name or password in the URL
  | 'not-allowed' // under no allowed prefix
  | 'ambiguous-path' // a path a server may read as another location (%2F, ..;/, double encoding, …)
  | 'method'
  | 'header'
  | 'body';

/** Nothing was sent to `url` (nor, for reason ≠ not-allowed at stage 'request', anywhere). */
export interface HttpRefusal {
  readonly outcome: 'refused';
  readonly reason: HttpRefusalReason;
  /** The URL refused: the request's own, or a redirect target. */
  readonly url: string;
  readonly stage: 'request' | 'redirect';
  /** For stage 'redirect': the URL whose response pointed at `url`. */
  readonly redirectedFrom: string | null;
  readonly redirects: readonly HttpRedirect[];
  /** Says what is allowed and what to do instead (SPEC G-SIGNPOST). */
  readonly message: Text;
}

export type HttpFailureReason =
  | 'dns' // the host name did not resolve
  | 'connection' // refused, reset, unreachable
  | 'tls' // certificate or handshake
  | 'timeout' // the total time cap ran out
  | 'aborted' // the caller's signal
  | 'too-large' // response headers beyond the cap
  | 'too-many-redirects'
  | 'protocol'; // malformed response, bad Location, bad compressed data

export interface HttpFailure {
  readonly outcome: 'failed';
  readonly reason: HttpFailureReason;
  /** The URL being requested when it failed. */
  readonly url: string;
  readonly redirects: readonly HttpRedirect[];
  /** Node's error code (ECONNREFUSED, CERT_HAS_EXPIRED, …) for the audit record; never an OS message. */
  readonly code: string | null;
  readonly durationMs: number;
  readonly message: Text;
}

export type HttpOutcome = HttpResponse | HttpRefusal | HttpFailure;

export interface HttpCapability {
  /** The allowed URL prefixes (policy `http.allow`), as written. */
  readonly allowedPrefixes: readonly string[];
  /**
   * The checks `request` makes before sending anything (URL, method, headers, body), without any
   * network access: for a tool's precheck. null when the request may be sent.
   */
  check(request: HttpRequestSpec): HttpRefusal | null;
  request(request: HttpRequest): Promise<HttpOutcome>;
}
