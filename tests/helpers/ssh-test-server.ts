import { createHash, timingSafeEqual } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import iconv from 'iconv-lite';
import ssh2, { type Connection, type ServerChannel } from 'ssh2';

/**
 * A real SSH server on 127.0.0.1 (ssh2's Server class) for the SSH client tests. It accepts only
 * the given client public key, runs a fixed set of pretend commands over exec, serves a small
 * in-memory file set over SFTP, and records everything the client asked for, so tests can assert
 * what did NOT happen (no authentication attempt, no exec, no forwarding request).
 */

export interface ServedFile {
  /** Size STAT and FSTAT report. */
  readonly statSize: number;
  /** Bytes READ actually returns (more than statSize simulates a file that grows while read). */
  readonly content: Buffer;
  /** Each READ is answered after this long (a slow link), so a transfer can be stopped midway. */
  readonly readDelayMs?: number;
  /** Answer only this many READs (at once), then never again: a link that stalls mid-transfer. */
  readonly answeredReads?: number;
}

export interface ServerRecord {
  connections: number;
  /** Calls of the 'authentication' handler (any method). */
  authAttempts: number;
  /** The method of each attempt ('publickey', 'none', 'password', …). */
  authMethods: string[];
  sessions: number;
  execs: string[];
  /** Session channel requests other than exec/subsystem: pty, x11, auth-agent, env, shell. */
  sessionRequests: string[];
  /** Global requests (tcpip-forward, streamlocal-forward, …) and direct-tcpip/streamlocal channel opens. */
  forwardingRequests: string[];
  signals: string[];
  /** Bytes served by READ per path. */
  bytesRead: Map<string, number>;
  /** Every 'Inbound: …' line of ssh2's server debug log (message types the client sent). */
  inbound: string[];
  /** Resolves when the channel of the `hang` command has closed on the server side. */
  hangClosed: Promise<void>;
  /** Resolves when a connection that ran `hang` has ended. */
  hangConnectionEnded: Promise<void>;
  /** Answers of the client to channels the server tried to open towards it (`probe-forwarding`). */
  reverseChannelResults: string[];
}

export interface SshTestServer {
  readonly port: number;
  /** OpenSSH-style fingerprint of the host key this server presents. */
  readonly fingerprint: string;
  readonly record: ServerRecord;
  close(): Promise<void>;
}

export interface SshTestServerOptions {
  /** OpenSSH public key line of the only client key accepted. */
  readonly clientPublicKey: string;
  readonly files?: Readonly<Record<string, ServedFile>>;
  /** Folders (STAT says directory). */
  readonly folders?: readonly string[];
}

export function fileOf(content: Buffer): ServedFile {
  return { statSize: content.length, content };
}

/**
 * An ed25519 key pair from ssh2's generator, regenerated until ssh2 can read it back. ssh2 1.17's
 * keygen strips leading zero bytes off the 32-byte public key, so about 1 pair in 256 comes out
 * unreadable ("Malformed OpenSSH private key"; mscdex/ssh2 issues #1390, #1513): a test using the
 * raw generator would fail at random. Keys made by ssh-keygen are not affected.
 */
export function generateEd25519(options?: { readonly passphrase: string; readonly cipher: string; readonly rounds: number }): { private: string; public: string } {
  for (;;) {
    const pair = options === undefined ? ssh2.utils.generateKeyPairSync('ed25519') : ssh2.utils.generateKeyPairSync('ed25519', options);
    const publicKey = ssh2.utils.parseKey(pair.public);
    const privateKey = ssh2.utils.parseKey(pair.private, options?.passphrase);
    if (!(publicKey instanceof Error) && !(privateKey instanceof Error)) return pair;
  }
}

/** Fingerprint computed here independently of the code under test (same OpenSSH definition). */
export function fingerprintOfPublicKey(openSshPublicKey: string): string {
  const parsed = ssh2.utils.parseKey(openSshPublicKey);
  if (parsed instanceof Error || Array.isArray(parsed)) throw new Error('bad public key');
  return `SHA256:${createHash('sha256').update(parsed.getPublicSSH()).digest('base64').replace(/=+$/, '')}`;
}

const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

