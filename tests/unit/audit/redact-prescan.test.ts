import { describe, expect, it } from 'vitest';
import { prng as seeded } from '../../helpers/prng';
import { redactSecretsDeep } from '../../../electron/main/audit/redact';
import { isSecretKey } from '../../../electron/main/audit/secret-keys';
import {
  guardedRulesForTests,
  REDACTED,
  redactSecretsByFullRuleChain,
  redactSecretsInText,
  ScannedText,
} from '../../../electron/main/audit/secret-text';
import { SECRET_LOOKALIKES } from './secret-lookalikes';

/*
 * The pre-scan (secret-text.ts) skips a rule when the text lacks a literal every match of the rule
 * contains. These tests hold the guarded chain to the full rule chain, the plain definition, on
 * thousands of generated texts: ordinary office text, every secret shape of redact.test.ts and
 * every token shape, at random positions, in random ASCII case, next to look-alike characters.
 */

// Assembled at run time, as in redact.test.ts, so that secret scanners do not flag this file.
const JWT = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiJraW0ifQ', 'c2lnbmF0dXJlLXNpZw'].join('.');
const TOKENS = [
  JWT,
  `ghp_${'Ab1Cd2Ef3'.repeat(4)}`,
  `gho_${'Zz9Yy8Xx7'.repeat(4)}`,
  `github_pat_${'11AbCdEf0'.repeat(6)}`,
  ['AKIA', 'IOSFODNN7EXAMPLE'].join(''),
  ['ASIA', 'Q2W3E4R5T6Y7U8I9'].join(''),
  ['xoxb', '1234567890', 'abcdefABCDEF'].join('-'),
  ['xoxp', '0987654321', 'ZYXWVUzyxwvu'].join('-'),
  `glpat-${'xY3'.repeat(7)}`,
  `sk-proj-${'aB3_'.repeat(8)}`,
  `sk-${'Qw3'.repeat(16)}`,
  `${'sk'}_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`,
  `${'rk'}_live_${'51H8abcDEF0123456789xy'}`,
  `AIza${'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'.slice(0, 35)}`,
  `npm_${'a1B2c3D4e5F6'.repeat(3)}`,
];
const BASIC_CREDENTIAL = btoa('kim:hunter2');
const PEM_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACD3';
const pem = (kind: string): string => `-----BEGIN ${kind}-----\n${PEM_BODY}\n-----END ${kind}-----`;

