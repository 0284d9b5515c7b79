import { boundedMemo } from './bounded-memo';
import { isSecretKey } from './secret-keys';
import { REDACTED, redactSecretsInText } from './secret-text';

/**
 * Secrets never reach the audit ledger in clear (SPEC §3 "arguments (secrets redacted)", issue #3).
 *
 * The ledger is append-only, kept for years and read by security staff, exports and syslog
 * collectors: a password written into it can never be taken back. A secret arrives either under a
 * name that says so (secret-keys.ts: `password`, `accessToken`, an `Authorization` header) or inside
 * a value (secret-text.ts: command lines, URLs, header lines, file contents, PEM blocks, token
 * shapes). Pure: no I/O, and the input is never modified.
 */
export { isSecretKey, SECRET_KEY_PATTERN } from './secret-keys';
export { REDACTED, redactSecretsInText } from './secret-text';

/**
 * A copy of `value` with secrets replaced: values under secret-named keys (whole containers too: a
 * `credentials` object or a `cookies` array is secret in every field), header pairs
 * (`{name: 'Authorization', value}` as in HAR, `[['Authorization', '…']]` as Headers entries), and
 * the secret parts of every string, keys included. Null, empty strings and booleans under a secret
 * key stay: they hold no secret, and "no password was given" is itself worth recording.
 * Idempotent: redacting a redacted value changes nothing (the gate redacts arguments, the ledger
 * redacts every event again).
 */
export function redactSecretsDeep(value: unknown): unknown {
  return redactValue(value, new Set());
}

function redactValue(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value === 'string') return redactSecretsInText(value);
  if (typeof value !== 'object' || value === null) return value;
  // Binary data and dates carry no text to redact (and canonical JSON never holds them).
  if (value instanceof Date || value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return value;
  if (ancestors.has(value)) return '[circular]';
  ancestors.add(value);
  try {
    return Array.isArray(value) ? redactArray(value, ancestors) : redactRecord(value as Record<string, unknown>, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function underSecretKey(value: unknown): unknown {
  return value === null || value === undefined || value === '' || typeof value === 'boolean' ? value : REDACTED;
}

/**
 * A header or parameter name used as a label (`Authorization`, `X-Api-Key`, `access_token`): no dots
 * or spaces, so a file name such as `password-policy.docx` in a `{name, value}` record is not one.
 */
function isSecretLabel(label: unknown): label is string {
  return typeof label === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(label) && isSecretKey(label);
}

function redactArray(items: readonly unknown[], ancestors: Set<object>): unknown[] {
  return items.map((item) => {
    // One entry of a header list: ['Authorization', 'Bearer …'].
    if (Array.isArray(item) && item.length === 2 && isSecretLabel(item[0])) return [item[0], underSecretKey(item[1])];
    return redactValue(item, ancestors);
  });
}

/** The field that names a header or parameter in `{name, value}` / `{key, value}` records. */
const PAIR_LABELS = ['name', 'key', 'header'] as const;

/** The first of PAIR_LABELS whose value is a string (all three are read, as a getter would see). */
function pairLabel(record: Record<string, unknown>): unknown {
  let label: unknown;
  for (const field of PAIR_LABELS) {
    const v = record[field];
    if (label === undefined && typeof v === 'string') label = v;
  }
  return label;
}

/*
 * Written for the append path, where every event passes here (tests/bench/audit-append.bench.ts):
 * one entries array, written in place, and the set of used keys only once a key has changed (keys
 * of one object are distinct, so until then no key can collide). Same output as the first version,
 * which tests/unit/audit/redact-prescan.test.ts keeps as its reference.
 */
function redactRecord(record: Record<string, unknown>, ancestors: Set<object>): Record<string, unknown> {
  const secretPair = 'value' in record && isSecretLabel(pairLabel(record));
  const entries = Object.entries(record);
  let used: Set<string> | undefined;
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i]!;
    const key = entry[0];
    const item = entry[1];
    const secret = isSecretKey(key) || (secretPair && key === 'value');
    const redactedKey = redactKey(key);
    if (used === undefined && redactedKey !== key) used = new Set(entries.slice(0, i).map(([k]) => k));
    entry[0] = used === undefined ? key : uniqueKey(redactedKey, used);
    entry[1] = secret ? underSecretKey(item) : redactValue(item, ancestors);
  }
  // fromEntries defines own properties: a "__proto__" key from JSON.parse stays data, not a prototype.
  return Object.fromEntries(entries);
}

/**
 * Keys repeat in every event (`path`, `args`, `argsSha256` …), so their redacted text is
 * remembered, as isSecretKey remembers its answers: scanning them again cost about 0.2 µs a key,
 * eight keys in the gate's tool.proposed, on the append path.
 */
const redactKey = boundedMemo(redactSecretsInText, 1024, 64);

/** Two keys may redact to the same text (`https://a:x@h`, `https://a:y@h`); neither may be lost. */
function uniqueKey(key: string, used: Set<string>): string {
  let candidate = key;
  for (let n = 2; used.has(candidate); n += 1) candidate = `${key} (${n})`;
  used.add(candidate);
  return candidate;
}
