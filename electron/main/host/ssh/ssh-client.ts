import type {
  SshCapability,
  SshCapturedOutput,
  SshDownloadOutcome,
  SshDownloadRequest,
  SshExecuteRequest,
  SshFailed,
  SshOutcome,
  SshRefused,
} from '../../../common/ssh-capability';
import { assertNever } from '../../../common/assert-never';
import type { SshHostPolicy } from '../../policy/types';
import { CallLimits, CallStopped, type StopReason } from './call-limits';
import { checkRemoteCommand } from './command-rules';
import { closeConnection, connect, endpointOf, type OpenConnection, type SshTarget } from './connect';
import { checkLocalTarget, checkRemotePath, downloadOverSftp } from './download';
import { runCommand, type ExecEnd } from './exec';
import { pinnedDigest } from './fingerprint';
import { isUsablePrivateKey, type IdentityLookup, type SshIdentity } from './identity';
import { sshText } from './messages';
import { OutputCapture } from './output-capture';

export interface SshClientOptions {
  /** The policy's ssh.hosts: the only hosts that can be reached, by these names only. */
  readonly hosts: Readonly<Record<string, SshHostPolicy>>;
  /** The private key for a host (the policy's proposed ssh.hosts.*.identityFile, read by identityFromFile). */
  readonly identityFor: IdentityLookup;
  /** Output kept in memory per command (the policy's shell.maxCaptureBytes). */
  readonly maxCaptureBytes: number;
  /** Largest file ssh.download will fetch. */
  readonly maxDownloadBytes: number;
  /**
   * Handshake plus login must finish within this (ssh2's readyTimeout). Default 20 s: a LAN server
   * answers in well under a second; the rest is for a server busy enough to be slow to fork sshd.
   */
  readonly connectTimeoutMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 20_000;

/**
 * The SSH capability (SPEC §5 ssh, issue #4). Checks, in this order and before any packet leaves
 * the machine: the host is a key of ssh.hosts; its pinned host key is well-formed; the command is
 * on the host's whitelist (or the download paths are acceptable); an identity is configured. Then
 * it connects, with the host key pinned during key exchange (see connect.ts).
 */
export function createSshClient(options: SshClientOptions): SshCapability {
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  requirePositive('maxCaptureBytes', options.maxCaptureBytes);
  requirePositive('maxDownloadBytes', options.maxDownloadBytes);
  requirePositive('connectTimeoutMs', connectTimeoutMs);

  function lookUp(hostName: string): SshTarget | SshRefused {
    // Own keys only: '__proto__' or 'toString' must not find something on Object.prototype.
    if (!Object.hasOwn(options.hosts, hostName)) {
      return { kind: 'refused', reason: 'unknown-host', message: sshText.unknownHost(hostName, Object.keys(options.hosts)) };
    }
    const host = options.hosts[hostName]!;
    if (pinnedDigest(host.hostKey) === null) return { kind: 'refused', reason: 'host-key-invalid', message: sshText.hostKeyInvalid(hostName) };
    return { name: hostName, host };
  }

  async function identityOf(target: SshTarget, limits: CallLimits): Promise<SshIdentity | SshRefused | SshFailed> {
    let identity: SshIdentity | null;
    try {
      identity = await limits.race(options.identityFor(target.name, target.host));
    } catch (e) {
      if (e instanceof CallStopped) throw e;
      return { kind: 'failed', reason: 'identity', message: sshText.identityUnusable(target.name) };
    }
    if (identity === null) return { kind: 'refused', reason: 'no-identity', message: sshText.noIdentity(target.name) };
    if (!isUsablePrivateKey(identity.privateKey, identity.passphrase)) {
      return { kind: 'failed', reason: 'identity', message: sshText.identityUnusable(target.name) };
    }
    return identity;
  }

  /**
   * What every call does once its request is admitted: nothing if it is already stopped, then the
   * identity and the connection, handed to `use`, which owns it and closes it. A stop (timeout or
   * cancel) at any point becomes the call's own outcome through `stopped`; the limits end here.
   */
  async function overConnection<T>(
    target: SshTarget,
    limits: CallLimits,
    stopped: (reason: StopReason) => T,
    use: (connection: OpenConnection) => Promise<T>,
  ): Promise<T | SshRefused | SshFailed> {
    try {
      if (limits.reason !== null) return stopped(limits.reason);
      const identity = await identityOf(target, limits);
      if ('kind' in identity) return identity;
      const connection = await connect(target, identity, limits, connectTimeoutMs);
      if (!connection.ok) return 'stopped' in connection ? stopped(connection.stopped) : connection.outcome;
      return await use(connection);
    } catch (e) {
      if (e instanceof CallStopped) return stopped(e.reason);
      throw e;
    } finally {
      limits.dispose();
    }
  }

  /** The host, when it and the command (if given) may be used; the refusal otherwise. */
  function admit(hostName: string, command?: string): SshTarget | SshRefused {
    const target = lookUp(hostName);
    if ('kind' in target || command === undefined) return target;
    const verdict = checkRemoteCommand(command, target.host.commands);
    return verdict.ok ? target : commandRefusal(verdict, command, target);
  }

  function check(hostName: string, command?: string): SshRefused | null {
    const admitted = admit(hostName, command);
    return 'kind' in admitted ? admitted : null;
  }

  return {
    check,

    endpoint(hostName: string): string | null {
      const target = lookUp(hostName);
      return 'kind' in target ? null : `${target.host.user}@${endpointOf(target.host)}`;
    },

    async execute(request: SshExecuteRequest): Promise<SshOutcome> {
      requirePositive('timeoutMs', request.timeoutMs);
      const target = admit(request.host, request.command);
      if ('kind' in target) return target;

      const limits = new CallLimits(request.timeoutMs, request.signal);
      const capture = new OutputCapture(options.maxCaptureBytes);
      const stopped = (reason: StopReason): SshOutcome => stoppedOutcome(reason, capture.result(), limits);
      return overConnection<SshOutcome>(target, limits, stopped, async (connection) => {
        let end: ExecEnd;
        try {
          end = await runCommand(connection, request.command, capture, limits);
        } finally {
          await closeConnection(connection);
        }
        switch (end.kind) {
          case 'exited':
            return { kind: 'exited', exitCode: end.exitCode, exitSignal: end.exitSignal, durationMs: limits.elapsedMs(), ...capture.result() };
          case 'stopped':
            return stopped(end.reason);
          case 'exec-refused':
            return { kind: 'failed', reason: 'channel', message: sshText.channelRefused(target.name, 'exec') };
          case 'connection-lost':
            return { kind: 'failed', reason: 'connection-lost', message: sshText.connectionLost(target.name) };
          default:
            return assertNever(end);
        }
      });
    },

    async download(request: SshDownloadRequest): Promise<SshDownloadOutcome> {
      requirePositive('timeoutMs', request.timeoutMs);
      const target = lookUp(request.host);
      if ('kind' in target) return target;
      const overwrite = request.overwrite === true;
      const pathRefusal = checkRemotePath(request.remotePath) ?? (await checkLocalTarget(request.localPath, overwrite));
      if (pathRefusal !== null) return pathRefusal;

      const limits = new CallLimits(request.timeoutMs, request.signal);
      const stopped = (reason: StopReason): SshDownloadOutcome =>
        reason === 'timeout'
          ? { kind: 'timed-out', timeoutMs: limits.timeoutMs, durationMs: limits.elapsedMs() }
          : { kind: 'cancelled', durationMs: limits.elapsedMs() };
      return overConnection<SshDownloadOutcome>(target, limits, stopped, async (connection) => {
        try {
          const plan = { hostName: target.name, remotePath: request.remotePath, localPath: request.localPath, overwrite, maxBytes: options.maxDownloadBytes };
          const end = await downloadOverSftp(connection, plan, limits);
          return end.kind === 'downloaded' ? { kind: 'downloaded', localPath: request.localPath, bytes: end.bytes, durationMs: limits.elapsedMs() } : end;
        } finally {
          await closeConnection(connection);
        }
      });
    },
  };
}

function commandRefusal(verdict: Exclude<ReturnType<typeof checkRemoteCommand>, { ok: true }>, command: string, target: SshTarget): SshRefused {
  switch (verdict.reason) {
    case 'shell-metacharacter':
      return { kind: 'refused', reason: verdict.reason, message: sshText.shellMetacharacter() };
    case 'invalid-command':
      return { kind: 'refused', reason: verdict.reason, message: sshText.invalidCommand() };
    case 'command-not-allowed':
      return { kind: 'refused', reason: verdict.reason, message: sshText.commandNotAllowed(command, target.name, target.host.commands) };
    case 'unsafe-argument':
      return { kind: 'refused', reason: verdict.reason, message: sshText.unsafeArgument(command, verdict.entry) };
    default:
      return assertNever(verdict);
  }
}

function stoppedOutcome(reason: StopReason, output: SshCapturedOutput, limits: CallLimits): SshOutcome {
  return reason === 'timeout'
    ? { kind: 'timed-out', timeoutMs: limits.timeoutMs, durationMs: limits.elapsedMs(), ...output }
    : { kind: 'cancelled', durationMs: limits.elapsedMs(), ...output };
}

/** Caller bugs, not outcomes: the tool clamps timeouts and the policy loader validates the caps. */
function requirePositive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`SSH client: ${name} must be a positive number, got ${value}`);
}