/** Secret-bearing texts: the inputs of redact.test.ts and more of the same kinds. */
const SECRET_FRAGMENTS: readonly string[] = [
  `curl -H "Authorization: Bearer ${JWT}" https://api.example.com/v1`,
  `curl -H 'authorization: token ${TOKENS[1]}' https://api.github.com/user`,
  'curl -u admin:hunter2 https://intranet.example/api',
  'curl --user=admin:hunter2 -s https://intranet.example/api',
  'curl --proxy-user px:pw9 -U a:b http://h',
  'mysql -h db01 -u root -pS3cret! sales',
  "sshpass -p 'pa ss' ssh kim@10.0.0.5 uptime",
  'sshpass -phunter2 ssh kim@host',
  'sshpass -v -p "x y" scp a b',
  'deploy --password=hunter2 --verbose',
  'deploy --password hunter2 --verbose',
  'gh api --token "abc def" /user',
  'New-LocalUser -Name kim -Password hunter2',
  'PGPASSWORD=hunter2 psql -h db -U kim',
  'MYSQL_PWD=hunter2 mysqldump sales',
  `sh -c "mysql --password hunter2 -e 'select 1'"`,
  'smbclient //fs01/share -U kim%hunter2',
  'rpcclient --user=CORP/kim%pw1 fs01',
  '7z a -phunter2 backup.7z docs',
  'unrar x -pSecret9 a.rar',
  'zip -P hunter2 backup.zip docs',
  'unzip -P "a b" x.zip',
  'net user kim hunter2 /add',
  'NET USE Z: \\\\fs01\\share hunter2 /user:CORP\\kim',
  'net use \\\\fs01\\ipc$ pw7 /user:kim',
  '$pw = ConvertTo-SecureString "hunter2" -AsPlainText -Force',
  'convertto-securestring -String plain1 -AsPlainText',
  'deploy --password "hunter2',
  'https://admin:hunter2@intranet.example/wiki',
  'postgres://app:p@ss:w0rd@db:5432/sales',
  'redis://:hunter2@cache:6379/0',
  '/home/kim/mirror/https:/admin:hunter2@intranet/notes.txt',
  'https://x.example/api?access_token=aaa111&api_key=bbb222&password=ccc333&sig=ddd444&page=2#top',
  'https://maps.example/js?key=zzz999&lang=ko',
  'https://s3.example/b/o?X-Amz-Credential=AK%2F1&X-Amz-Signature=ab12cd',
  'https://g.example/o?X-Goog-Signature=ff00&x-goog-credential=k@p',
  'Server=db01;Database=sales;Uid=sa;Pwd=hunter2;',
  'Data Source=db01;User ID=sa;Password=hunter2',
  `Authorization: Basic ${BASIC_CREDENTIAL}`,
  'Proxy-Authorization: Negotiate YIIabcDEF==',
  'Authorization: hunter2-raw-key',
  'X-Api-Key: abc123xyz',
  'Cookie: SESSION=abc123; csrftoken=def456',
  'Set-Cookie: sid=abc123; Path=/; HttpOnly',
  '{"Authorization":"Bearer abc.def.ghi","Accept":"application/json"}',
  'the header was Bearer abc.def.ghi yesterday',
  `login with Basic ${BASIC_CREDENTIAL} failed`,
  `key:\n${pem('OPENSSH PRIVATE KEY')}\nend`,
  pem('RSA PRIVATE KEY'),
  pem('ENCRYPTED PRIVATE KEY'),
  `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}`,
  `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n${PEM_BODY}\n---- END SSH2 ENCRYPTED PRIVATE KEY ----`,
  'PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5\nPrivate-Lines: 2\nAAAAIHVuaXQtdGVzdC1z\nZWNyZXQtbGluZS10d28\nPrivate-MAC: 0011aabb\n',
  'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY',
  '{"user":"kim","password":"hunter 2"}',
  '-d "{\\"password\\":\\"hunter2\\"}"',
  'db:\n  password: hunter2\n  host: db01',
  "DB_PASSWORD='hunter2'\nDB_HOST=db01",
  'spring.datasource.password=hunter2',
  '비밀번호: 1234 (변경 필요)',
  '관리자 암호＝abcd!',
  '패스워드="qwer 1"',
  ...TOKENS.flatMap((token) => [token, `token ${token} in a log line`, `GH=${token}`]),
];

/** Ordinary audit text, some of it close to a secret shape (the look-alikes redact.test.ts keeps untouched, and more). */
const ORDINARY_FRAGMENTS: readonly string[] = [
  'C:\\Users\\김민수\\문서\\보고서.xlsx',
  'C:\\Users\\kim.minsu\\Documents\\재무팀\\2026년 예산\\1분기_부서별_예산_집행_보고서(최종).xlsx',
  '부서별 집행 현황',
  '예산 대비 집행률 87.5%',
  ...SECRET_LOOKALIKES,
  '회의록 10:30 ~ 11:00, 참석: 김민수, 이영희',
  'internet user guide',
  '[redacted]',
  'password=[redacted]',
  'r1-1234',
];

