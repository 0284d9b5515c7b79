import { canonicalJson } from '../../common/canonical-json';
import { redactSecretsDeep, sha256Hex } from '../audit';

/** Long values (file contents, edit texts) are recorded by size and digest, not in full. */
const MAX_INLINE_CHARS = 512;

/**
 * Arguments as the audit record keeps them (SPEC §3 "arguments (secrets redacted) + hash"): secrets
 * replaced (by key and inside values: command lines, URLs, headers, PEM keys, tokens), long strings
 * summarised.
 *
 * `argsSha256` is the SHA-256 of the canonical arguments with secrets replaced but long strings
 * kept whole. Not of the full arguments: everything but the secret is in the ledger in clear, so a
 * digest over the full arguments would let anyone who can read the ledger test guesses offline —
 * one Node thread hashes all 10^6 six-digit PINs with the rest of such arguments in 2.6 s (measured
 * here), a GPU tries billions of guesses a second. Over the redacted arguments the digest carries no
 * information about any secret and still proves every other byte that was sent, the summarised long
 * strings included: whoever holds the original arguments (the model transcript, the file written)
 * applies redactSecretsDeep and compares. Redaction is idempotent, so the ledger redacting the event
 * once more does not change what this digest covers.
 */
export function auditArguments(args: unknown): RecordedArguments {
  return recordedArguments(redactSecretsDeep(args));
}

// A type, not an interface: it is an event's `data`, a Record<string, unknown>.
export type RecordedArguments = { readonly args: unknown; readonly argsSha256: string };

/**
 * The same from arguments already passed through redactSecretsDeep: the gate redacts a call's
 * arguments once and uses them for this record and for the approval digest.
 */
export function recordedArguments(redacted: unknown): RecordedArguments {
  return { args: summariseLongStrings(redacted), argsSha256: sha256Hex(canonicalJson(redacted ?? null)) };
}

/** Most calls carry no long string: then the redacted value is recorded as it is, with no copy. */
function summariseLongStrings(value: unknown): unknown {
  return hasLongString(value) ? summarised(value) : value;
}

function hasLongString(value: unknown): boolean {
  if (typeof value === 'string') return value.length > MAX_INLINE_CHARS;
  if (value === null || typeof value !== 'object') return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (hasLongString(item)) return true;
  return false;
}

function summarised(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_INLINE_CHARS ? `[${value.length} chars, sha256 ${sha256Hex(value).slice(0, 16)}…]` : value;
  }
  if (Array.isArray(value)) return value.map(summarised);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, summarised(v)]));
  }
  return value;
}
