import { ASCII_SECRET_STEMS, isSecretKey } from './secret-keys';

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
 *
 * Fast on ordinary text too: the ledger redacts every string of every event (keys included) on the
 * append path, and running every rule's regex over a file name cost ~3 µs per string, ~80 µs per
 * gate event (tests/bench/audit-append.bench.ts). So each rule carries a guard: the literal text
 * every one of its matches contains (`bearer`, `@`, `PRIVATE KEY`, a token prefix). One pass over
 * the text (ScannedText) notes which ASCII letters and marker characters occur; a guard searches
 * for its literal only when all of the literal's characters are there, and a rule whose guard
 * fails is skipped: the gate event now takes ~5 µs. A guard may say "maybe" wrongly, never "no"
 * wrongly: that is the whole contract, and tests/unit/audit/redact-prescan.test.ts holds the
 * guarded chain to the full chain (`redactSecretsByFullRuleChain`) on thousands of generated texts
 * with every secret shape in them.
 */

export const REDACTED = '[redacted]';

type Rule = (text: string) => string;

// ── the pre-scan ─────────────────────────────────────────────────────────────────────────────

/** Marker characters a guard can ask for without searching; any other ASCII symbol is not tracked. */
const MARKS: Readonly<Record<string, number>> = { '@': 1, '%': 2, '-': 4, ':': 8, '/': 16, '=': 32, '_': 64 };
/** Set for any character outside ASCII (the Korean words of the Korean rule). */
const NON_ASCII = 128;
const MARK_OF_ASCII = new Uint8Array(128);
for (const [char, bit] of Object.entries(MARKS)) MARK_OF_ASCII[char.charCodeAt(0)] = bit;

/** A literal some rule needs, with the bits its characters set in a ScannedText (precomputed once). */
interface Needle {
  /** Lower-cased when `ignoreCase`. */
  readonly text: string;
  readonly ignoreCase: boolean;
  /** Bits a text containing the literal must have (ScannedText's fields of the same names). */
  readonly bits: Bits;
  /** One tracked marker character (`@`, `:` …): its bit answers exactly, no search needed. */
  readonly markOnly: boolean;
}

/** Which ASCII letters a text holds in lower case, in upper case, in either case, and its markers. */
interface Bits {
  readonly lowerLetters: number;
  readonly upperLetters: number;
  readonly anyCaseLetters: number;
  readonly marks: number;
}

/**
 * `ignoreCase` is for rules with the `i` flag and ASCII literals only: without the `u` flag, `/x/i`
 * matches an ASCII letter only in its two ASCII cases (ECMAScript Canonicalize never maps a
 * non-ASCII character to ASCII), and `toLowerCase()` turns both into the lower one, so a match of
 * `/bearer/i` in a text implies `bearer` in the text's lower-case copy.
 */
function needle(literal: string, ignoreCase = false): Needle {
  if (ignoreCase && !/^[\x20-\x7e]+$/.test(literal)) throw new Error(`Case-insensitive needles must be printable ASCII: ${literal}`);
  const { lowerLetters, upperLetters, marks } = bitsOf(literal);
  const bits: Bits = ignoreCase
    ? { lowerLetters: 0, upperLetters: 0, anyCaseLetters: lowerLetters | upperLetters, marks }
    : { lowerLetters, upperLetters, anyCaseLetters: lowerLetters | upperLetters, marks };
  const markOnly = literal.length === 1 && marks !== 0 && marks !== NON_ASCII;
  return { text: ignoreCase ? literal.toLowerCase() : literal, ignoreCase, bits, markOnly };
}

function bitsOf(text: string): Bits {
  let lowerLetters = 0;
  let upperLetters = 0;
  let marks = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) lowerLetters |= 1 << (c - 97);
    else if (c >= 65 && c <= 90) upperLetters |= 1 << (c - 65);
    else if (c < 128) marks |= MARK_OF_ASCII[c]!;
    else marks |= NON_ASCII;
  }
  return { lowerLetters, upperLetters, anyCaseLetters: lowerLetters | upperLetters, marks };
}

