import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';
import { fileOf, generateEd25519, startSshTestServer, type SshTestServer } from '../../helpers/ssh-test-server';

/** ssh.execute and ssh.download through the real gate, against a real SSH server on 127.0.0.1 (issue #4). */
const open = useTestGate();
let server: SshTestServer;
let keyDir: string;
let keyFile: string;

beforeAll(async () => {
  const client = generateEd25519();
  server = await startSshTestServer({ clientPublicKey: client.public, files: { '/srv/report.csv': fileOf(Buffer.from('부서,금액\n재무,100\n')) } });
  keyDir = mkdtempSync(join(tmpdir(), 'baram-ssh-key-'));
  keyFile = join(keyDir, 'id_ed25519');
  writeFileSync(keyFile, client.private);
  chmodSync(keyFile, 0o600);
});
afterAll(async () => {
  await server.close();
  rmSync(keyDir, { recursive: true, force: true });
});

/** Commands get a minute (a loaded CI machine is slow to hand-shake); the hang test sets 1 s. */
function policy(hostKey: string, defaultTimeoutMs = 60_000) {
  return {
    version: 1,
    ssh: { hosts: { build01: { address: '127.0.0.1', port: server.port, user: 'ops', hostKey, identityFile: keyFile, commands: ['uptime', 'fail', 'hang'] } } },
    shell: { defaultTimeoutMs },
  };
}

describe('ssh.execute', () => {
  it('runs an allowed command after approval and shows its output', async () => {
    const g = await open({ policy: policy(server.fingerprint), lang: 'en' });
    const r = await g.call('ssh.execute', { host: 'build01', command: 'uptime' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe('up 3 days, load average: 0.10\n');
    expect(g.approvals[0]?.risk).toBe('execute');
    // The approval names the server: its policy name and the address Baram connects to.
    expect(g.approvals[0]?.destination).toBe(`build01 (ops@127.0.0.1:${server.port})`);
  });

  it('a failing command is a value: output, then [exit code: N] after it', async () => {
    const g = await open({ policy: policy(server.fingerprint), lang: 'en' });
    const r = await g.call('ssh.execute', { host: 'build01', command: 'fail' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe('partial result\nerror: disk quota exceeded\n\n[exit code: 3]');
  });

  it('a command that never ends times out with the marker', async () => {
    const g = await open({ policy: policy(server.fingerprint, 1_000), lang: 'en' });
    const r = await g.call('ssh.execute', { host: 'build01', command: 'hang' });
    expect(r.outcome).toBe('timeout');
    expect(r.text).toMatch(/\[timed out after 1000 ms\]$/);
  });

  it('refuses a command off the list, and an unknown host, before approval; the server sees nothing', async () => {
    const g = await open({ policy: policy(server.fingerprint), lang: 'en' });
    const before = server.record.connections;
    expect((await g.call('ssh.execute', { host: 'build01', command: 'rm -rf /' })).outcome).toBe('refused');
    expect((await g.call('ssh.execute', { host: 'build01', command: 'uptime; reboot' })).outcome).toBe('refused');
    expect((await g.call('ssh.execute', { host: '127.0.0.1', command: 'uptime' })).outcome).toBe('refused');
    expect(g.approvals).toHaveLength(0);
    expect(server.record.connections).toBe(before);
  });

  it('refuses a server whose key changed, before logging in', async () => {
    const g = await open({ policy: policy('SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8'), lang: 'en' });
    const authBefore = server.record.authAttempts;
    const execsBefore = server.record.execs.length;
    const r = await g.call('ssh.execute', { host: 'build01', command: 'uptime' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain(server.fingerprint);
    expect(server.record.authAttempts).toBe(authBefore);
    expect(server.record.execs.length).toBe(execsBefore);
  });
});

describe('ssh.download', () => {
  it('saves a server file into the workspace after approval', async () => {
    const g = await open({ policy: policy(server.fingerprint), lang: 'en' });
    const r = await g.call('ssh.download', { host: 'build01', remotePath: '/srv/report.csv', path: 'report.csv' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe(`Downloaded 'report.csv' (${Buffer.byteLength('부서,금액\n재무,100\n')} B)`);
    expect(readFileSync(join(g.workspace, 'report.csv'), 'utf8')).toBe('부서,금액\n재무,100\n');
    expect(g.approvals[0]?.destination).toMatch(/^build01 \(ops@127\.0\.0\.1:\d+\):\/srv\/report\.csv$/);
  });

  it('refuses before approval: an existing file without overwrite, a path outside the workspace, an unknown host', async () => {
    const g = await open({ policy: policy(server.fingerprint), files: { 'report.csv': 'mine' }, lang: 'en' });
    expect((await g.call('ssh.download', { host: 'build01', remotePath: '/srv/report.csv', path: 'report.csv' })).outcome).toBe('refused');
    expect((await g.call('ssh.download', { host: 'build01', remotePath: '/srv/report.csv', path: '../stolen.csv' })).outcome).toBe('refused');
    expect((await g.call('ssh.download', { host: 'other', remotePath: '/srv/report.csv', path: 'x.csv' })).outcome).toBe('refused');
    expect(g.approvals).toHaveLength(0);
    expect(readFileSync(join(g.workspace, 'report.csv'), 'utf8')).toBe('mine');
    expect(existsSync(join(g.outside, 'stolen.csv'))).toBe(false);
  });
});
