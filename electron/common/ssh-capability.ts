import type { Text } from './i18n';

/**
 * The SSH capability handed to ssh.execute and ssh.download (implemented in electron/main/host/ssh).
 * Tools never open sockets: the host checks the policy's ssh.hosts entry (host name, pinned host
 * key, command whitelist) on every call, so those checks live in one place and run even if a
 * precheck was skipped.
 *
 * Every outcome is a value (SPEC G-NOTHROW). `refused` means Baram decided not to do it (policy,
 * host key, size cap); `failed` means it was attempted and the network, the server or the disk
 * said no. Both carry a message for the model that says what to do instead (SPEC G-SIGNPOST).
 */

export interface SshExecuteRequest {
  /** A key of the policy's ssh.hosts ("build01"), never an address. */
  readonly host: string;
  /** One command line, sent to the remote shell as is (so it must pass the host's whitelist). */
  readonly command: string;
  /** Deadline for the whole call, connection included (the tool clamps it like shell.execute's). */
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

export interface SshDownloadRequest {
  /** A key of the policy's ssh.hosts. */
  readonly host: string;
  /** Path on the server (relative paths are relative to the login's home, as sftp does). */
  readonly remotePath: string;
  /** Absolute local path, already confined to the workspace roots by the caller (FileAccess). */
  readonly localPath: string;
  /** Replace a file already at localPath (default false: refused). */
  readonly overwrite?: boolean;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/**
 * Merged stdout+stderr of a remote command, in arrival order, bounded like the local shell's
 * (same field names as process-capability's CapturedOutput, so both render alike).
 */
export interface SshCapturedOutput {
  /** Decoded text of the bytes kept (at most maxCaptureBytes); ends on a whole character. */
  readonly text: string;
  /** True when the command wrote more than was kept: `text` is the beginning only. */
  readonly truncated: boolean;
  /** Bytes behind `text`. */
  readonly capturedBytes: number;
  /** Everything the command wrote, kept or not (counted while draining, so it never blocks). */
  readonly totalBytes: number;
  /** How the bytes were decoded: UTF-8 when valid, otherwise CP949 (Korean Windows servers). */
  readonly encoding: 'utf-8' | 'cp949';
}

export type SshRefusalReason =
  | 'unknown-host' // not a key of ssh.hosts
  | 'host-key-invalid' // the policy's pinned fingerprint is not "SHA256:<base64>"
  | 'host-key-mismatch' // the server presented another key: nothing was sent, nothing ran
  | 'no-identity' // no private key configured for the host
  | 'invalid-command' // empty, too long, or control characters
  | 'shell-metacharacter' // ; | & ` $ > < ( ) or a line break: the remote shell would read them
  | 'command-not-allowed' // not on the host's commands list
  | 'unsafe-argument' // quoting, globbing or expansion characters after a whitelisted prefix
  | 'invalid-path' // local or remote path not acceptable (relative, NUL, `..`)
  | 'local-exists' // a file is already at localPath and overwrite was not asked for
  | 'not-a-file' // the remote path is a folder, link target or device, not a regular file
  | 'too-large'; // the remote file exceeds the download cap (by stat, or while streaming)

export type SshFailureReason =
  | 'unreachable' // TCP connection refused, no route, name not resolved
  | 'connect-timeout' // no completed handshake and login in time
  | 'handshake' // no common algorithms, protocol error
  | 'authentication' // the server did not accept our key
  | 'identity' // the configured private key could not be read or used
  | 'channel' // the server refused the exec or sftp request
  | 'connection-lost' // the connection broke while the command or transfer ran
  | 'remote-not-found' // no such remote file
  | 'remote-denied' // the server refused to read the remote file
  | 'local-io'; // writing the local file failed

export interface SshRefused {
  readonly kind: 'refused';
  readonly reason: SshRefusalReason;
  readonly message: Text;
}

export interface SshFailed {
  readonly kind: 'failed';
  readonly reason: SshFailureReason;
  readonly message: Text;
}

export type SshOutcome =
  | (SshCapturedOutput & {
      readonly kind: 'exited';
      /** null when the command ended by a signal or the server sent no exit status. */
      readonly exitCode: number | null;
      /** "SIGKILL" etc. when the remote command was ended by a signal. */
      readonly exitSignal: string | null;
      readonly durationMs: number;
    })
  | (SshCapturedOutput & { readonly kind: 'timed-out'; readonly timeoutMs: number; readonly durationMs: number })
  | (SshCapturedOutput & { readonly kind: 'cancelled'; readonly durationMs: number })
  | SshRefused
  | SshFailed;

export type SshDownloadOutcome =
  | {
      readonly kind: 'downloaded';
      /** Absolute path written (equal to the request's localPath). */
      readonly localPath: string;
      readonly bytes: number;
      readonly durationMs: number;
    }
  | { readonly kind: 'timed-out'; readonly timeoutMs: number; readonly durationMs: number }
  | { readonly kind: 'cancelled'; readonly durationMs: number }
  | SshRefused
  | SshFailed;

export interface SshCapability {
  /**
   * The checks `execute` makes before connecting (the host is in the policy, its key pin is
   * well-formed, the command — when given — is on its whitelist), with no network access: for a
   * tool's precheck. null when the call may go ahead.
   */
  check(host: string, command?: string): SshRefused | null;
  /** "user@address:port" of a policy host (what an approval shows), or null for a host the policy lacks. No network. */
  endpoint(host: string): string | null;
  execute(request: SshExecuteRequest): Promise<SshOutcome>;
  download(request: SshDownloadRequest): Promise<SshDownloadOutcome>;
}
