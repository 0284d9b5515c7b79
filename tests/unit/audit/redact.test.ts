import { describe, expect, it } from 'vitest';
import { isSecretKey, redactSecretsDeep, redactSecretsInText } from '../../../electron/main/audit/redact';
import { SECRET_LOOKALIKES } from './secret-lookalikes';

/*
 * Token-shaped test values are assembled at run time, so that secret scanners reading this file
 * (and the repository host's push protection) do not mistake them for leaked credentials.
 */
const JWT = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiJraW0ifQ', 'c2lnbmF0dXJlLXNpZw'].join('.');
const GITHUB = `ghp_${'Ab1Cd2Ef3'.repeat(4)}`;
const GITHUB_FINE = `github_pat_${'11AbCdEf0'.repeat(6)}`;
const AWS_ID = ['AKIA', 'IOSFODNN7EXAMPLE'].join('');
const SLACK = ['xoxb', '1234567890', 'abcdefABCDEF'].join('-');
const GITLAB = `glpat-${'xY3'.repeat(7)}`;
const OPENAI = `sk-proj-${'aB3_'.repeat(8)}`;
const BASIC_CREDENTIAL = btoa('kim:hunter2');
const PEM_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACD3';

function pem(kind: string): string {
  return `-----BEGIN ${kind}-----\n${PEM_BODY}\n-----END ${kind}-----`;
}

/** [input, expected output, the secret that must be gone] */
type Case = readonly [input: string, expected: string, secret: string];

const commandLines: Case[] = [
  [`curl -H "Authorization: Bearer ${JWT}" https://api.example.com/v1`, 'curl -H "Authorization: Bearer [redacted]" https://api.example.com/v1', JWT],
  [`curl -H 'authorization: token ${GITHUB}' https://api.github.com/user`, "curl -H 'authorization: token [redacted]' https://api.github.com/user", GITHUB],
  ['curl -u admin:hunter2 https://intranet.example/api', 'curl -u admin:[redacted] https://intranet.example/api', 'hunter2'],
  ['curl --user=admin:hunter2 -s https://intranet.example/api', 'curl --user=admin:[redacted] -s https://intranet.example/api', 'hunter2'],
  ['mysql -h db01 -u root -pS3cret! sales', 'mysql -h db01 -u root -p[redacted] sales', 'S3cret!'],
  ["sshpass -p 'pa ss' ssh kim@10.0.0.5 uptime", "sshpass -p '[redacted]' ssh kim@10.0.0.5 uptime", 'pa ss'],
  ['sshpass -phunter2 ssh kim@host', 'sshpass -p[redacted] ssh kim@host', 'hunter2'],
  ['deploy --password=hunter2 --verbose', 'deploy --password=[redacted] --verbose', 'hunter2'],
  ['deploy --password hunter2 --verbose', 'deploy --password [redacted] --verbose', 'hunter2'],
  ['gh api --token "abc def" /user', 'gh api --token "[redacted]" /user', 'abc def'],
  ['New-LocalUser -Name kim -Password hunter2', 'New-LocalUser -Name kim -Password [redacted]', 'hunter2'],
  ['PGPASSWORD=hunter2 psql -h db -U kim', 'PGPASSWORD=[redacted] psql -h db -U kim', 'hunter2'],
  ['MYSQL_PWD=hunter2 mysqldump sales', 'MYSQL_PWD=[redacted] mysqldump sales', 'hunter2'],
  // A harmless flag's value must not hide a secret flag inside it.
  [`sh -c "mysql --password hunter2 -e 'select 1'"`, `sh -c "mysql --password [redacted] -e 'select 1'"`, 'hunter2'],
  ['smbclient //fs01/share -U kim%hunter2', 'smbclient //fs01/share -U kim%[redacted]', 'hunter2'],
  ['7z a -phunter2 backup.7z docs', '7z a -p[redacted] backup.7z docs', 'hunter2'],
  ['zip -P hunter2 backup.zip docs', 'zip -P [redacted] backup.zip docs', 'hunter2'],
  ['net user kim hunter2 /add', 'net user kim [redacted] /add', 'hunter2'],
  ['net use Z: \\\\fs01\\share hunter2 /user:CORP\\kim', 'net use Z: \\\\fs01\\share [redacted] /user:CORP\\kim', 'hunter2'],
  ['$pw = ConvertTo-SecureString "hunter2" -AsPlainText -Force', '$pw = ConvertTo-SecureString "[redacted]" -AsPlainText -Force', 'hunter2'],
  // Truncated: the closing quote is missing, the secret is still hidden.
  ['deploy --password "hunter2', 'deploy --password "[redacted]', 'hunter2'],
];

