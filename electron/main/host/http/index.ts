/** The HTTP capability (SPEC §2 G-PERM URL, §8 `http.allow`, §9 `http.request`). */
export {
  createHttpClient,
  DEFAULT_HTTP_TIMEOUT_MS,
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_MAX_REQUEST_BODY_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  type HttpClientOptions,
} from './http-client';