/** Does a text with `have` hold every bit of `need`? */
function holds(have: Bits, need: Bits): boolean {
  return (
    (have.marks & need.marks) === need.marks &&
    (have.anyCaseLetters & need.anyCaseLetters) === need.anyCaseLetters &&
    (have.lowerLetters & need.lowerLetters) === need.lowerLetters &&
    (have.upperLetters & need.upperLetters) === need.upperLetters
  );
}

/** Keeps only needles that contain no other one: if `sig` is absent, so is `signature`. */
function minimalNeedles(literals: readonly string[], ignoreCase: boolean): Needle[] {
  const words = [...new Set(ignoreCase ? literals.map((w) => w.toLowerCase()) : literals)];
  return words.filter((word) => !words.some((other) => other !== word && word.includes(other))).map((word) => needle(word, ignoreCase));
}

/**
 * What a text must contain for a rule to change it: every clause, each by at least one of its
 * needles (`[[COLON, EQUALS], STEMS]`: a `:` or a `=`, and a stem). `bits` is what every way of
 * meeting the clauses needs (per clause the bits all its needles share, over all clauses), so most
 * rules are ruled out by four bit tests before any needle is looked at.
 */
interface Guard {
  readonly clauses: readonly (readonly Needle[])[];
  readonly bits: Bits;
}

function guard(clauses: readonly (readonly Needle[])[]): Guard {
  let lowerLetters = 0;
  let upperLetters = 0;
  let anyCaseLetters = 0;
  let marks = 0;
  for (const clause of clauses) {
    if (clause.length === 0) throw new Error('A guard clause needs at least one needle.');
    // What every needle of the clause needs.
    let shared: Bits = clause[0]!.bits;
    for (const n of clause) {
      shared = {
        lowerLetters: shared.lowerLetters & n.bits.lowerLetters,
        upperLetters: shared.upperLetters & n.bits.upperLetters,
        anyCaseLetters: shared.anyCaseLetters & n.bits.anyCaseLetters,
        marks: shared.marks & n.bits.marks,
      };
    }
    lowerLetters |= shared.lowerLetters;
    upperLetters |= shared.upperLetters;
    anyCaseLetters |= shared.anyCaseLetters;
    marks |= shared.marks;
  }
  return { clauses, bits: { lowerLetters, upperLetters, anyCaseLetters, marks } };
}

/**
 * One pass over a text: which ASCII letters it holds in each case and which marker characters. A
 * guard then rules a literal out with a few bit operations; only when every character of the
 * literal occurs does it search (the lower-case copy for case-insensitive literals, made at most once).
 */
export class ScannedText {
  private readonly bits: Bits;
  private lowered: string | undefined;

  constructor(readonly text: string) {
    this.bits = bitsOf(text);
  }

  /** Does the text contain the needle's literal (in any ASCII case when the needle ignores case)? */
  contains(n: Needle): boolean {
    if (!holds(this.bits, n.bits)) return false;
    // A single marker character is answered by its bit alone.
    if (n.markOnly) return true;
    if (n.ignoreCase) {
      this.lowered ??= this.text.toLowerCase();
      return this.lowered.includes(n.text);
    }
    return this.text.includes(n.text);
  }

  /** Does every clause of the guard have at least one of its needles in the text? */
  satisfies(g: Guard): boolean {
    if (!holds(this.bits, g.bits)) return false;
    for (let c = 0; c < g.clauses.length; c += 1) {
      const clause = g.clauses[c]!;
      let any = false;
      for (let i = 0; i < clause.length && !any; i += 1) any = this.contains(clause[i]!);
      if (!any) return false;
    }
    return true;
  }
}

/**
 * A rule and its guard. `needs` must hold for every text the rule would change; it is built from
 * literals every match of the rule contains, each written next to the rule it guards. Guards are
 * data rather than functions so that one loop evaluates all of them: 19 guard closures at one call
 * site cost more than the bit tests they ran (~300 ns per short string, ~100 ns as data).
 */
interface GuardedRule {
  readonly name: string;
  readonly needs: Guard;
  readonly apply: Rule;
}

const AT = needle('@');
const COLON = needle(':');
const EQUALS = needle('=');
const DASH = needle('-');
const PERCENT = needle('%');

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