const urls: Case[] = [
  ['https://admin:hunter2@intranet.example/wiki', 'https://admin:[redacted]@intranet.example/wiki', 'hunter2'],
  ['postgres://app:p@ss:w0rd@db:5432/sales', 'postgres://app:[redacted]@db:5432/sales', 'p@ss:w0rd'],
  ['redis://:hunter2@cache:6379/0', 'redis://:[redacted]@cache:6379/0', 'hunter2'],
  // A path normaliser turns `//` into `/`; the resolved path still must not show the password.
  ['/home/kim/mirror/https:/admin:hunter2@intranet/notes.txt', '/home/kim/mirror/https:/admin:[redacted]@intranet/notes.txt', 'hunter2'],
  [
    'https://x.example/api?access_token=aaa111&api_key=bbb222&password=ccc333&sig=ddd444&page=2#top',
    'https://x.example/api?access_token=[redacted]&api_key=[redacted]&password=[redacted]&sig=[redacted]&page=2#top',
    'ccc333',
  ],
  ['https://maps.example/js?key=zzz999&lang=ko', 'https://maps.example/js?key=[redacted]&lang=ko', 'zzz999'],
  ['https://s3.example/b/o?X-Amz-Credential=AK%2F1&X-Amz-Signature=ab12cd', 'https://s3.example/b/o?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]', 'ab12cd'],
  ['Server=db01;Database=sales;Uid=sa;Pwd=hunter2;', 'Server=db01;Database=sales;Uid=sa;Pwd=[redacted];', 'hunter2'],
  ['Data Source=db01;User ID=sa;Password=hunter2', 'Data Source=db01;User ID=sa;Password=[redacted]', 'hunter2'],
];

const headers: Case[] = [
  [`Authorization: Basic ${BASIC_CREDENTIAL}`, 'Authorization: Basic [redacted]', BASIC_CREDENTIAL],
  ['Proxy-Authorization: Negotiate YIIabcDEF==', 'Proxy-Authorization: Negotiate [redacted]', 'YIIabcDEF'],
  ['Authorization: hunter2-raw-key', 'Authorization: [redacted]', 'hunter2-raw-key'],
  ['X-Api-Key: abc123xyz', 'X-Api-Key: [redacted]', 'abc123xyz'],
  ['Cookie: SESSION=abc123; csrftoken=def456', 'Cookie: [redacted]', 'def456'],
  ['Set-Cookie: sid=abc123; Path=/; HttpOnly', 'Set-Cookie: [redacted]', 'abc123'],
  ['{"Authorization":"Bearer abc.def.ghi","Accept":"application/json"}', '{"Authorization":"Bearer [redacted]","Accept":"application/json"}', 'abc.def.ghi'],
  ['the header was Bearer abc.def.ghi yesterday', 'the header was Bearer [redacted] yesterday', 'abc.def.ghi'],
  [`login with Basic ${BASIC_CREDENTIAL} failed`, 'login with Basic [redacted] failed', BASIC_CREDENTIAL],
];