export async function startSshTestServer(options: SshTestServerOptions): Promise<SshTestServer> {
  const hostKeys = generateEd25519();
  const allowed = ssh2.utils.parseKey(options.clientPublicKey);
  if (allowed instanceof Error || Array.isArray(allowed)) throw new Error('bad client public key');
  const files = options.files ?? {};
  const folders = new Set(options.folders ?? []);

  let hangClosed!: () => void;
  let hangConnectionEnded!: () => void;
  const record: ServerRecord = {
    connections: 0,
    authAttempts: 0,
    authMethods: [],
    sessions: 0,
    execs: [],
    sessionRequests: [],
    forwardingRequests: [],
    signals: [],
    bytesRead: new Map(),
    inbound: [],
    hangClosed: new Promise((resolve) => (hangClosed = resolve)),
    hangConnectionEnded: new Promise((resolve) => (hangConnectionEnded = resolve)),
    reverseChannelResults: [],
  };

  const live = new Set<Connection>();
  const server = new ssh2.Server(
    {
      hostKeys: [hostKeys.private],
      debug: (line: string) => {
        if (line.includes('Inbound:')) record.inbound.push(line);
      },
    },
    (client: Connection) => {
      record.connections++;
      live.add(client);
      let ranHang = false;
      client.on('error', () => undefined);
      client.on('close', () => {
        live.delete(client);
        if (ranHang) hangConnectionEnded();
      });
      client.on('authentication', (ctx) => {
        record.authAttempts++;
        record.authMethods.push(ctx.method);
        if (
          ctx.method === 'publickey' &&
          ctx.key.algo === allowed.type &&
          ctx.key.data.length === allowed.getPublicSSH().length &&
          timingSafeEqual(ctx.key.data, allowed.getPublicSSH())
        ) {
          if (ctx.signature === undefined || ctx.blob === undefined) return ctx.accept();
          if (allowed.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true) return ctx.accept();
        }
        ctx.reject(['publickey']);
      });
      client.on('request', (_accept, reject, name) => {
        record.forwardingRequests.push(name);
        reject?.();
      });
      client.on('tcpip', (_accept, reject) => {
        record.forwardingRequests.push('direct-tcpip');
        reject();
      });
      client.on('openssh.streamlocal', (_accept, reject) => {
        record.forwardingRequests.push('direct-streamlocal');
        reject();
      });
      client.on('ready', () => {
        client.on('session', (acceptSession) => {
          record.sessions++;
          const session = acceptSession();
          for (const request of ['pty', 'x11', 'auth-agent', 'env', 'shell'] as const) {
            session.on(request, (_accept: unknown, reject?: () => void) => {
              record.sessionRequests.push(request);
              reject?.();
            });
          }
          session.on('signal', (accept, _reject, info) => {
            record.signals.push(info.name);
            // Ignore the signal, like a server without signal support: the client must still
            // close the channel and the connection itself.
            accept?.();
          });
          session.on('exec', (accept, _reject, info) => {
            record.execs.push(info.command);
            const stream = accept();
            // Drain stdin as sshd does; ssh2 emits a channel's 'close' only after its input ended.
            stream.resume();
            if (info.command === 'hang') {
              ranHang = true;
              stream.on('close', () => hangClosed());
            }
            void runPretendCommand(info.command, stream, client, record);
          });
          session.on('sftp', (accept) => serveSftp(accept(), files, folders, record));
        });
      });
    },
  );

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    fingerprint: fingerprintOfPublicKey(hostKeys.public),
    record,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A connection a failing test left open must not keep the server (and vitest) alive.
        for (const connection of live) connection.end();
      }),
  };
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function runPretendCommand(command: string, stream: ServerChannel, client: Connection, record: ServerRecord): Promise<void> {
  const [program, ...args] = command.split(' ');
  switch (program) {
    case 'uptime':
      stream.write('up 3 days, load average: 0.10\n');
      return finish(stream, 0);
    case 'mixed':
      // Interleaved stdout and stderr, each piece sent only after the previous one left.
      for (const [channel, piece] of [['out', 'one\n'], ['err', 'two\n'], ['out', 'three\n'], ['err', 'four\n']] as const) {
        (channel === 'out' ? stream : stream.stderr).write(piece);
        await delay(20);
      }
      return finish(stream, 0);
    case 'fail':
      stream.write('partial result\n');
      stream.stderr.write('error: disk quota exceeded\n');
      return finish(stream, 3);
    case 'flood': {
      // 1 MiB in 16 KiB pieces, then exit 0.
      const piece = Buffer.alloc(16 * 1024, 'x');
      for (let i = 0; i < 64; i++) {
        if (!stream.write(piece)) await new Promise((resolve) => stream.once('drain', resolve));
      }
      return finish(stream, 0);
    }
    case 'hang':
      stream.write('started\n');
      return; // never ends on its own
    case 'cp949':
      stream.write(iconv.encode('디스크 사용량: 똠방각하 42%\n', 'cp949'));
      return finish(stream, 0);
    case 'utf8':
      stream.write(Buffer.from('디스크 사용량: 똠방각하 42%\n', 'utf8'));
      return finish(stream, 0);
    case 'killed':
      stream.write('about to die\n');
      stream.exit('KILL');
      stream.end();
      return;
    case 'echo':
      stream.write(`${args.join(' ')}\n`);
      return finish(stream, 0);
    case 'probe-forwarding': {
      // The server tries to open channels towards the client, as a malicious server might to
      // reach the office network through it; every one must be rejected.
      const attempts: [string, (cb: (err: Error | undefined, channel: ServerChannel) => void) => void][] = [
        ['forwarded-tcpip', (cb) => client.forwardOut('127.0.0.1', 8080, '127.0.0.1', 40000, cb)],
        ['x11', (cb) => client.x11('127.0.0.1', 6010, cb)],
        ['forwarded-streamlocal', (cb) => client.openssh_forwardOutStreamLocal('/tmp/agent.sock', cb)],
      ];
      for (const [name, open] of attempts) {
        const result = await new Promise<string>((resolve) =>
          open((err, channel) => {
            if (err) return resolve(`${name}: rejected`);
            channel.end();
            resolve(`${name}: ACCEPTED`);
          }),
        );
        record.reverseChannelResults.push(result);
        stream.write(`${result}\n`);
      }
      return finish(stream, 0);
    }
    default:
      stream.stderr.write(`${program}: command not found\n`);
      return finish(stream, 127);
  }
}

