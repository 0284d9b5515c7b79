import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactSecretsDeep } from '../../electron/main/audit';
import { auditDir } from '../../electron/main/runtime/session';
import { useTestGate } from '../helpers/gate-harness';

/**
 * SPEC §3 "arguments (secrets redacted)": a secret the model passes to a tool reaches the tool, but
 * never the audit ledger in clear. Checked on the raw bytes of every file in the audit folder while
 * the session is open (segments with their -wal files, which hold the rows not yet checkpointed into
 * the segment, and checkpoints), not on parsed rows, so a copy of the secret anywhere fails the test.
 */

const open = useTestGate();

/** Assembled at run time so that secret scanners do not flag this file. */
const JWT = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiJraW0ifQ', 'c2lnbmF0dXJlLXNpZw'].join('.');
const PEM_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQ';

async function auditFolderBytes(dataDir: string): Promise<Buffer> {
  const root = auditDir(dataDir);
  const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  expect(files.some((entry) => entry.name.endsWith('.sqlite3'))).toBe(true);
  return Buffer.concat(await Promise.all(files.map((entry) => readFile(join(entry.parentPath, entry.name)))));
}

function expectAbsent(bytes: Buffer, secrets: readonly string[]): void {
  for (const secret of secrets) {
    // Both encodings SQLite could hold text in; the ledger writes UTF-8.
    expect(bytes.includes(Buffer.from(secret, 'utf8')), `"${secret}" found in the audit folder`).toBe(false);
    expect(bytes.includes(Buffer.from(secret, 'utf16le')), `"${secret}" (UTF-16) found in the audit folder`).toBe(false);
  }
}

describe('the audit ledger never holds a secret in clear', () => {
  it('filesystem.write with a bearer token, a password and a private key in the content', async () => {
    const g = await open();
    const content = [
      'curl -H "Authorization: Bearer ' + JWT + '" https://api.example.com',
      'DB_PASSWORD=hunter2',
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      PEM_BODY,
      '-----END OPENSSH PRIVATE KEY-----',
    ].join('\n');
    const r = await g.call('filesystem.write', { path: 'notes/deploy.txt', content });
    expect(r.outcome).toBe('ok');
    // The tool got the real content: redaction is for the record only.
    expect(await readFile(join(g.workspace, 'notes', 'deploy.txt'), 'utf8')).toContain('hunter2');

    const proposed = (await g.auditEvents()).find((e) => e.type === 'tool.proposed');
    expect(proposed?.['data']).toMatchObject({ args: { path: 'notes/deploy.txt', content: expect.stringContaining('Bearer [redacted]') } });
    expectAbsent(await auditFolderBytes(g.dataDir), [JWT, 'hunter2', PEM_BODY]);
  });

  it('a path with credentials in it, recorded as target, summary and arguments', async () => {
    // Needs the ledger's own redaction of `target` and `data` (the single choke point in the
    // ledger's append): the resolved path reaches permission.decided, approval.requested and
    // execution.started as a target, which auditArguments never sees.
    const g = await open();
    const r = await g.call('filesystem.write', { path: 'mirror/https://admin:hunter2@intranet/notes.txt', content: 'hello' });
    expect(r.outcome).toBe('ok');
    const events = await g.auditEvents();
    expect(events.some((e) => JSON.stringify(e).includes('admin:[redacted]@intranet'))).toBe(true);
    expectAbsent(await auditFolderBytes(g.dataDir), ['hunter2']);
  });

  it('ordinary events pass through redaction unchanged (no audit information is lost)', async () => {
    const g = await open({ files: { 'C:/보고서/token_report.xlsx': 'x', 'password-policy.docx': 'y' } });
    await g.call('filesystem.write', { path: '회의록/2025-01-02 10:30 회의.txt', content: 'maxTokens=512, tokenCount: 3\nBasic Settings' });
    await g.call('filesystem.list', { path: '.' });
    await g.call('filesystem.read', { path: 'password-policy.docx' });
    await g.call('filesystem.nope', {});
    const events = await g.auditEvents();
    expect(events.length).toBeGreaterThan(10);
    for (const event of events) expect(redactSecretsDeep(event)).toEqual(event);
  });
});
