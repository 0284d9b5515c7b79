import type { HttpFailureReason } from '../../../common/http-capability';
import type { Text } from '../../../common/i18n';
import { httpMessages } from './messages';
import { CONTENT_ENCODING_ERROR } from './send-once';

/** Error codes getaddrinfo reports for a name that does not resolve (now or at all). */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
/** OpenSSL verification codes and Node's TLS errors. */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|ERR_OSSL_)/;

function errorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('code' in error)) return null;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : null;
}

export interface ClassifiedFailure {
  readonly reason: HttpFailureReason;
  readonly code: string | null;
  readonly message: Text;
}

/**
 * A socket, DNS, TLS or parser error as a failure the model can act on. Only Node's error code is
 * kept: OS messages can carry host details, and the code is what an administrator searches for.
 */
export function classifyError(error: unknown, url: URL, maxHeaderBytes: number): ClassifiedFailure {
  const code = errorCode(error);
  const host = url.host;
  if (code !== null && DNS_CODES.has(code)) return { reason: 'dns', code, message: httpMessages.dns(url.hostname, code) };
  if (code !== null && TLS_CODE.test(code)) return { reason: 'tls', code, message: httpMessages.tls(host, code) };
  if (code === 'HPE_HEADER_OVERFLOW') return { reason: 'too-large', code, message: httpMessages.headersTooLarge(maxHeaderBytes) };
  if (code === CONTENT_ENCODING_ERROR) {
    const encoding = (error as { encoding?: unknown }).encoding;
    return { reason: 'protocol', code, message: httpMessages.badEncoding(typeof encoding === 'string' ? encoding : '?') };
  }
  if (code !== null && code.startsWith('HPE_')) return { reason: 'protocol', code, message: httpMessages.protocol(host, code) };
  return { reason: 'connection', code, message: httpMessages.connection(host, code) };
}
