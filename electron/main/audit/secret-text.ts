import { isSecretKey } from './secret-keys';

/**
 * Secrets inside free text: command lines, URLs, header lines, file contents. Only the secret part
 * becomes `[redacted]`; the command, the host, the user name and the auth scheme stay readable,
 * because what was run against which host is what an auditor needs.
 *
 * Linear time, measured (tests/unit/audit/redact.test.ts: 1 MB of ordinary or hostile text):
 *  - no nested quantifiers; every rule that could start inside a run of token characters checks the
 *    run's start with a look-behind, so a failed attempt is not retried at every later position;
 *  - the look-behind comes after a literal (`bearer(?<!…)`, `:(?<=…)`) where the rule has one:
 *    V8 then skips ahead to that literal instead of testing the look-behind at every character
 *    (measured on 1 MB of prose: 1.4 ms instead of 13.6 ms for the URL rule);
 *  - rules that must decide per match (is this flag a secret?) scan with exec loops and copy only
 *    when they redact: `String.replace` with a callback took 312 ms for 150 000 matches, the loop 52 ms.
 */

export const REDACTED = '[redacted]';

type Rule = (text: string) => string;

// ── private key blocks ───────────────────────────────────────────────────────────────────────

/**
 * PEM private keys (OPENSSH, RSA, EC, DSA, ENCRYPTED, PGP … BLOCK, and the ssh.com
 * `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`). Scanned by hand, not with `[\s\S]*?`: a lazy body
 * per BEGIN would rescan the rest of the text for every BEGIN without an END (quadratic). A block
 * without its END line is redacted to the end of the text: a truncated key is still a key.
 */
const PEM_BEGIN = /-{4,5} ?BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)? ?-{4,5}/g;
const PEM_END = /-{4,5} ?END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)? ?-{4,5}/g;

const redactPemBlocks: Rule = (text) => {
  if (!text.includes('PRIVATE KEY')) return text;
  let out = '';
  let from = 0;
  for (;;) {
    PEM_BEGIN.lastIndex = from;
    const begin = PEM_BEGIN.exec(text);
    if (!begin) break;
    const bodyStart = begin.index + begin[0].length;
    PEM_END.lastIndex = bodyStart;
    const end = PEM_END.exec(text);
    out += `${text.slice(from, bodyStart)}\n${REDACTED}\n`;
    if (!end) return out;
    out += end[0];
    from = end.index + end[0].length;
  }
  return from === 0 ? text : out + text.slice(from);
};

/** PuTTY .ppk files (PuTTY is what Korean offices use for SSH): the `Private-Lines: N` lines. */
const PPK_PRIVATE_LINES = /Private-Lines:[ \t]*(\d{1,6})[ \t]*\r?\n/g;
const ALREADY_REDACTED_LINE = `${REDACTED}\n`;

const redactPuttyKeys: Rule = (text) => {
  if (!text.includes('Private-Lines:')) return text;
  let out = '';
  let from = 0;
  PPK_PRIVATE_LINES.lastIndex = 0;
  for (let m = PPK_PRIVATE_LINES.exec(text); m; m = PPK_PRIVATE_LINES.exec(text)) {
    const bodyStart = m.index + m[0].length;
    // Already redacted (the ledger redacts arguments the gate redacted before): N no longer applies.
    if (text.startsWith(ALREADY_REDACTED_LINE, bodyStart)) continue;
    let cursor = bodyStart;
    for (let line = 0; line < Number(m[1]) && cursor < text.length; line += 1) {
      const newline = text.indexOf('\n', cursor);
      cursor = newline === -1 ? text.length : newline + 1;
    }
    out += text.slice(from, bodyStart) + ALREADY_REDACTED_LINE;
    from = cursor;
    PPK_PRIVATE_LINES.lastIndex = cursor;
  }
  return from === 0 ? text : out + text.slice(from);
};

// ── URLs and HTTP headers ────────────────────────────────────────────────────────────────────