/** Pieces that build partial or near shapes when glued together at random. */
const PIECES: readonly string[] = [
  ...'@%-:/=_"\'\\ \t\n\r?&;,#$()*<>：＝'.split(''),
  '--', '//', '://', '\\"', '\r\n', '-p', '-P', '-U', '-u', '--user', '--proxy-user', 'net', 'use', 'user', 'curl', 'zip',
  'unzip', 'mysql', 'mariadb-dump', '7z', 'rar', 'winrar', 'sshpass', 'ConvertTo-SecureString', 'bearer', 'Bearer', 'basic',
  'BASIC', 'authorization', 'proxy-', 'cookie', 'set-cookie', 'PRIVATE KEY', '-----', '---- ', 'BEGIN ', 'END ', 'Private-Lines:',
  'pass', 'pwd', 'secret', 'token', 'auth', 'cookie', 'cred', 'key', 'pin', 'otp', 'sig', 'signature', 'x-amz-signature',
  'password', 'passwd', 'api_key', 'accessToken', 'client_secret', 'PGPASSWORD', 'eyJ', 'gh', 'ghp_', 'github_pat_', 'AKIA',
  'ABIA', 'ACCA', 'xox', 'xoxa-', 'AIza', 'glpat-', 'npm_', 'sk-', 'sk-admin-', 'k_live_', '비밀번호', '패스워드', '암호', '암호화',
  'hunter2', 'abc123', 'QUFB', BASIC_CREDENTIAL, 'A'.repeat(20), '0123456789', '김민수', '보고서', '.xlsx', 'https', 'http', 'C:',
  // Look-alikes: /x/i never matches these as ASCII letters; the pre-scan's lower-casing may.
  '\u212A', '\u017F', '\u0130', 'ｂｅａｒｅｒ', 'coo\u212Aie', 'ba\u017Fic', 'Bearer\u00a0x.y',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Flips the case of ASCII letters now and then: guards of `i` rules must not depend on case. */
function mangleCase(random: () => number, text: string): string {
  if (random() < 0.7) return text;
  let out = '';
  for (const char of text) out += random() < 0.5 ? char.toUpperCase() : char.toLowerCase();
  return out;
}

function generateTexts(count: number, seed: number): string[] {
  const random = seeded(seed);
  const texts: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const parts = 1 + Math.floor(random() * 12);
    let text = '';
    for (let p = 0; p < parts; p += 1) {
      const roll = random();
      const fragment = roll < 0.25 ? pick(random, SECRET_FRAGMENTS) : roll < 0.55 ? pick(random, ORDINARY_FRAGMENTS) : pick(random, PIECES);
      const glue = random() < 0.5 ? '' : pick(random, [' ', '\n', ' | ', '"', '=', ':', '&', ';']);
      text += glue + mangleCase(random, fragment);
    }
    // Secrets at random positions inside an otherwise ordinary text, too.
    if (random() < 0.3) {
      const secret = pick(random, SECRET_FRAGMENTS);
      const at = Math.floor(random() * (text.length + 1));
      text = text.slice(0, at) + secret + text.slice(at);
    }
    texts.push(text);
  }
  return [...texts, ...SECRET_FRAGMENTS, ...ORDINARY_FRAGMENTS, ...PIECES];
}

const TEXTS = generateTexts(6000, 20261202);