const keysAndTokens: Case[] = [
  [`key:\n${pem('OPENSSH PRIVATE KEY')}\nend`, 'key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n[redacted]\n-----END OPENSSH PRIVATE KEY-----\nend', PEM_BODY],
  [pem('RSA PRIVATE KEY'), '-----BEGIN RSA PRIVATE KEY-----\n[redacted]\n-----END RSA PRIVATE KEY-----', PEM_BODY],
  [pem('EC PRIVATE KEY'), '-----BEGIN EC PRIVATE KEY-----\n[redacted]\n-----END EC PRIVATE KEY-----', PEM_BODY],
  [pem('PRIVATE KEY'), '-----BEGIN PRIVATE KEY-----\n[redacted]\n-----END PRIVATE KEY-----', PEM_BODY],
  [pem('ENCRYPTED PRIVATE KEY'), '-----BEGIN ENCRYPTED PRIVATE KEY-----\n[redacted]\n-----END ENCRYPTED PRIVATE KEY-----', PEM_BODY],
  // Without its END line (truncated): redacted to the end.
  [`-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}`, '-----BEGIN RSA PRIVATE KEY-----\n[redacted]\n', PEM_BODY],
  [
    'PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5\nPrivate-Lines: 2\nAAAAIHVuaXQtdGVzdC1z\nZWNyZXQtbGluZS10d28\nPrivate-MAC: 0011aabb\n',
    'PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5\nPrivate-Lines: 2\n[redacted]\nPrivate-MAC: 0011aabb\n',
    'ZWNyZXQtbGluZS10d28',
  ],
  [`token ${JWT} in a log line`, 'token [redacted] in a log line', JWT],
  [`git remote set-url origin https://${GITHUB}@github.com/o/r`, 'git remote set-url origin https://[redacted]@github.com/o/r', GITHUB],
  [`GH=${GITHUB_FINE}`, 'GH=[redacted]', GITHUB_FINE],
  [`aws configure set aws_access_key_id ${AWS_ID}`, 'aws configure set aws_access_key_id [redacted]', AWS_ID],
  ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY', 'aws_secret_access_key = [redacted]', 'wJalrXUtnFEMI'],
  [`SLACK=${SLACK}`, 'SLACK=[redacted]', SLACK],
  [`glab auth login ${GITLAB}`, 'glab auth login [redacted]', GITLAB],
  [`client = OpenAI("${OPENAI}")`, 'client = OpenAI("[redacted]")', OPENAI],
];

const configText: Case[] = [
  ['{"user":"kim","password":"hunter 2"}', '{"user":"kim","password":"[redacted]"}', 'hunter 2'],
  ['-d "{\\"password\\":\\"hunter2\\"}"', '-d "{\\"password\\":\\"[redacted]\\"}"', 'hunter2'],
  ['db:\n  password: hunter2\n  host: db01', 'db:\n  password: [redacted]\n  host: db01', 'hunter2'],
  ["DB_PASSWORD='hunter2'\nDB_HOST=db01", "DB_PASSWORD='[redacted]'\nDB_HOST=db01", 'hunter2'],
  ['spring.datasource.password=hunter2', 'spring.datasource.password=[redacted]', 'hunter2'],
  ['비밀번호: 1234 (변경 필요)', '비밀번호: [redacted] (변경 필요)', '1234'],
  ['관리자 암호＝abcd!', '관리자 암호＝[redacted]', 'abcd!'],
];

/** Audit-relevant text that looks a little like a secret and must stay exactly as it is. */
const untouched: readonly string[] = [
  'C:\\Users\\김민수\\token_report.xlsx',
  ...SECRET_LOOKALIKES,
];

const allCases: readonly (readonly [string, Case[]])[] = [
  ['command lines', commandLines],
  ['URLs and connection strings', urls],
  ['HTTP headers', headers],
  ['private keys and token shapes', keysAndTokens],
  ['configuration text', configText],
];

describe('redactSecretsInText', () => {
  for (const [group, cases] of allCases) {
    describe(group, () => {
      it.each(cases.map((c) => ({ title: JSON.stringify(c[0]).slice(0, 110), c })))('$title', ({ c: [input, expected, secret] }) => {
        const out = redactSecretsInText(input);
        expect(out).toBe(expected);
        expect(out).not.toContain(secret);
      });
    });
  }

  it.each(untouched.map((text) => ({ title: JSON.stringify(text).slice(0, 110), text })))('leaves audit information alone: $title', ({ text }) => {
    expect(redactSecretsInText(text)).toBe(text);
  });

  it('is idempotent: the ledger redacts again what the gate redacted', () => {
    for (const [, cases] of allCases) {
      for (const [input] of cases) {
        const once = redactSecretsInText(input);
        expect(redactSecretsInText(once)).toBe(once);
      }
    }
  });

  it('redacts every secret of a text that holds many', () => {
    const text = [
      `curl -H "Authorization: Bearer ${JWT}" -u admin:pw1secret https://u:pw2secret@h/x?token=pw3secret`,
      `PGPASSWORD=pw4secret psql; mysql -ppw5secret; ${pem('OPENSSH PRIVATE KEY')}`,
    ].join('\n');
    const out = redactSecretsInText(text);
    for (const secret of [JWT, 'pw1secret', 'pw2secret', 'pw3secret', 'pw4secret', 'pw5secret', PEM_BODY]) expect(out).not.toContain(secret);
    expect(out).toContain('https://u:[redacted]@h/x?token=[redacted]');
  });
});

