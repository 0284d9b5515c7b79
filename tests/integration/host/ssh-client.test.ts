import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SshCapability, SshDownloadOutcome, SshOutcome } from '../../../electron/common/ssh-capability';
import { createSshClient, identityFromFile, type SshClientOptions } from '../../../electron/main/host/ssh';
import type { SshHostPolicy } from '../../../electron/main/policy/types';
import { fileOf, startSshTestServer, writeClientKey, type ClientKey, type SshTestServer } from '../../helpers/ssh-test-server';

/**
 * The SSH client against a real SSH server (ssh2's Server) on 127.0.0.1: exec with exit codes,
 * merged output, caps, timeout, Stop, CP949, and SFTP downloads with their size caps.
 */

const CAPTURE_CAP = 64 * 1024;
const DOWNLOAD_CAP = 100_000;

const GROWING_CONTENT = Buffer.alloc(DOWNLOAD_CAP * 3, 'g');

let keyDir: string;
let key: ClientKey;
let server: SshTestServer;

beforeAll(async () => {
  keyDir = await mkdtemp(path.join(os.tmpdir(), 'baram-ssh-key-'));
  key = await writeClientKey(keyDir);
  server = await startSshTestServer({
    clientPublicKey: key.publicKey,
    files: {
      '/srv/report.txt': fileOf(Buffer.from('월간 보고서\nline 2\n', 'utf8')),
      '/srv/exact.bin': fileOf(Buffer.alloc(DOWNLOAD_CAP, 'e')),
      '/srv/big.bin': fileOf(Buffer.alloc(DOWNLOAD_CAP + 1, 'b')),
      // STAT says 10 bytes; READ keeps delivering: a log that grows while it is downloaded.
      '/srv/growing.log': { statSize: 10, content: GROWING_CONTENT },
      // 64 KiB at most 32 KiB per READ, each answered after 400 ms: a transfer still running at 600 ms.
      '/srv/slow.bin': { ...fileOf(Buffer.alloc(64 * 1024, 's')), readDelayMs: 400 },
      '/srv/stalls.bin': { ...fileOf(Buffer.alloc(96 * 1024, 's')), answeredReads: 1 },
    },
    folders: ['/srv'],
  });
});

afterAll(async () => {
  await server.close();
  await rm(keyDir, { recursive: true, force: true });
});

function hostPolicy(overrides: Partial<SshHostPolicy> = {}): SshHostPolicy {
  return {
    address: '127.0.0.1',
    port: server.port,
    user: 'ops',
    hostKey: server.fingerprint,
    commands: ['uptime', 'mixed', 'fail', 'flood', 'hang', 'cp949', 'utf8', 'killed', 'echo:*'],
    ...overrides,
  };
}

function client(options: Partial<SshClientOptions> = {}): SshCapability {
  return createSshClient({
    hosts: { build01: hostPolicy() },
    identityFor: async () => identityFromFile(key.keyFile),
    maxCaptureBytes: CAPTURE_CAP,
    maxDownloadBytes: DOWNLOAD_CAP,
    ...options,
  });
}

function run(command: string, timeoutMs = 10_000, signal = new AbortController().signal): Promise<SshOutcome> {
  return client().execute({ host: 'build01', command, timeoutMs, signal });
}

function expectKind<K extends SshOutcome['kind']>(outcome: SshOutcome, kind: K): Extract<SshOutcome, { kind: K }> {
  expect(outcome.kind, JSON.stringify(outcome)).toBe(kind);
  return outcome as Extract<SshOutcome, { kind: K }>;
}