function finish(stream: ServerChannel, code: number): void {
  stream.exit(code);
  stream.end();
}

function serveSftp(sftp: ssh2.SFTPWrapper, files: Readonly<Record<string, ServedFile>>, folders: ReadonlySet<string>, record: ServerRecord): void {
  const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;
  const handles = new Map<number, string>();
  let nextHandle = 1;
  const fileAttrs = (size: number) => ({ mode: S_IFREG | 0o644, uid: 1000, gid: 1000, size, atime: 0, mtime: 0 });
  const dirAttrs = { mode: S_IFDIR | 0o755, uid: 1000, gid: 1000, size: 4096, atime: 0, mtime: 0 };
  const pathOf = (handle: Buffer): string | undefined => (handle.length === 4 ? handles.get(handle.readUInt32BE(0)) : undefined);

  const statPath = (reqId: number, p: string): void => {
    if (folders.has(p)) return sftp.attrs(reqId, dirAttrs);
    const file = Object.hasOwn(files, p) ? files[p] : undefined;
    if (file === undefined) return sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE);
    sftp.attrs(reqId, fileAttrs(file.statSize));
  };
  sftp.on('STAT', statPath);
  sftp.on('LSTAT', statPath);
  sftp.on('OPEN', (reqId, filename, flags) => {
    if ((flags & OPEN_MODE.WRITE) !== 0) return sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED);
    if (!Object.hasOwn(files, filename)) return sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE);
    const id = nextHandle++;
    handles.set(id, filename);
    const handle = Buffer.alloc(4);
    handle.writeUInt32BE(id, 0);
    sftp.handle(reqId, handle);
  });
  sftp.on('FSTAT', (reqId, handle) => {
    const p = pathOf(handle);
    if (p === undefined) return sftp.status(reqId, STATUS_CODE.FAILURE);
    sftp.attrs(reqId, fileAttrs(files[p]!.statSize));
  });
  const readsAnswered = new Map<string, number>();
  sftp.on('READ', (reqId, handle, offset, length) => {
    const p = pathOf(handle);
    if (p === undefined) return sftp.status(reqId, STATUS_CODE.FAILURE);
    const file = files[p]!;
    const answer = (): void => {
      if (offset >= file.content.length) return sftp.status(reqId, STATUS_CODE.EOF);
      const data = file.content.subarray(offset, Math.min(file.content.length, offset + length));
      record.bytesRead.set(p, (record.bytesRead.get(p) ?? 0) + data.length);
      sftp.data(reqId, data);
    };
    if (file.answeredReads !== undefined) {
      const answered = (readsAnswered.get(p) ?? 0) + 1;
      readsAnswered.set(p, answered);
      if (answered <= file.answeredReads) answer();
      return;
    }
    if (file.readDelayMs === undefined) answer();
    else setTimeout(answer, file.readDelayMs);
  });
  sftp.on('CLOSE', (reqId, handle) => {
    const p = pathOf(handle);
    if (p !== undefined) handles.delete(handle.readUInt32BE(0));
    sftp.status(reqId, STATUS_CODE.OK);
  });
}

export interface ClientKey {
  readonly publicKey: string;
  /** Private key file, mode 0600 (identityFromFile refuses keys others can read). */
  readonly keyFile: string;
}

/** A fresh ed25519 client key written to `dir`. */
export async function writeClientKey(dir: string, name = 'id_ed25519'): Promise<ClientKey> {
  const pair = generateEd25519();
  const keyFile = path.join(dir, name);
  await writeFile(keyFile, pair.private, { mode: 0o600 });
  return { publicKey: pair.public, keyFile };
}
