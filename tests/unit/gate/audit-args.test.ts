import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../electron/common/canonical-json';
import { redactSecretsDeep } from '../../../electron/main/audit';
import { auditArguments } from '../../../electron/main/gate/audit-args';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('auditArguments: argsSha256 proves what was sent without revealing secrets', () => {
  const base = { host: 'db01.corp.example', user: 'kim', password: '123456', query: 'select count(*) from sales' };

  it('differs when a non-secret field differs', () => {
    expect(auditArguments(base).argsSha256).not.toBe(auditArguments({ ...base, query: 'select count(*) from staff' }).argsSha256);
    expect(auditArguments(base).argsSha256).not.toBe(auditArguments({ ...base, user: 'lee' }).argsSha256);
  });

  it('is equal when only the secret differs: it carries no information about the secret', () => {
    // Were it computed over the full arguments, a reader of the ledger (which holds every other
    // field in clear) could test all 10^6 six-digit PINs in seconds.
    expect(auditArguments(base).argsSha256).toBe(auditArguments({ ...base, password: '654321' }).argsSha256);
    // Secrets inside values too: a command line, a URL, a header.
    const run = (pw: string) => ({
      command: `mysql -h db01 -u root -p${pw} sales`,
      url: `https://admin:${pw}@intranet.example/api?access_token=${pw}`,
      headers: [`Authorization: Bearer ${pw}.${pw}.${pw}`],
    });
    expect(auditArguments(run('hunter2')).argsSha256).toBe(auditArguments(run('letmein')).argsSha256);
  });

  it('is the SHA-256 of the canonical redacted arguments, long strings kept whole', () => {
    const content = `password=hunter2\n${'본문 '.repeat(400)}`;
    const args = { path: 'reports/q3.txt', content, password: 'hunter2' };
    const { args: recorded, argsSha256 } = auditArguments(args);
    expect(argsSha256).toBe(sha256(canonicalJson(redactSecretsDeep(args))));
    // The record summarises the long content, yet the digest still covers every byte of it.
    expect((recorded as { content: string }).content).toMatch(/^\[\d+ chars, sha256 [0-9a-f]{16}…\]$/);
    const changedTail = { ...args, content: `${content}.` };
    expect(auditArguments(changedTail).argsSha256).not.toBe(argsSha256);
  });

  it('leaves no secret anywhere in the result', () => {
    const jwt = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiJraW0ifQ', 'c2lnbmF0dXJlLXNpZw'].join('.');
    const pemBody = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU';
    const secrets = ['hunter2', 'S3cretPw', 'tok_9f8e7d', 'pin-4321', jwt, pemBody, 'apikey-77aa', 'cookie-v4lue'];
    const args = {
      path: 'C:\\Users\\김민수\\token_report.xlsx',
      password: 'hunter2',
      maxTokens: 512,
      command: `curl -H "Authorization: Bearer ${jwt}" -u admin:S3cretPw "https://x.example/a?token=tok_9f8e7d"`,
      env: { PIN: 'pin-4321', API_KEY: 'apikey-77aa' },
      headers: { Cookie: 'sid=cookie-v4lue' },
      // Long: summarised, and the summary's digest is over the redacted text.
      content: `-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody}\n-----END OPENSSH PRIVATE KEY-----\n${'x'.repeat(600)}`,
    };
    const result = auditArguments(args);
    const json = JSON.stringify(result);
    for (const secret of secrets) expect(json).not.toContain(secret);
    expect(result.args).toMatchObject({ path: 'C:\\Users\\김민수\\token_report.xlsx', maxTokens: 512, password: '[redacted]' });
    expect((result.args as { command: string }).command).toBe(
      'curl -H "Authorization: Bearer [redacted]" -u admin:[redacted] "https://x.example/a?token=[redacted]"',
    );
  });

  it('redacts arguments that are not an object', () => {
    const result = auditArguments('mysql -u root -phunter2');
    expect(result.args).toBe('mysql -u root -p[redacted]');
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(auditArguments(undefined).argsSha256).toBe(sha256('null'));
  });
});