describe('redaction pre-scan: the guarded chain equals the full rule chain', () => {
  it('gives exactly the full chain output on every generated text', () => {
    const mismatches = TEXTS.filter((text) => redactSecretsInText(text) !== redactSecretsByFullRuleChain(text));
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('skips a rule only where the rule would not have changed the text', () => {
    // In redactSecretsInText a guard is asked about the text as it came in, before any rule changed it.
    for (const rule of guardedRulesForTests()) {
      const skippedButChanged = TEXTS.filter((text) => !new ScannedText(text).satisfies(rule.needs) && rule.apply(text) !== text);
      expect({ rule: rule.name, skippedButChanged: skippedButChanged.slice(0, 3) }).toEqual({ rule: rule.name, skippedButChanged: [] });
    }
  });

  it('exercises every rule: each one changes some generated texts and is skipped for others', () => {
    // Without this the tests above could pass for a rule the generator never triggers.
    for (const rule of guardedRulesForTests()) {
      const changed = TEXTS.filter((text) => rule.apply(text) !== text).length;
      const skipped = TEXTS.filter((text) => !new ScannedText(text).satisfies(rule.needs)).length;
      expect({ rule: rule.name, changedAtLeast20: changed >= 20, skippedAtLeast100: skipped >= 100 }).toEqual({
        rule: rule.name,
        changedAtLeast20: true,
        skippedAtLeast100: true,
      });
    }
  });

  it('is much cheaper than the full chain on ordinary text (CPU time, best of five)', () => {
    const ordinary = generateTexts(0, 1).filter((t) => redactSecretsByFullRuleChain(t) === t);
    const sample = Array.from({ length: 40 }, () => ordinary).flat();
    const cpu = (redact: (t: string) => string): number => {
      let best = Infinity;
      for (let run = 0; run < 5; run += 1) {
        const start = process.cpuUsage();
        for (const text of sample) redact(text);
        const used = process.cpuUsage(start);
        best = Math.min(best, used.user + used.system);
      }
      return best;
    };
    cpu(redactSecretsInText);
    // Measured about 5x cheaper on these texts; half leaves room for a busy machine.
    expect(cpu(redactSecretsInText)).toBeLessThan(cpu(redactSecretsByFullRuleChain) / 2);
  });
});

// ── the structure walker ─────────────────────────────────────────────────────────────────────

/**
 * redact.ts's walker as first written (Object.entries, a fresh Set of used keys per object, map and
 * find for the pair label), over the full rule chain: the reference for the rewritten walker.
 */
function referenceDeep(value: unknown): unknown {
  const underSecretKey = (v: unknown): unknown => (v === null || v === undefined || v === '' || typeof v === 'boolean' ? v : REDACTED);
  const isSecretLabel = (label: unknown): label is string => typeof label === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(label) && isSecretKey(label);
  const uniqueKey = (key: string, used: Set<string>): string => {
    let candidate = key;
    for (let n = 2; used.has(candidate); n += 1) candidate = `${key} (${n})`;
    used.add(candidate);
    return candidate;
  };
  const walk = (v: unknown, ancestors: Set<object>): unknown => {
    if (typeof v === 'string') return redactSecretsByFullRuleChain(v);
    if (typeof v !== 'object' || v === null) return v;
    if (v instanceof Date || v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return v;
    if (ancestors.has(v)) return '[circular]';
    ancestors.add(v);
    try {
      if (Array.isArray(v)) {
        return v.map((item: unknown) => {
          if (Array.isArray(item) && item.length === 2 && isSecretLabel(item[0])) return [item[0], underSecretKey(item[1])];
          return walk(item, ancestors);
        });
      }
      const record = v as Record<string, unknown>;
      const label = (['name', 'key', 'header'] as const).map((field) => record[field]).find((x) => typeof x === 'string');
      const secretPair = 'value' in record && isSecretLabel(label);
      const entries: [string, unknown][] = [];
      const used = new Set<string>();
      for (const [key, item] of Object.entries(record)) {
        const secret = isSecretKey(key) || (secretPair && key === 'value');
        entries.push([uniqueKey(redactSecretsByFullRuleChain(key), used), secret ? underSecretKey(item) : walk(item, ancestors)]);
      }
      return Object.fromEntries(entries);
    } finally {
      ancestors.delete(v);
    }
  };
  return walk(value, new Set());
}

const KEYS = [
  'path', 'sheet', 'value', 'name', 'key', 'header', 'password', 'token', 'apiKey', 'maxTokens', 'Authorization', 'cookies',
  'credentials', 'passwordPolicy', 'privateKeyPath', 'https://a:one1@h/', 'https://a:two2@h/', 'https://a:[redacted]@h/',
  'https://a:[redacted]@h/ (2)', 'token_report.xlsx', '비밀번호', '관리자 암호', '0', '10', '2', '',
];

function generateValue(random: () => number, depth: number): unknown {
  const roll = random();
  if (depth >= 4 || roll < 0.35) {
    const leaf = random();
    if (leaf < 0.55) return pick(random, TEXTS);
    if (leaf < 0.65) return Math.floor(random() * 1000);
    if (leaf < 0.72) return random() < 0.5;
    if (leaf < 0.8) return null;
    if (leaf < 0.85) return undefined;
    if (leaf < 0.9) return '';
    return pick(random, ['Authorization', 'X-Api-Key', 'Accept', 'password-policy.docx', 'access_token']);
  }
  if (roll < 0.55) {
    const length = Math.floor(random() * 5);
    return Array.from({ length }, () =>
      random() < 0.2 ? [pick(random, ['Authorization', 'X-Auth-Token', 'Accept', 'a.b']), generateValue(random, depth + 1)] : generateValue(random, depth + 1),
    );
  }
  const record: Record<string, unknown> = {};
  const size = Math.floor(random() * 6);
  for (let i = 0; i < size; i += 1) record[pick(random, KEYS)] = generateValue(random, depth + 1);
  if (random() < 0.1) Object.defineProperty(record, '__proto__', { value: { password: 'hunter2' }, enumerable: true, writable: true, configurable: true });
  return record;
}

/** Compares structure, types, undefined values and key order (toStrictEqual ignores order). */
function expectSameRedaction(input: unknown): void {
  const actual = redactSecretsDeep(input);
  const expected = referenceDeep(input);
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe('redactSecretsDeep equals the first walker over the full rule chain', () => {
  it('on 3000 generated nested values (keys that collide after redaction, pairs, labels, __proto__)', () => {
    const random = seeded(7);
    for (let n = 0; n < 3000; n += 1) expectSameRedaction(generateValue(random, 0));
  });

  it('on the known shapes: colliding keys, cycles, entries and records', () => {
    const cyclic: Record<string, unknown> = { password: 'hunter2', 'https://a:[redacted]@h/': 0, 'https://a:x@h/': 1 };
    cyclic['self'] = cyclic;
    cyclic['list'] = [cyclic, ['Authorization', 'Bearer x.y'], { name: 'Cookie', value: 'a=b' }];
    expectSameRedaction(cyclic);
    expectSameRedaction(JSON.parse('{"__proto__": {"password": "hunter2"}, "a": 1, "https://u:p@h": 2, "https://u:[redacted]@h": 3}'));
  });
});
