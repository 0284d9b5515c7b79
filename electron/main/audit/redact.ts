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

function redactArray(items: readonly unknown[], ancestors: Set<object>, program?: string): unknown[] {
  return items.map((item, i) => {
    // One entry of a header list: ['Authorization', 'Bearer …'].
    if (Array.isArray(item) && item.length === 2 && isSecretLabel(item[0])) return [item[0], underSecretKey(item[1])];
    if (typeof item === 'string' && i > 0) {
      const previous = items[i - 1];
      if (typeof previous === 'string' && valueOfSecretFlag(previous, item) && !carriesOwnValue(items, i - 1, program)) return REDACTED;
      return redactArgument(item, typeof previous === 'string' ? previous : undefined, program);
    }
    if (typeof item === 'string' && program !== undefined) return redactArgument(item, undefined, program);
    return redactValue(item, ancestors);
  });
}

/**
 * Secrets in an argument list (issue 14 class 9): `["--password", "hunter2"]`, `["--token", "x"]`.
 * Each element alone is harmless text; the flag before it says it is a secret. A flag is secret
 * when its name is (isSecretKey, secret-keys.ts: password, passwd, pass, passphrase, secret, token,
 * auth, credential(s), api-key/apikey, private-key, access-key …; not `--password-file`,
 * `--key-file`, `--token-count`, `--ask-pass`, whose values are paths, numbers or switches). A
 * short flag such as `-p` is not: it is a port (ssh, psql, docker), `mkdir -p`, or for mysql the
 * glued `-pSECRET` only (then the next argument is the database) — programs where `-p VALUE` is a
 * password (sshpass) are judged with the program, in redactArgument.
 *
 * There is no shell between the elements, so the value is redacted whatever it looks like (`$X`
 * too: it is not expanded), except when it is itself a long option (`--password --host db`:
 * mysql then prompts, and `--host` is what the auditor needs), or empty, or already redacted.
 */
const SECRET_FLAG = /^--?([A-Za-z][\w-]{0,63})$/;
const LONG_OPTION = /^--[A-Za-z][\w-]{0,63}(?:=|$)/;

function valueOfSecretFlag(previous: string, item: string): boolean {
  const flag = SECRET_FLAG.exec(previous);
  if (!flag || !isSecretKey(flag[1]!)) return false;
  return item !== '' && item !== REDACTED && !LONG_OPTION.test(item);
}

/**
 * A flag that holds its value itself: `-pSECRET` glued (mysql), whose name `pSECRET` may read as a
 * secret name; the argument after it is then not its value. Already redacted counts too, so that
 * redacting twice changes nothing.
 */
function carriesOwnValue(items: readonly unknown[], at: number, program: string | undefined): boolean {
  const flag = items[at] as string;
  if (flag.includes(REDACTED)) return true;
  const before = at > 0 && typeof items[at - 1] === 'string' ? (items[at - 1] as string) : undefined;
  return (at > 0 || program !== undefined ? redactArgument(flag, before, program) : redactSecretsInText(flag)) !== flag;
}

/** A command-line word that joins with others by a space without quoting. */
const PLAIN_WORD = /^[^\s"'\\]{1,256}$/;

/**
 * An argument as the command-line rules (secret-text.ts) see it with its program and the flag
 * before it: `mysql` + `-pSECRET`, `sshpass` + `-p` + `pw`, `zip` + `-P` + `pw`, `curl` + `-u` +
 * `user:pw`, `smbclient` + `-U` + `user%pw`. The words are joined into one command line and
 * redacted; when the rules change only this argument's part, that part is what is recorded.
 * Otherwise the argument is redacted as a text on its own.
 */
function redactArgument(item: string, previous: string | undefined, program: string | undefined): string {
  const alone = redactSecretsInText(item);
  if (!PLAIN_WORD.test(item) || (previous === undefined && program === undefined)) return alone;
  if (previous !== undefined && !previous.startsWith('-') && !item.startsWith('-')) return alone;
  const context = [program, previous].filter((w): w is string => w !== undefined && PLAIN_WORD.test(w));
  if (context.length === 0) return alone;
  const prefix = `${context.join(' ')} `;
  const line = redactSecretsInText(prefix + item);
  if (line === prefix + item || !line.startsWith(prefix)) return alone;
  return line.slice(prefix.length);
}

/** The program of a `{command, args}` record (shell.execute): its file name, for redactArgument. */
function programOf(record: Record<string, unknown>): string | undefined {
  const command = record['command'] ?? record['program'];
  if (typeof command !== 'string' || !PLAIN_WORD.test(command)) return undefined;
  return command.slice(Math.max(command.lastIndexOf('/'), command.lastIndexOf('\\')) + 1);
}

/** redactValue for an array under a record, with the record's program for its arguments. */
function redactArrayIn(items: unknown[], ancestors: Set<object>, program: string | undefined): unknown[] {
  ancestors.add(items);
  try {
    return redactArray(items, ancestors, program);
  } finally {
    ancestors.delete(items);
  }
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
    entry[1] = secret
      ? underSecretKey(item)
      : Array.isArray(item) && !ancestors.has(item)
        ? redactArrayIn(item, ancestors, programOf(record))
        : redactValue(item, ancestors);
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