/** Resolves with `promise`, or fails the test after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms))]);
}

describe('ssh.execute against a real SSH server', () => {
  it('runs a whitelisted command: exit code 0 and its output', async () => {
    const outcome = expectKind(await run('uptime'), 'exited');
    expect(outcome.exitCode).toBe(0);
    expect(outcome.exitSignal).toBeNull();
    expect(outcome.text).toBe('up 3 days, load average: 0.10\n');
    expect(outcome).toMatchObject({ truncated: false, totalBytes: 30, encoding: 'utf-8' });
  });

  it('reports a non-zero exit as a value, with stderr merged into the output', async () => {
    const outcome = expectKind(await run('fail'), 'exited');
    expect(outcome.exitCode).toBe(3);
    expect(outcome.text).toContain('partial result\n');
    expect(outcome.text).toContain('error: disk quota exceeded\n');
  });

  it('keeps stdout and stderr in the order they arrived', async () => {
    const outcome = expectKind(await run('mixed'), 'exited');
    expect(outcome.text).toBe('one\ntwo\nthree\nfour\n');
  });

  it('caps the output in memory but reads (and counts) everything', async () => {
    const outcome = expectKind(await run('flood'), 'exited');
    expect(outcome.exitCode).toBe(0);
    expect(outcome.truncated).toBe(true);
    expect(outcome.totalBytes).toBe(1024 * 1024);
    expect(outcome.text).toBe('x'.repeat(CAPTURE_CAP));
  });

  it('reports a command ended by a signal', async () => {
    const outcome = expectKind(await run('killed'), 'exited');
    expect(outcome.exitCode).toBeNull();
    expect(outcome.exitSignal).toBe('SIGKILL');
    expect(outcome.text).toBe('about to die\n');
  });

  it('passes plain arguments after a whitelisted prefix', async () => {
    const outcome = expectKind(await run('echo 보고서 2024-01.txt'), 'exited');
    expect(outcome.text).toBe('보고서 2024-01.txt\n');
  });

  it('decodes CP949 output (Korean Windows servers) and UTF-8 output', async () => {
    const cp949 = expectKind(await run('cp949'), 'exited');
    expect(cp949.text).toBe('디스크 사용량: 똠방각하 42%\n');
    expect(cp949.encoding).toBe('cp949');
    const utf8 = expectKind(await run('utf8'), 'exited');
    expect(utf8.text).toBe('디스크 사용량: 똠방각하 42%\n');
    expect(utf8.encoding).toBe('utf-8');
  });

  it('times out a command that never ends: partial output kept, KILL sent, channel and connection closed', async () => {
    const before = server.record.signals.length;
    const started = Date.now();
    const outcome = expectKind(await run('hang', 800), 'timed-out');
    const elapsed = Date.now() - started;
    expect(outcome.text).toBe('started\n');
    expect(outcome.timeoutMs).toBe(800);
    expect(elapsed).toBeGreaterThanOrEqual(790);
    // The command never ends: outcome 'timed-out' is the proof; no wall-time upper bound (loaded CI).
    // The server saw the KILL request, then its channel and the whole connection close. The
    // test server ignores signals, so the close is the client's doing.
    expect(server.record.signals.slice(before)).toEqual(['KILL']);
    await within(server.record.hangClosed, 2000, 'channel close on the server');
    await within(server.record.hangConnectionEnded, 2000, 'connection end on the server');
  });

  it('stops on abort (the user pressed Stop) with the output so far', async () => {
    const controller = new AbortController();
    const execsBefore = server.record.execs.length;
    const pending = run('hang', 10_000, controller.signal);
    // Abort once the command is running on the server and its first output has had time to arrive.
    await within(
      (async () => {
        while (server.record.execs.length === execsBefore) await new Promise((r) => setTimeout(r, 10));
      })(),
      5000,
      'exec on the server',
    );
    await new Promise((r) => setTimeout(r, 150));
    const signalsBefore = server.record.signals.length;
    controller.abort();
    const outcome = expectKind(await pending, 'cancelled');
    expect(outcome.text).toBe('started\n');
    expect(server.record.signals.slice(signalsBefore)).toEqual(['KILL']);
  });

  it('does not even connect when the signal is already aborted', async () => {
    const connections = server.record.connections;
    const controller = new AbortController();
    controller.abort();
    const outcome = expectKind(await run('uptime', 5000, controller.signal), 'cancelled');
    expect(outcome.text).toBe('');
    expect(server.record.connections).toBe(connections);
  });

  it('fails with a signpost when nothing listens at the address', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const outcome = await client({ hosts: { build01: hostPolicy({ port: closedPort }) } }).execute({
      host: 'build01',
      command: 'uptime',
      timeoutMs: 5000,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'unreachable' });
    if (outcome.kind === 'failed') expect(outcome.message.ko).toContain(`127.0.0.1:${closedPort}`);
  });
});

describe('ssh.download (SFTP) against a real SSH server', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'baram-ssh-dl-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function freshFolder(name: string): Promise<string> {
    const folder = path.join(dir, name);
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder);
    return folder;
  }

  function download(remotePath: string, localPath: string, overwrite = false): Promise<SshDownloadOutcome> {
    return client().download({ host: 'build01', remotePath, localPath, overwrite, timeoutMs: 10_000, signal: new AbortController().signal });
  }

  it('downloads a small file into place, leaving no temp file behind', async () => {
    const folder = await freshFolder('small');
    const target = path.join(folder, '보고서.txt');
    const outcome = await download('/srv/report.txt', target);
    expect(outcome).toMatchObject({ kind: 'downloaded', localPath: target, bytes: Buffer.byteLength('월간 보고서\nline 2\n') });
    expect(await readFile(target, 'utf8')).toBe('월간 보고서\nline 2\n');
    expect(await readdir(folder)).toEqual(['보고서.txt']);
  });

  it('downloads a file of exactly the cap', async () => {
    const folder = await freshFolder('exact');
    const outcome = await download('/srv/exact.bin', path.join(folder, 'exact.bin'));
    expect(outcome).toMatchObject({ kind: 'downloaded', bytes: DOWNLOAD_CAP });
  });

  it('refuses a file larger than the cap by its stat: nothing read, nothing written', async () => {
    const folder = await freshFolder('big');
    const outcome = await download('/srv/big.bin', path.join(folder, 'big.bin'));
    expect(outcome).toMatchObject({ kind: 'refused', reason: 'too-large' });
    if (outcome.kind === 'refused') expect(outcome.message.en).toContain('at most');
    expect(server.record.bytesRead.get('/srv/big.bin') ?? 0).toBe(0);
    expect(await readdir(folder)).toEqual([]);
  });

  it('aborts a file that grows beyond the cap while streaming and removes the temp file', async () => {
    const folder = await freshFolder('growing');
    const outcome = await download('/srv/growing.log', path.join(folder, 'growing.log'));
    expect(outcome).toMatchObject({ kind: 'refused', reason: 'too-large' });
    // Never more than cap + 1 bytes were requested, although the server had three times that.
    const served = server.record.bytesRead.get('/srv/growing.log') ?? 0;
    expect(served).toBeGreaterThan(DOWNLOAD_CAP);
    expect(served).toBeLessThanOrEqual(DOWNLOAD_CAP + 1);
    expect(await readdir(folder)).toEqual([]);
  });

  it('does not overwrite an existing file unless told, and does not even connect', async () => {
    const folder = await freshFolder('exists');
    const target = path.join(folder, 'report.txt');
    await writeFile(target, 'mine');
    const connections = server.record.connections;
    const refused = await download('/srv/report.txt', target);
    expect(refused).toMatchObject({ kind: 'refused', reason: 'local-exists' });
    expect(server.record.connections).toBe(connections);
    expect(await readFile(target, 'utf8')).toBe('mine');

    const replaced = await download('/srv/report.txt', target, true);
    expect(replaced).toMatchObject({ kind: 'downloaded' });
    expect(await readFile(target, 'utf8')).toBe('월간 보고서\nline 2\n');
    expect((await readdir(folder)).sort()).toEqual(['report.txt']);
  });

  it('reports a missing remote file and refuses a remote folder', async () => {
    const folder = await freshFolder('missing');
    expect(await download('/srv/nope.txt', path.join(folder, 'a'))).toMatchObject({ kind: 'failed', reason: 'remote-not-found' });
    expect(await download('/srv', path.join(folder, 'b'))).toMatchObject({ kind: 'refused', reason: 'not-a-file' });
    expect(await readdir(folder)).toEqual([]);
  });

  it('refuses a local folder that does not exist before connecting', async () => {
    const connections = server.record.connections;
    const outcome = await download('/srv/report.txt', path.join(dir, 'no-such-folder', 'x.txt'));
    expect(outcome).toMatchObject({ kind: 'refused', reason: 'invalid-path' });
    if (outcome.kind === 'refused') expect(outcome.message.ko).toContain('filesystem.mkdir');
    expect(server.record.connections).toBe(connections);
  });

  it('times out mid-transfer and removes the partly written temp file', async () => {
    const folder = await freshFolder('timeout');
    // The server answers the first read and then stalls: whenever the deadline falls, it falls
    // mid-transfer (the deadline only has to outlast the handshake on a loaded machine).
    const outcome = await client().download({
      host: 'build01',
      remotePath: '/srv/stalls.bin',
      localPath: path.join(folder, 'stalls.bin'),
      timeoutMs: 8_000,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ kind: 'timed-out', timeoutMs: 8_000 });
    // Part of the file had arrived (and been written to the temp file) when the deadline passed.
    const served = server.record.bytesRead.get('/srv/stalls.bin') ?? 0;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThan(96 * 1024);
    expect(await readdir(folder)).toEqual([]);
  });

  it('stops a transfer on abort and removes the temp file', async () => {
    const folder = await freshFolder('abort');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const outcome = await client().download({
      host: 'build01',
      remotePath: '/srv/slow.bin',
      localPath: path.join(folder, 'slow.bin'),
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    expect(outcome).toMatchObject({ kind: 'cancelled' });
    expect(await readdir(folder)).toEqual([]);
  });
});