/**
 * `scheme://user:password@host`, also `scheme:/…` as a path normaliser leaves it and `redis://:pw@`.
 * The scheme (2+ characters, so `C:/…` is not one) is checked behind the colon. The password may
 * hold an unencoded `@`, so it runs to the last `@` before the host.
 */
const URL_USERINFO = /:(?<=(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,31}:)(\/\/?[^\s/?#@:"'<>\\]*:)[^\s/?#"'<>\\]+@/g;
const redactUrlUserinfo: Rule = (text) => text.replace(URL_USERINFO, `:$1${REDACTED}@`);

/** Authentication schemes stay readable: which kind of credential was sent is audit information. */
const AUTH_SCHEMES = 'bearer|basic|digest|token|ntlm|negotiate|hawk|oauth|aws4-hmac-sha256|apikey|key|ssws|dpop';

/**
 * `Authorization: <scheme> <credential>` in header lines, `-H "…"` arguments and JSON text: the
 * whole value up to the end of the header (quote, backslash of an escaped quote, line end, `&`).
 */
const AUTHORIZATION_HEADER = new RegExp(
  `\\b((?:proxy-)?authorization\\\\?["']?[ \\t]{0,8}[:=][ \\t]{0,8}\\\\?["']?)((?:${AUTH_SCHEMES})[ \\t]+)?[^\\r\\n"'\\\\&]+`,
  'gi',
);
const redactAuthorizationHeaders: Rule = (text) => text.replace(AUTHORIZATION_HEADER, `$1$2${REDACTED}`);

/** `Cookie: a=1; b=2` carries session ids: the whole header value. */
const COOKIE_HEADER = /\b((?:set-)?cookie\\?["']?[ \t]{0,8}:[ \t]{0,8}\\?["']?)[^\r\n"'\\]+/gi;
const redactCookieHeaders: Rule = (text) => text.replace(COOKIE_HEADER, `$1${REDACTED}`);

/**
 * `Bearer <token>` anywhere. Prose has the word too ("bearer instrument"), so the token must look
 * like one: a digit or one of `._~+/=-` in it, or at least 20 characters.
 */
const BEARER = /(bearer(?<![A-Za-z0-9]bearer)[ \t]+)(?=[A-Za-z0-9._~+/-]*[0-9._~+/=-]|[A-Za-z0-9]{20})[A-Za-z0-9._~+/-]+=*/gi;
const redactBearer: Rule = (text) => text.replace(BEARER, `$1${REDACTED}`);

/**
 * `Basic <base64>` anywhere, when it decodes to `user:password`: "Basic Settings" is valid base64
 * too and must stay.
 */
const BASIC = /basic(?<![A-Za-z0-9]basic)[ \t]+([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])/gi;
const redactBasic: Rule = (text) => {
  let out = '';
  let from = 0;
  BASIC.lastIndex = 0;
  for (let m = BASIC.exec(text); m; m = BASIC.exec(text)) {
    if (!decodesToUserPassword(m[1]!)) continue;
    const credentialStart = m.index + m[0].length - m[1]!.length;
    out += text.slice(from, credentialStart) + REDACTED;
    from = m.index + m[0].length;
  }
  return from === 0 ? text : out + text.slice(from);
};

function decodesToUserPassword(encoded: string): boolean {
  try {
    const decoded = atob(encoded);
    // Printable ASCII with a colon after a non-empty user: RFC 7617 credentials.
    return /^[\x20-\x7e]+$/.test(decoded) && decoded.indexOf(':') > 0;
  } catch {
    return false;
  }
}

// ── command lines ────────────────────────────────────────────────────────────────────────────

/**
 * A command-line value: double-quoted, single-quoted (closing quote optional: a truncated command
 * still hides its secret) or bare. The replacement keeps the quotes: `"$<q1>$<q3>[redacted]$<q2>$<q4>"`.
 */
function quotedOr(bare: string): string {
  return `(?:(?<q1>")[^"\\r\\n]*(?<q2>"?)|(?<q3>')[^'\\r\\n]*(?<q4>'?)|${bare})`;
}
const QUOTED_REDACTED = `$<q1>$<q3>${REDACTED}$<q2>$<q4>`;

/** QUOTED_REDACTED for an exec match of quotedOr(). */
function quotedRedaction(value: RegExpExecArray): string {
  const g = value.groups ?? {};
  return `${g['q1'] ?? g['q3'] ?? ''}${REDACTED}${g['q2'] ?? g['q4'] ?? ''}`;
}

/** `sshpass -p pw ssh …` (sshpass -e reads SSHPASS=, which the assignment rule covers). */
const SSHPASS = new RegExp(`(?<![\\w-])(sshpass(?:[ \\t]+-v)?[ \\t]+-p[ \\t]*)${quotedOr(`[^\\s"']+`)}`, 'g');

/** `curl -u user:pw`, `--user user:pw`, `--proxy-user`, `-U`: only next to curl (`sort -u`, `docker -u 1000:1000`). */
const CURL = /(?<![\w-])curl(?![\w-])/i;
const CURL_USER = /(?<![\w-])((?:-u|-U|--user(?![\w-])|--proxy-user(?![\w-]))(?:=|[ \t]*)["']?[^\s:"']*:)[^\s"']+/g;

/** Samba `-U user%password` (smbclient, rpcclient). */
const SMB_USER = /(?<![\w-])((?:-U|--user(?![\w-]))(?:=|[ \t]*)["']?[^\s%"']+%)[^\s"']+/g;

/** `mysql -pSecret`, `7z a -pSecret`, `rar -pSecret`: glued to -p. Elsewhere -p is a port or `mkdir -p`. */
const GLUED_P_COMMANDS = /(?<![\w-])(?:mysql\w*|mariadb[\w-]*|7z[ar]?|rar|unrar|winrar)(?![\w-])/i;
const GLUED_P = /(?<![\w-])-p[^\s"'][^\s"']*/g;

/** `zip -P pw`, `unzip -P pw`. */
const ZIP_COMMANDS = /(?<![\w-])(?:zip|unzip)(?![\w-])/i;
const ZIP_P = new RegExp(`(?<![\\w-])(-P[ \\t]+)${quotedOr(`[^\\s"'-][^\\s"']*`)}`, 'g');

/** Windows: `net user kim NewPass1 /add`, `net use Z: \\srv\share Pass1 /user:kim` (`*` prompts instead). */
const NET_USER = /(?<![\w-])(net[ \t]+user[ \t]+[^\s/]\S*[ \t]+)[^\s/*]\S*/gi;
const NET_USE = /(?<![\w-])(net[ \t]+use[ \t]+(?:[A-Za-z]:[ \t]+|\*[ \t]+)?\\\\\S+[ \t]+)[^\s/*]\S*/gi;

/** PowerShell `ConvertTo-SecureString "pw" -AsPlainText`; a `$variable` or `(expression)` is not a secret. */
const SECURE_STRING = new RegExp(`(ConvertTo-SecureString[ \\t]+(?:-String[ \\t]+)?)${quotedOr(`[^\\s"'$(-]\\S*`)}`, 'gi');

const redactCommandSpecific: Rule = (text) => {
  let out = text.replace(SSHPASS, `$1${QUOTED_REDACTED}`);
  if (CURL.test(out)) out = out.replace(CURL_USER, `$1${REDACTED}`);
  out = out.replace(SMB_USER, `$1${REDACTED}`);
  if (GLUED_P_COMMANDS.test(out)) out = out.replace(GLUED_P, `-p${REDACTED}`);
  if (ZIP_COMMANDS.test(out)) out = out.replace(ZIP_P, `$1${QUOTED_REDACTED}`);
  out = out.replace(NET_USER, `$1${REDACTED}`).replace(NET_USE, `$1${REDACTED}`);
  return out.replace(SECURE_STRING, `$1${QUOTED_REDACTED}`);
};

/**
 * `--password hunter2`, `--token "x"`, `-Password x` (PowerShell): a secret-named flag and its
 * separate value. The regex finds only the flag (with a secret stem in it); the value is read after
 * the decision, so a harmless flag never swallows text with a secret in it (`sh -c "… --password x"`).
 */
const FLAG_NAME = /(?<![\w-])--?(?=[\w-]{0,63}?(?:pass|pwd|secret|token|auth|cookie|cred|key|pin|otp))([A-Za-z][\w-]{0,63})[ \t]+/gi;
// A bare value starting with `$` is a shell or PowerShell variable: its name is not the secret,
// and it tells the auditor where the secret came from.
const FLAG_VALUE = new RegExp(quotedOr(`[^\\s"'$-][^\\s"']*`), 'y');

const redactSecretFlags: Rule = (text) => {
  let out = '';
  let from = 0;
  FLAG_NAME.lastIndex = 0;
  for (let m = FLAG_NAME.exec(text); m; m = FLAG_NAME.exec(text)) {
    if (!isSecretKey(m[1]!)) continue;
    const valueStart = m.index + m[0].length;
    FLAG_VALUE.lastIndex = valueStart;
    const value = FLAG_VALUE.exec(text);
    if (!value) continue;
    out += text.slice(from, valueStart) + quotedRedaction(value);
    from = valueStart + value[0].length;
    FLAG_NAME.lastIndex = from;
  }
  return from === 0 ? text : out + text.slice(from);
};

// ── NAME=value, name: value ──────────────────────────────────────────────────────────────────

/** Query parameters that carry a credential though their names do not say so (Azure SAS, Google API keys, AWS presigned URLs). */
const QUERY_SECRET_PARAMS = new Set(['sig', 'signature', 'key', 'x-amz-signature', 'x-amz-credential', 'x-amz-security-token', 'x-goog-signature', 'x-goog-credential']);

function isAssignedSecret(name: string, separator: string, before: string): boolean {
  if (isSecretKey(name)) {
    // Authorization and Cookie headers have their own rules, which keep the scheme readable.
    const lower = name.toLowerCase();
    return !(lower.includes('authorization') || (lower.includes('cookie') && separator === ':'));
  }
  if (before === '?' || before === '&') return QUERY_SECRET_PARAMS.has(name.toLowerCase());
  // ODBC/ADO connection strings: `Server=db;Uid=sa;Pwd=secret;` (PWD= elsewhere is the working directory).
  return before === ';' && name.toLowerCase() === 'pwd';
}

const MIN_NAME = 3;
const MAX_NAME = 64;
const MAX_BLANKS = 8;

function isNameChar(c: number): boolean {
  // [A-Za-z0-9_.-]
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * Where the name before the `:` or `=` at `separator` starts, or -1. Read backwards: up to 8 blanks,
 * an optional closing quote (`"password": …`, escaped `\"password\":`), the name. The name must
 * start its word (not after `/`: `https://token:…@` is the URL rule's), start with a letter or `_`
 * after at most two dashes (`--password=`) and have 3 to 64 characters (no secret name is shorter
 * than `pin`, `pwd`, `sig`: most separators in ordinary text stop here).
 */
function nameStartBefore(text: string, separator: number): number {
  let i = separator - 1;
  let blanks = 0;
  while (i >= 0 && isBlank(text.charCodeAt(i))) {
    if (++blanks > MAX_BLANKS) return -1;
    i -= 1;
  }
  const c = text.charCodeAt(i);
  if (c === 34 /* " */ || c === 39 /* ' */) {
    i -= 1;
    if (text.charCodeAt(i) === 92 /* \ */) i -= 1;
  }
  const end = i + 1;
  while (i >= 0 && isNameChar(text.charCodeAt(i))) {
    if (end - i > MAX_NAME + 2) return -1;
    i -= 1;
  }
  if (end - i - 1 < MIN_NAME || text.charCodeAt(i) === 47 /* / */) return -1;
  let start = i + 1;
  for (let dashes = 0; dashes < 2 && text.charCodeAt(start) === 45 /* - */; dashes += 1) start += 1;
  const first = text.charCodeAt(start);
  const letterOrUnderscore = (first >= 97 && first <= 122) || (first >= 65 && first <= 90) || first === 95;
  return end - start >= MIN_NAME && end - start <= MAX_NAME && letterOrUnderscore ? start : -1;
}

/** The end of the name that starts at `start` (name characters, then the optional quote and blanks are not part of it). */
function nameEnd(text: string, start: number): number {
  let end = start;
  while (isNameChar(text.charCodeAt(end))) end += 1;
  return end;
}

/** The character before a name and its dashes (`?`, `&`, `;` give the query and connection-string context). */
function charBefore(text: string, nameStart: number): string {
  let i = nameStart - 1;
  while (i >= 0 && nameStart - i <= 2 && text.charCodeAt(i) === 45 /* - */) i -= 1;
  return i >= 0 ? text[i]! : '';
}

function endsBareValue(c: number): boolean {
  // whitespace (ASCII, no-break, ideographic), quotes, & ; , < >
  return c <= 32 || c === 0xa0 || c === 0x3000 || c === 34 || c === 39 || c === 38 || c === 59 || c === 44 || c === 60 || c === 62;
}

/**
 * `NAME=value` and `name: value` anywhere: `--password=x`, `PGPASSWORD=x cmd`, `.env` lines, YAML,
 * JSON inside a string, `?access_token=…&sig=…`, `Pwd=…;` connection strings. Found from each `:`
 * and `=` backwards and read by hand: this rule meets the most candidates, and regex match objects
 * for each of them made the garbage collector the largest cost (profiled on 1 MB of `"password": "`).
 * A quoted value runs to its closing quote (or line end); a bare one ends at whitespace, a quote,
 * `&`, `;`, `,`, `<` or `>`.
 */
const redactAssignments: Rule = (text) => {
  let out = '';
  let from = 0;
  let colon = text.indexOf(':');
  let equals = text.indexOf('=');
  // Line ends looked up lazily and only forward, so finding "the end of this line" stays linear.
  let lineEnd = -1;
  const endOfLine = (at: number): number => {
    if (lineEnd < at) {
      const lf = text.indexOf('\n', at);
      const cr = text.indexOf('\r', at);
      lineEnd = lf === -1 ? (cr === -1 ? text.length : cr) : cr === -1 ? lf : Math.min(lf, cr);
    }
    return lineEnd;
  };
  while (colon !== -1 || equals !== -1) {
    const separator = colon === -1 ? equals : equals === -1 ? colon : Math.min(colon, equals);
    let next = separator + 1;
    const nameStart = nameStartBefore(text, separator);
    const before = nameStart === -1 ? '' : charBefore(text, nameStart);
    if (nameStart !== -1 && isAssignedSecret(text.slice(nameStart, nameEnd(text, nameStart)), text[separator]!, before)) {
      let start = separator + 1;
      for (let blanks = 0; blanks < MAX_BLANKS && isBlank(text.charCodeAt(start)); blanks += 1) start += 1;
      const first = text[start];
      const open = first === '"' || first === "'" ? 1 : first === '\\' && (text[start + 1] === '"' || text[start + 1] === "'") ? 2 : 0;
      if (open > 0) {
        const quote = text[start + open - 1]!;
        const close = text.indexOf(quote, start + open);
        const end = Math.min(close === -1 ? text.length : close, endOfLine(start));
        // `\"x\"` inside JSON text: keep the backslash that escapes the closing quote.
        const escapedClose = end > start + open && text.charCodeAt(end - 1) === 92;
        out += `${text.slice(from, start + open)}${REDACTED}${escapedClose ? '\\' : ''}`;
        from = next = end;
      } else {
        // A fragment ends a query string; it is not part of the credential.
        const query = before === '?' || before === '&';
        let end = start;
        while (end < text.length && !endsBareValue(text.charCodeAt(end)) && !(query && text.charCodeAt(end) === 35 /* # */)) end += 1;
        if (end > start) {
          out += text.slice(from, start) + REDACTED;
          from = next = end;
        }
      }
    }
    if (colon !== -1 && colon < next) colon = text.indexOf(':', next);
    if (equals !== -1 && equals < next) equals = text.indexOf('=', next);
  }
  return from === 0 ? text : out + text.slice(from);
};

/** `비밀번호: 1234`, `암호=abcd` in Korean text (full-width `：` and `＝` too). */
const KOREAN_ASSIGNMENT = new RegExp(`((?:비밀번호|패스워드|암호(?!화))[ \\t]{0,8}[:=：＝][ \\t]{0,8})${quotedOr(`[^\\s"',;]+`)}`, 'g');
const redactKoreanAssignments: Rule = (text) => text.replace(KOREAN_ASSIGNMENT, `$1${QUOTED_REDACTED}`);

// ── token shapes ─────────────────────────────────────────────────────────────────────────────

/**
 * Tokens that are secrets wherever they appear: JWTs, GitHub, AWS access key ids, Slack, Google API
 * keys, GitLab, npm, OpenAI, Stripe. OpenAI keys are matched in their exact forms only: a loose
 * `sk-…` would hide every `sk-hynix-…` and `sk-telecom-…` file name in a Korean office.
 */
const TOKEN_SHAPES: readonly (readonly [prefix: string, rest: string])[] = [
  ['eyJ', '[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*'],
  ['gh[pousr]_', '[A-Za-z0-9]{30,}'],
  ['github_pat_', '[A-Za-z0-9_]{30,}'],
  ['A(?:KIA|SIA|BIA|CCA)', '[A-Z0-9]{16}'],
  ['xox[abposr]-', '[A-Za-z0-9-]{10,}'],
  ['AIza', '[A-Za-z0-9_-]{35}'],
  ['glpat-', '[A-Za-z0-9_-]{20,}'],
  ['npm_', '[A-Za-z0-9]{36}'],
  ['sk-(?:proj|svcacct|admin)-', '[A-Za-z0-9_-]{20,}'],
  ['sk-', '[A-Za-z0-9]{48}'],
  ['[sr]k_live_', '[A-Za-z0-9]{20,}'],
];
const TOKEN = new RegExp(`(?:${TOKEN_SHAPES.map(([prefix, rest]) => `${prefix}(?<![A-Za-z0-9_-]${prefix})${rest}`).join('|')})(?![A-Za-z0-9_-])`, 'g');
const redactTokenShapes: Rule = (text) => text.replace(TOKEN, REDACTED);

// ── all ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Order matters: key blocks first (their bodies are base64 that later rules would nibble at), URLs
 * and headers before the generic `name: value` rule so that their readable parts (user, scheme) stay.
 * Every rule leaves `[redacted]` as it is, so redacting twice (gate, then ledger) changes nothing.
 */
const RULES: readonly Rule[] = [
  redactPemBlocks,
  redactPuttyKeys,
  redactUrlUserinfo,
  redactAuthorizationHeaders,
  redactCookieHeaders,
  redactBearer,
  redactBasic,
  redactCommandSpecific,
  redactSecretFlags,
  redactAssignments,
  redactKoreanAssignments,
  redactTokenShapes,
];

/** Replaces the secret parts of a free text (command line, URL, header line, file content) with `[redacted]`. */
export function redactSecretsInText(text: string): string {
  let out = text;
  for (const rule of RULES) out = rule(out);
  return out;
}
