import { createHash } from 'node:crypto';
import { canonicalJson } from '../../common/canonical-json';

const SECRET_KEY = /pass(word|wd)?|secret|token|authorization|api[-_]?key|private[-_]?key|credential|cookie/i;
/** Long values (file contents, edit texts) are recorded by size and digest, not in full. */
const MAX_INLINE_CHARS = 512;

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Arguments as the audit record keeps them: secrets replaced, long strings summarised, plus the
 * SHA-256 of the canonical full arguments so an auditor can still prove what was sent.
 */
export function auditArguments(args: Readonly<Record<string, unknown>>): { args: unknown; argsSha256: string } {
  return { args: redact(args, ''), argsSha256: sha256Hex(canonicalJson(args)) };
}

function redact(value: unknown, key: string): unknown {
  if (SECRET_KEY.test(key) && value !== undefined) return '[redacted]';
  if (typeof value === 'string') {
    return value.length > MAX_INLINE_CHARS ? `[${value.length} chars, sha256 ${sha256Hex(value).slice(0, 16)}…]` : value;
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, ''));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}