describe('isSecretKey', () => {
  it.each([
    'password', 'Password', 'PASSWORD', 'passwd', 'passphrase', 'pass', 'db_password', 'dbPassword', 'PGPASSWORD', 'password2',
    'token', 'accessToken', 'access_token', 'refresh-token', 'X-Auth-Token', 'xsrftoken', 'OAuthToken', 'secret', 'client_secret',
    'AWSSecretAccessKey', 'aws_secret_access_key', 'apiKey', 'api_key', 'X-Api-Key', 'apikey', 'privateKey', 'private_key_pem',
    'Authorization', 'proxy-authorization', 'auth', 'cookie', 'Set-Cookie', 'cookies', 'credentials', 'pin', 'otp', 'passcode',
    'spring.datasource.password', '비밀번호', '관리자패스워드', '개인키',
  ])('%s is a secret name', (name) => {
    expect(isSecretKey(name)).toBe(true);
  });

  it.each([
    'maxTokens', 'max_tokens', 'tokenCount', 'prompt_tokens', 'totalTokens', 'tokenizer', 'passwordPolicy', 'password-file',
    'passwordRequired', 'privateKeyPath', 'tokenExpiresAt', 'tokenType', 'ask-pass', 'no-password', 'password-stdin',
    'passThrough', 'bypass', 'spinner', 'key', 'keyboard', 'sessionId', 'argsSha256', 'outputSha256', 'digest', 'approver',
    'path', 'content', 'token_report.xlsx', 'authMethod', 'author', '암호화방식',
  ])('%s is not a secret name', (name) => {
    expect(isSecretKey(name)).toBe(false);
  });
});

