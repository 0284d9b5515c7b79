import { isIPv6 } from 'node:net';
import ssh2 from 'ssh2';
import type { SshFailed, SshRefused } from '../../../common/ssh-capability';
import type { SshHostPolicy } from '../../policy/types';
import type { CallLimits, StopReason } from './call-limits';
import { hostKeyFingerprint, hostKeyType, matchesPin } from './fingerprint';
import type { SshIdentity } from './identity';
import { sshText } from './messages';

/** A policy host by the name the model used. */
export interface SshTarget {
  readonly name: string;
  readonly host: SshHostPolicy;
}

export interface OpenConnection {
  readonly client: ssh2.Client;
  /** Settles when the socket is gone, however that happened (our end, the server, the network). */
  readonly closed: Promise<void>;
}

export type Connection =
  | ({ readonly ok: true } & OpenConnection)
  | { readonly ok: false; readonly stopped: StopReason }
  | { readonly ok: false; readonly outcome: SshRefused | SshFailed };

/**
 * Keepalive every 15 s, given up after 3 unanswered: a command may run for up to 10 minutes, and
 * office firewalls drop idle TCP connections well before that; a dead server is noticed within
 * about 45 s instead of at the deadline.
 */
const KEEPALIVE_INTERVAL_MS = 15_000;
const KEEPALIVE_COUNT_MAX = 3;

export function endpointOf(host: SshHostPolicy): string {
  return isIPv6(host.address) ? `[${host.address}]:${host.port}` : `${host.address}:${host.port}`;
}

/**
 * Opens an authenticated connection, or says why not. The host key is checked by ssh2's
 * hostVerifier during key exchange, before the client even asks for the user-auth service: a
 * key other than the pinned one ends the handshake, so neither the user name nor a signature made
 * with our key ever reaches an impostor. (ssh2 runs the verifier again on every re-key.)
 *
 * What is never enabled: agent use or forwarding, X11, port forwarding of either direction, a
 * PTY. ssh2 rejects every channel the server tries to open towards us unless we asked for that
 * forwarding, which this client never does.
 */
export function connect(target: SshTarget, identity: SshIdentity, limits: CallLimits, connectTimeoutMs: number): Promise<Connection> {
  const { name, host } = target;
  return new Promise<Connection>((resolve) => {
    const client = new ssh2.Client();
    const closed = new Promise<void>((resolveClosed) => client.once('close', () => resolveClosed()));
    let presentedKey: Buffer | null = null;
    let settled = false;
    let unsubscribe: () => void = () => undefined;
    const finish = (connection: Connection): void => {
      if (settled) return;
      settled = true;
      unsubscribe();
      if (!connection.ok) client.destroy();
      resolve(connection);
    };
    const fail = (outcome: SshRefused | SshFailed): void => finish({ ok: false, outcome });

    // Stays attached for the connection's life: an 'error' event without a listener would throw.
    client.on('error', (err: Error & { level?: string }) => {
      if (presentedKey !== null && !matchesPin(presentedKey, host.hostKey)) {
        fail({
          kind: 'refused',
          reason: 'host-key-mismatch',
          message: sshText.hostKeyMismatch(name, endpointOf(host), host.hostKey, hostKeyFingerprint(presentedKey), hostKeyType(presentedKey)),
        });
        return;
      }
      fail(classifyConnectError(err, target, connectTimeoutMs));
    });
    client.on('ready', () => finish({ ok: true, client, closed }));
    client.on('close', () => fail({ kind: 'failed', reason: 'unreachable', message: sshText.unreachable(name, endpointOf(host)) }));

    const verifyHostKey = (key: Buffer): boolean => {
      presentedKey = Buffer.from(key);
      return matchesPin(key, host.hostKey);
    };
    try {
      client.connect({
        host: host.address,
        port: host.port,
        username: host.user,
        privateKey: identity.privateKey,
        ...(identity.passphrase === undefined ? {} : { passphrase: identity.passphrase }),
        // Public key only; never 'none', 'password', 'keyboard-interactive' or 'agent'.
        authHandler: ['publickey'],
        tryKeyboard: false,
        agentForward: false,
        hostVerifier: verifyHostKey,
        readyTimeout: connectTimeoutMs,
        keepaliveInterval: KEEPALIVE_INTERVAL_MS,
        keepaliveCountMax: KEEPALIVE_COUNT_MAX,
      });
    } catch {
      // ssh2 throws synchronously only for configuration it cannot use, here: the private key.
      fail({ kind: 'failed', reason: 'identity', message: sshText.identityUnusable(name) });
      return;
    }
    unsubscribe = limits.onStop((reason) => finish({ ok: false, stopped: reason }));
  });
}

function classifyConnectError(err: Error & { level?: string }, target: SshTarget, connectTimeoutMs: number): SshFailed {
  const { name, host } = target;
  switch (err.level) {
    case 'client-authentication':
      return { kind: 'failed', reason: 'authentication', message: sshText.authenticationFailed(name, host.user) };
    case 'client-timeout':
      return { kind: 'failed', reason: 'connect-timeout', message: sshText.connectTimeout(name, endpointOf(host), connectTimeoutMs) };
    case 'handshake':
    case 'protocol':
      return { kind: 'failed', reason: 'handshake', message: sshText.handshakeFailed(name) };
    default:
      // client-socket, client-dns and anything unnamed: the server could not be reached properly.
      return { kind: 'failed', reason: 'unreachable', message: sshText.unreachable(name, endpointOf(host)) };
  }
}

/** How long a polite close may take before the socket is simply destroyed. */
const CLOSE_GRACE_MS = 1_000;

/** Ends the connection (SSH disconnect, then TCP close) and resolves once the socket is gone. */
export async function closeConnection(connection: OpenConnection): Promise<void> {
  const { client, closed } = connection;
  const destroyTimer = setTimeout(() => client.destroy(), CLOSE_GRACE_MS);
  try {
    client.end();
  } catch {
    client.destroy();
  }
  // A destroyed socket always closes; the second timer only guards against a library surprise.
  let giveUp: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((resolve) => (giveUp = setTimeout(resolve, 2 * CLOSE_GRACE_MS)))]);
  clearTimeout(destroyTimer);
  clearTimeout(giveUp);
}