/** Needs `PRIVATE KEY` (case-sensitive): the BEGIN pattern contains it and the rule starts at a BEGIN line. */
const PRIVATE_KEY = needle('PRIVATE KEY');
const pemBlocks: GuardedRule = { name: 'PEM private key blocks', needs: guard([[PRIVATE_KEY]]), apply: redactPemBlocks };

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

/** Needs `Private-Lines:` (case-sensitive): every match of PPK_PRIVATE_LINES starts with it. */
const PRIVATE_LINES = needle('Private-Lines:');
const puttyKeys: GuardedRule = { name: 'PuTTY private lines', needs: guard([[PRIVATE_LINES]]), apply: redactPuttyKeys };

// ── URLs and HTTP headers ────────────────────────────────────────────────────────────────────

/**
 * `scheme://user:password@host`, also `scheme:/…` as a path normaliser leaves it and `redis://:pw@`.
 * The scheme (2+ characters, so `C:/…` is not one) is checked behind the colon. The password may
 * hold an unencoded `@`, so it runs to the last `@` before the host.
 */
const URL_USERINFO = /:(?<=(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,31}:)(\/\/?[^\s/?#@:"'<>\\]*:)[^\s/?#"'<>\\]+@/g;
/** Needs `:/` (the colon, then group 1's first slash) and `@` (the literal that ends every match). */
const COLON_SLASH = needle(':/');
const urlUserinfo: GuardedRule = {
  name: 'URL user:password@',
  needs: guard([[AT], [COLON_SLASH]]),
  apply: (text) => text.replace(URL_USERINFO, `:$1${REDACTED}@`),
};

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
/** Needs `authorization` in any case (the `i` flag): every match contains the header name. */
const AUTHORIZATION_WORD = needle('authorization', true);
const authorizationHeaders: GuardedRule = {
  name: 'Authorization headers',
  needs: guard([[AUTHORIZATION_WORD]]),
  apply: (text) => text.replace(AUTHORIZATION_HEADER, `$1$2${REDACTED}`),
};

/** `Cookie: a=1; b=2` carries session ids: the whole header value. */
const COOKIE_HEADER = /\b((?:set-)?cookie\\?["']?[ \t]{0,8}:[ \t]{0,8}\\?["']?)[^\r\n"'\\]+/gi;
/** Needs `cookie` in any case (the `i` flag) and `:` (the header separator). */
const COOKIE_WORD = needle('cookie', true);
const cookieHeaders: GuardedRule = {
  name: 'Cookie headers',
  needs: guard([[COLON], [COOKIE_WORD]]),
  apply: (text) => text.replace(COOKIE_HEADER, `$1${REDACTED}`),
};

/**
 * `Bearer <token>` anywhere. Prose has the word too ("bearer instrument"), so the token must look
 * like one: a digit or one of `._~+/=-` in it, or at least 20 characters.
 */
const BEARER = /(bearer(?<![A-Za-z0-9]bearer)[ \t]+)(?=[A-Za-z0-9._~+/-]*[0-9._~+/=-]|[A-Za-z0-9]{20})[A-Za-z0-9._~+/-]+=*/gi;
/** Needs `bearer` in any case (the `i` flag). */
const BEARER_WORD = needle('bearer', true);
const bearerTokens: GuardedRule = { name: 'Bearer tokens', needs: guard([[BEARER_WORD]]), apply: (text) => text.replace(BEARER, `$1${REDACTED}`) };

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

/** Needs `basic` in any case (the `i` flag). */
const BASIC_WORD = needle('basic', true);
const basicCredentials: GuardedRule = { name: 'Basic credentials', needs: guard([[BASIC_WORD]]), apply: redactBasic };

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

/*
 * The command rules, one guarded rule each, applied in this order. The command-name tests (CURL,
 * GLUED_P_COMMANDS, ZIP_COMMANDS) stay inside the rules: they are part of what the rule means
 * (`curl` as a word); the guards only add a cheaper necessary condition in front.
 */
/** Needs `sshpass` (case-sensitive: SSHPASS has no `i` flag). */
const SSHPASS_WORD = needle('sshpass');
const sshpassPassword: GuardedRule = {
  name: 'sshpass -p',
  needs: guard([[SSHPASS_WORD]]),
  apply: (text) => text.replace(SSHPASS, `$1${QUOTED_REDACTED}`),
};

/** Needs `curl` in any case (CURL has the `i` flag) and `:` (every CURL_USER match has `user:`). */
const CURL_WORD = needle('curl', true);
const curlUser: GuardedRule = {
  name: 'curl -u user:password',
  needs: guard([[COLON], [CURL_WORD]]),
  apply: (text) => (CURL.test(text) ? text.replace(CURL_USER, `$1${REDACTED}`) : text),
};

/** Needs `%` and `-U` or `--user` (case-sensitive: SMB_USER has no `i` flag). */
const DASH_CAPITAL_U = needle('-U');
const DASH_DASH_USER = needle('--user');
const smbUser: GuardedRule = {
  name: 'smbclient -U user%password',
  needs: guard([[PERCENT], [DASH_CAPITAL_U, DASH_DASH_USER]]),
  apply: (text) => text.replace(SMB_USER, `$1${REDACTED}`),
};

/**
 * Needs `-p` (case-sensitive, GLUED_P) and, in any case, `mysql`, `mariadb`, `7z` or `rar` (every
 * GLUED_P_COMMANDS match contains one: `unrar` and `winrar` contain `rar`).
 */
const DASH_P = needle('-p');
const GLUED_P_COMMAND_WORDS = minimalNeedles(['mysql', 'mariadb', '7z', 'rar', 'unrar', 'winrar'], true);
const gluedP: GuardedRule = {
  name: 'mysql/7z/rar -pPASSWORD',
  needs: guard([[DASH_P], GLUED_P_COMMAND_WORDS]),
  apply: (text) => (GLUED_P_COMMANDS.test(text) ? text.replace(GLUED_P, `-p${REDACTED}`) : text),
};

/** Needs `-P` (case-sensitive, ZIP_P) and `zip` in any case (ZIP_COMMANDS: `zip`, `unzip`). */
const DASH_CAPITAL_P = needle('-P');
const ZIP_WORD = needle('zip', true);
const zipP: GuardedRule = {
  name: 'zip -P',
  needs: guard([[DASH_CAPITAL_P], [ZIP_WORD]]),
  apply: (text) => (ZIP_COMMANDS.test(text) ? text.replace(ZIP_P, `$1${QUOTED_REDACTED}`) : text),
};

/** Both need `net` and `use` in any case (the `i` flag; `user` contains `use`). */
const NET_WORD = needle('net', true);
const USE_WORD = needle('use', true);
const netUser: GuardedRule = { name: 'net user', needs: guard([[NET_WORD], [USE_WORD]]), apply: (text) => text.replace(NET_USER, `$1${REDACTED}`) };
const netUse: GuardedRule = { name: 'net use', needs: guard([[NET_WORD], [USE_WORD]]), apply: (text) => text.replace(NET_USE, `$1${REDACTED}`) };

/** Needs `convertto-securestring` in any case (the `i` flag). */
const SECURE_STRING_WORD = needle('ConvertTo-SecureString', true);
const secureString: GuardedRule = {
  name: 'ConvertTo-SecureString',
  needs: guard([[SECURE_STRING_WORD]]),
  apply: (text) => text.replace(SECURE_STRING, `$1${QUOTED_REDACTED}`),
};

/**
 * `--password hunter2`, `--token "x"`, `-Password x` (PowerShell): a secret-named flag and its
 * separate value. The regex finds only the flag (with a secret stem in it); the value is read after
 * the decision, so a harmless flag never swallows text with a secret in it (`sh -c "… --password x"`).
 * Also an argument list written as JSON (`"--password","hunter2"`, or `\"--password\",\"hunter2\"`
 * inside JSON text): arguments with no shell between them, so the next element is the value whatever
 * it starts with (issue 14 class 9). Which names are secret: secret-keys.ts (isSecretKey).
 */
const FLAG_NAME = new RegExp(
  `(?<![\\w-])--?(?=[\\w-]{0,63}?(?:${ASCII_SECRET_STEMS.join('|')}))([A-Za-z][\\w-]{0,63})(?:[ \\t]+|(\\\\?)"[ \\t]*,[ \\t]*\\2")`,
  'gi',
);
// A bare value starting with `$` is a shell or PowerShell variable: its name is not the secret,
// and it tells the auditor where the secret came from.
const FLAG_VALUE = new RegExp(quotedOr(`[^\\s"'$-][^\\s"']*`), 'y');

/** Where a JSON string element that starts at `start` ends: its closing quote (`\"` when `escaped`), or the line end. */
function jsonElementEnd(text: string, start: number, escaped: boolean): number {
  let j = start;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === 10 || c === 13) return j;
    if (c === 92 /* \ */) {
      if (escaped && text.charCodeAt(j + 1) === 34) return j;
      j += 2;
      continue;
    }
    if (c === 34 /* " */ && !escaped) return j;
    j += 1;
  }
  return text.length;
}

const redactSecretFlags: Rule = (text) => {
  let out = '';
  let from = 0;
  FLAG_NAME.lastIndex = 0;
  for (let m = FLAG_NAME.exec(text); m; m = FLAG_NAME.exec(text)) {
    if (!isSecretKey(m[1]!)) continue;
    const valueStart = m.index + m[0].length;
    if (m[2] !== undefined) {
      const end = jsonElementEnd(text, valueStart, m[2] !== '');
      if (end === valueStart) continue;
      out += text.slice(from, valueStart) + REDACTED;
      from = end;
      FLAG_NAME.lastIndex = end;
      continue;
    }
    FLAG_VALUE.lastIndex = valueStart;
    const value = FLAG_VALUE.exec(text);
    if (!value) continue;
    out += text.slice(from, valueStart) + quotedRedaction(value);
    from = valueStart + value[0].length;
    FLAG_NAME.lastIndex = from;
  }
  return from === 0 ? text : out + text.slice(from);
};

/** Needs `-` (the flag's dash) and a secret stem in any case (FLAG_NAME's look-ahead, `i` flag). */
const SECRET_STEM_WORDS = minimalNeedles(ASCII_SECRET_STEMS, true);
const secretFlags: GuardedRule = {
  name: '--secret-flag value',
  needs: guard([[DASH], SECRET_STEM_WORDS]),
  apply: redactSecretFlags,
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

/**
 * Needs `:` or `=` (the separators it starts from) and, in any case, a secret stem or a query
 * parameter name. The name is ASCII (isNameChar), so isSecretKey accepts it only with one of the
 * ASCII stems (secret-keys.ts tests them first); a query parameter is one of QUERY_SECRET_PARAMS
 * (`sig` adds the only new literal); `pwd` is a stem.
 */
const ASSIGNED_NAME_WORDS = minimalNeedles([...ASCII_SECRET_STEMS, ...QUERY_SECRET_PARAMS, 'pwd'], true);
const assignments: GuardedRule = {
  name: 'NAME=value, name: value',
  needs: guard([[COLON, EQUALS], ASSIGNED_NAME_WORDS]),
  apply: redactAssignments,
};

/** `비밀번호: 1234`, `암호=abcd` in Korean text (full-width `：` and `＝` too). */
const KOREAN_ASSIGNMENT = new RegExp(`((?:비밀번호|패스워드|암호(?!화))[ \\t]{0,8}[:=：＝][ \\t]{0,8})${quotedOr(`[^\\s"',;]+`)}`, 'g');
/** Needs `비밀번호`, `패스워드` or `암호` (the alternatives every match starts with). */
const KOREAN_SECRET_WORDS = ['비밀번호', '패스워드', '암호'].map((word) => needle(word));
const koreanAssignments: GuardedRule = {
  name: '비밀번호: value',
  needs: guard([KOREAN_SECRET_WORDS]),
  apply: (text) => text.replace(KOREAN_ASSIGNMENT, `$1${QUOTED_REDACTED}`),
};

// ── token shapes ─────────────────────────────────────────────────────────────────────────────

/**
 * Tokens that are secrets wherever they appear: JWTs, GitHub, AWS access key ids, Slack, Google API
 * keys, GitLab, npm, OpenAI, Stripe. OpenAI keys are matched in their exact forms only: a loose
 * `sk-…` would hide every `sk-hynix-…` and `sk-telecom-…` file name in a Korean office.
 */
const TOKEN_SHAPES: readonly (readonly [prefix: string, rest: string, literals: readonly string[]])[] = [
  // The third column is the guard: literals one of which every match of the prefix contains (case-sensitive).
  ['eyJ', '[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*', ['eyJ']],
  ['gh[pousr]_', '[A-Za-z0-9]{30,}', ['gh']],
  ['github_pat_', '[A-Za-z0-9_]{30,}', ['github_pat_']],
  ['A(?:KIA|SIA|BIA|CCA)', '[A-Z0-9]{16}', ['AKIA', 'ASIA', 'ABIA', 'ACCA']],
  ['xox[abposr]-', '[A-Za-z0-9-]{10,}', ['xox']],
  ['AIza', '[A-Za-z0-9_-]{35}', ['AIza']],
  ['glpat-', '[A-Za-z0-9_-]{20,}', ['glpat-']],
  ['npm_', '[A-Za-z0-9]{36}', ['npm_']],
  ['sk-(?:proj|svcacct|admin)-', '[A-Za-z0-9_-]{20,}', ['sk-']],
  ['sk-', '[A-Za-z0-9]{48}', ['sk-']],
  ['[sr]k_live_', '[A-Za-z0-9]{20,}', ['k_live_']],
];
const TOKEN = new RegExp(`(?:${TOKEN_SHAPES.map(([prefix, rest]) => `${prefix}(?<![A-Za-z0-9_-]${prefix})${rest}`).join('|')})(?![A-Za-z0-9_-])`, 'g');
const TOKEN_PREFIX_WORDS = minimalNeedles(TOKEN_SHAPES.flatMap(([, , literals]) => literals), false);
const tokenShapes: GuardedRule = { name: 'token shapes', needs: guard([TOKEN_PREFIX_WORDS]), apply: (text) => text.replace(TOKEN, REDACTED) };

// ── all ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Order matters: key blocks first (their bodies are base64 that later rules would nibble at), URLs
 * and headers before the generic `name: value` rule so that their readable parts (user, scheme) stay.
 * Every rule leaves `[redacted]` as it is, so redacting twice (gate, then ledger) changes nothing.
 */
const RULES: readonly GuardedRule[] = [
  pemBlocks,
  puttyKeys,
  urlUserinfo,
  authorizationHeaders,
  cookieHeaders,
  bearerTokens,
  basicCredentials,
  sshpassPassword,
  curlUser,
  smbUser,
  gluedP,
  zipP,
  netUser,
  netUse,
  secureString,
  secretFlags,
  assignments,
  koreanAssignments,
  tokenShapes,
];

/** Replaces the secret parts of a free text (command line, URL, header line, file content) with `[redacted]`. */
export function redactSecretsInText(text: string): string {
  const scanned = new ScannedText(text);
  for (let i = 0; i < RULES.length; i += 1) {
    const rule = RULES[i]!;
    if (!scanned.satisfies(rule.needs)) continue;
    const out = rule.apply(text);
    // The scan describes the text as it came in. Once a rule has changed it, the remaining rules run
    // unguarded, exactly as in the full chain: rescanning after every change cost more than it
    // saved on large texts full of secrets (1 MB script: 49 ms instead of 20 ms), and texts with a
    // secret in them are the rare case (the ledger mostly sees arguments the gate already redacted,
    // and an unchanged-by-content result compares equal here).
    if (out !== text) return applyRulesFrom(i + 1, out);
  }
  return text;
}

function applyRulesFrom(first: number, text: string): string {
  let out = text;
  for (let i = first; i < RULES.length; i += 1) out = RULES[i]!.apply(out);
  return out;
}

/**
 * Every rule on the text, no guard consulted: the plain definition of redactSecretsInText, kept as
 * the oracle its tests compare the guarded chain with. Not for production use (slower, same output).
 */
export function redactSecretsByFullRuleChain(text: string): string {
  return applyRulesFrom(0, text);
}

/** The rules' names and guards in order, for tests that check a guard against its rule. */
export function guardedRulesForTests(): readonly GuardedRule[] {
  return RULES;
}