describe('redactSecretsDeep', () => {
  it('replaces values under secret keys and keeps counts, paths and flags', () => {
    const input = {
      path: 'C:\\Users\\김민수\\token_report.xlsx',
      password: 'hunter2',
      pin: 123456,
      apiKey: null,
      passwordRequired: true,
      maxTokens: 512,
      tokenCount: 3,
      privateKeyPath: '~/.ssh/id_ed25519',
      credentials: { user: 'kim', password: 'hunter2' },
      cookies: [{ name: 'sid', value: 'abc123' }],
    };
    expect(redactSecretsDeep(input)).toEqual({
      path: 'C:\\Users\\김민수\\token_report.xlsx',
      password: '[redacted]',
      pin: '[redacted]',
      apiKey: null,
      passwordRequired: true,
      maxTokens: 512,
      tokenCount: 3,
      privateKeyPath: '~/.ssh/id_ed25519',
      credentials: '[redacted]',
      cookies: '[redacted]',
    });
  });

  it('redacts header objects, header lines, name/value records and entry pairs', () => {
    const input = {
      headers: { Authorization: `Bearer ${JWT}`, Accept: 'application/json', 'X-Api-Key': 'k1secret' },
      headerLines: [`Authorization: Bearer ${JWT}`, 'Accept: text/html'],
      har: [{ name: 'Authorization', value: 'Basic k2secret' }, { name: 'Accept', value: 'text/html' }],
      params: [{ key: 'access_token', value: 'k3secret' }],
      entries: [['X-Auth-Token', 'k4secret'], ['Accept', 'text/html']],
      files: [{ name: 'password-policy.docx', value: 3 }],
    };
    const out = redactSecretsDeep(input);
    expect(out).toEqual({
      headers: { Authorization: '[redacted]', Accept: 'application/json', 'X-Api-Key': '[redacted]' },
      headerLines: ['Authorization: Bearer [redacted]', 'Accept: text/html'],
      har: [{ name: 'Authorization', value: '[redacted]' }, { name: 'Accept', value: 'text/html' }],
      params: [{ key: 'access_token', value: '[redacted]' }],
      entries: [['X-Auth-Token', '[redacted]'], ['Accept', 'text/html']],
      files: [{ name: 'password-policy.docx', value: 3 }],
    });
    expect(JSON.stringify(out)).not.toMatch(/secret|eyJ/);
  });

  it('redacts inside every string at any depth, keys included, without losing colliding keys', () => {
    const out = redactSecretsDeep({
      command: 'mysql -u root -phunter2 sales',
      nested: [{ deeper: { url: 'https://admin:hunter2@intranet.example/' } }],
      byUrl: { 'https://a:one1@h/': 1, 'https://a:two2@h/': 2 },
    });
    expect(out).toEqual({
      command: 'mysql -u root -p[redacted] sales',
      nested: [{ deeper: { url: 'https://admin:[redacted]@intranet.example/' } }],
      byUrl: { 'https://a:[redacted]@h/': 1, 'https://a:[redacted]@h/ (2)': 2 },
    });
  });

  it('never mutates its input', () => {
    const input = {
      password: 'hunter2',
      list: ['Authorization: Bearer abc.def.ghi', { token: 'x1' }],
      headers: [['Authorization', 'Bearer abc.def.ghi']],
    };
    const before = structuredClone(input);
    const frozen = deepFreeze(input);
    const out = redactSecretsDeep(frozen) as typeof input;
    expect(input).toEqual(before);
    expect(out).not.toBe(input);
    expect(out.list).not.toBe(input.list);
    expect(out.headers[0]).not.toBe(input.headers[0]);
  });

  it('keeps a "__proto__" key from JSON as data and survives cycles', () => {
    const parsed = JSON.parse('{"__proto__": {"password": "hunter2"}, "a": 1}') as Record<string, unknown>;
    const out = redactSecretsDeep(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"password":"[redacted]"},"a":1}');

    const cyclic: Record<string, unknown> = { password: 'hunter2' };
    cyclic['self'] = cyclic;
    expect(redactSecretsDeep(cyclic)).toEqual({ password: '[redacted]', self: '[circular]' });
  });

  it('is idempotent on structures', () => {
    const input = { password: 'x', headers: { Cookie: 'a=b' }, cmd: 'curl -u a:b https://h', n: 1, list: [['Authorization', 'k']] };
    const once = redactSecretsDeep(input);
    expect(redactSecretsDeep(once)).toEqual(once);
  });
});

describe('performance (linear time: a hostile 1 MB argument cannot stall the gate)', () => {
  const MB = 1 << 20;
  const fill = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  const inputs: Record<string, string> = {
    'Korean office prose': fill('보고서 C:\\Users\\김민수\\token_report.xlsx 를 열어 password-policy.docx 확인. 10:30 회의. '),
    'a script full of secrets': fill(`curl -H "Authorization: Bearer ${JWT}" -u a:b https://u:p@h/?token=x&sig=y PGPASSWORD=z mysql -pq ${pem('RSA PRIVATE KEY')}\n`),
    'one long word': fill('a'),
    'dashes': fill('-'),
    'JWT prefixes': fill('eyJ-'),
    'URL schemes': fill('http://u:'),
    'separators': fill('a:'),
    'secret assignments': fill('"password": "'),
    'secret flags': fill('--password '),
    'bearer words': fill('Bearer '),
    'base64 after Basic': fill('Basic QUFB'),
    'PEM BEGIN lines without END': fill('-----BEGIN PRIVATE KEY-----'),
    'net user': fill('net user '),
    'upper-case run': fill('A'),
  };

  it.each(Object.keys(inputs))('%s: 1 MB in well under 100 ms of CPU', (name) => {
    const text = inputs[name]!;
    // CPU time, not wall time: the test machines run other suites in parallel. Best of three.
    let best = Infinity;
    for (let run = 0; run < 3; run += 1) {
      const start = process.cpuUsage();
      redactSecretsInText(text);
      const used = process.cpuUsage(start);
      best = Math.min(best, (used.user + used.system) / 1000);
    }
    expect(best).toBeLessThan(100);
  });
});

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
