import { boundedMemo } from './bounded-memo';

/**
 * Which names name a secret: object keys, header names, command-line flags, `NAME=` in text.
 *
 * Matched by the name's parts (split at camelCase, `_`, `-`, `.`, spaces and letter/digit changes),
 * not by substring, because a false positive hides audit information: `maxTokens`, `tokenCount`,
 * `prompt_tokens`, `passwordPolicy`, `privateKeyPath` and `--password-file` are not secrets.
 */

/**
 * A secret word, tested against one lower-case part of a name or two adjacent parts joined with `_`
 * (`api_key`). The `[a-z0-9]*` prefix catches run-together names (`PGPASSWORD`, `dbpassword`,
 * `xsrftoken`). Plural `tokens` is deliberately absent: in a model application it counts tokens.
 */
export const SECRET_KEY_PATTERN =
  /^(?:[a-z0-9]*(?:password|passwd|passphrase|secret|token)|passcode|secrets|authorization|auth|cookies?|credentials?|creds|apikey|pin|otp|totp|(?:api|private|access|secret|session|signing|encryption|master|auth)_key|mysql_pwd)$/;

/**
 * Every secret name written in ASCII contains one of these (case-insensitive). Shared with
 * secret-text.ts, whose flag rule looks for them and whose pre-scan skips the flag and `NAME=value`
 * rules for a text without any of them: a stem added here is seen by both.
 */
export const ASCII_SECRET_STEMS = ['pass', 'pwd', 'secret', 'token', 'auth', 'cookie', 'cred', 'key', 'pin', 'otp'] as const;

/**
 * Every secret name contains one of these (case-insensitive): a cheap first test, so that the
 * thousands of ordinary names in a large text never reach the part splitting.
 */
const SECRET_STEM = new RegExp([...ASCII_SECRET_STEMS, '비밀', '패스워드', '암호', '개인', '인증'].join('|'), 'i');

/** Names that are secrets only as the whole name: `pass` is a password, `passThrough` is not. */
const WHOLE_NAME_SECRETS = new Set(['pass', 'passin', 'passout', 'sshpass']);

/**
 * A last part that makes the name describe a secret instead of holding one: `tokenCount`,
 * `passwordPolicy`, `privateKeyPath`, `--password-file`, `--password-stdin`, `tokenExpiresAt`.
 */
const METADATA_SUFFIXES = new Set([
  'count', 'counts', 'limit', 'limits', 'max', 'min', 'length', 'len', 'size', 'type', 'types', 'kind',
  'policy', 'policies', 'rule', 'rules', 'file', 'files', 'path', 'paths', 'dir', 'folder', 'name', 'names',
  'id', 'ids', 'url', 'uri', 'endpoint', 'field', 'fields', 'hint', 'label', 'prompt', 'required', 'enabled',
  'disabled', 'expires', 'expiry', 'expiration', 'expired', 'at', 'ttl', 'age', 'format', 'env', 'var',
  'usage', 'used', 'budget', 'estimate', 'location', 'strength', 'method', 'mode', 'scheme', 'stdin', 'fd',
  'command', 'cmd', 'helper', 'user', 'username', 'status', 'level', 'version', 'index', 'offset', 'total',
  'remaining', 'rate', 'cost', 'window', 'provider', 'server', 'host', 'domain', 'realm', 'service', 'issuer',
  'audience', 'scope', 'scopes', 'config', 'settings', 'options',
]);

/** A first part that makes the name a switch or a measure: `--ask-pass`, `--no-password`, `maxToken`. */
const NON_SECRET_PREFIXES = new Set([
  'ask', 'no', 'prompt', 'has', 'show', 'hide', 'use', 'require', 'requires', 'need', 'needs', 'is', 'with',
  'without', 'max', 'min', 'num', 'total',
]);

/** Korean: 비밀번호/패스워드 (password), 암호 (but not 암호화 "encryption"), 비밀키/개인키/인증키 (secret/private/auth key). */
const KOREAN_SECRET_NAME = /비밀번호|패스워드|암호(?!화)|비밀\s?키|개인\s?키|인증\s?키/;

/** Where a name splits besides non-alphanumerics: `accessToken`, `AWSSecret`, `password2`. */
const PART_BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/g;

function nameParts(name: string): string[] {
  return name
    .replace(PART_BOUNDARY, ' ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((part) => part !== '');
}

function decide(name: string): boolean {
  if (!SECRET_STEM.test(name)) return false;
  if (KOREAN_SECRET_NAME.test(name)) return true;
  // A dotted name is a namespace and its leaf names the value: `spring.datasource.password` is a
  // secret, `token_report.xlsx` (a file name before a colon) is not.
  const leaf = name.slice(name.lastIndexOf('.') + 1);
  const parts = nameParts(leaf === '' ? name : leaf);
  if (parts.length === 0) return false;
  if (WHOLE_NAME_SECRETS.has(parts.join(''))) return true;
  if (parts.length > 1 && (METADATA_SUFFIXES.has(parts[parts.length - 1]!) || NON_SECRET_PREFIXES.has(parts[0]!))) return false;
  for (let i = 0; i < parts.length; i += 1) {
    if (SECRET_KEY_PATTERN.test(parts[i]!)) return true;
    if (i > 0 && SECRET_KEY_PATTERN.test(`${parts[i - 1]!}_${parts[i]!}`)) return true;
  }
  return false;
}

/**
 * Does this name (object key, header name, command-line flag, `NAME=` in text) name a secret?
 * Remembered per name (boundedMemo): names repeat, so a large text costs one lookup per name.
 */
export const isSecretKey: (name: string) => boolean = boundedMemo(decide, 2048, 64);
