import type { ClientChannel } from 'ssh2';
import type { CallLimits, StopReason } from './call-limits';
import type { OpenConnection } from './connect';
import type { OutputCapture } from './output-capture';

export type ExecEnd =
  | { readonly kind: 'exited'; readonly exitCode: number | null; readonly exitSignal: string | null }
  | { readonly kind: 'stopped'; readonly reason: StopReason }
  | { readonly kind: 'exec-refused' }
  | { readonly kind: 'connection-lost' };

/**
 * Runs one command on an open connection: a plain exec channel (no PTY, no X11, no agent, no
 * environment variables), stdout and stderr merged into `capture` in arrival order.
 *
 * Stdin is left open but never written: ssh2 refuses to send a signal on a channel after EOF, and
 * the KILL request on timeout or Stop matters more than EOF for a command that reads stdin (it
 * just waits until the deadline, like a local program would). The server gets the KILL request
 * (OpenSSH honours it since 7.9) and then the channel close; the caller then closes the
 * connection, which ends the remote session, and so the command, on servers that ignore signals.
 */
export function runCommand(connection: OpenConnection, command: string, capture: OutputCapture, limits: CallLimits): Promise<ExecEnd> {
  const { client, closed } = connection;
  return new Promise<ExecEnd>((resolve) => {
    let channel: ClientChannel | null = null;
    let settled = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let unsubscribe: () => void = () => undefined;
    const finish = (end: ExecEnd): void => {
      if (settled) return;
      settled = true;
      unsubscribe();
      resolve(end);
    };

    // A server may drop the connection right after the exit status; the status still counts.
    void closed.then(() => finish(exitCode !== null || exitSignal !== null ? { kind: 'exited', exitCode, exitSignal } : { kind: 'connection-lost' }));
    unsubscribe = limits.onStop((reason) => {
      if (channel !== null) {
        channel.signal('KILL');
        channel.close();
      }
      finish({ kind: 'stopped', reason });
    });
    if (settled) return;

    try {
      client.exec(command, (err, opened) => {
        if (settled) {
          // Stopped while the server was still opening the channel.
          opened?.close();
          return;
        }
        if (err) {
          finish({ kind: 'exec-refused' });
          return;
        }
        channel = opened;
        opened.on('data', (chunk: Buffer) => capture.push(chunk));
        opened.stderr.on('data', (chunk: Buffer) => capture.push(chunk));
        opened.on('exit', (code: number | null, signal?: string) => {
          exitCode = typeof code === 'number' ? code : null;
          exitSignal = typeof signal === 'string' ? signal : null;
        });
        // 'close' comes after the last data of both streams and after the exit status.
        opened.on('close', () => finish({ kind: 'exited', exitCode, exitSignal }));
      });
    } catch {
      // ssh2 throws when the socket is no longer writable.
      finish({ kind: 'connection-lost' });
    }
  });
}
