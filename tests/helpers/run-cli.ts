import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';

// The launcher runs out/cli (what `npm ci` builds, so CI tests the shipped build) when that is
// current, else the TypeScript sources: either way the code under review (bin/baram.mjs).
const BIN = resolve(__dirname, '..', '..', 'bin', 'baram.mjs');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON (the `baram call` result); throws if it is not JSON. */
  json<T = Record<string, unknown>>(): T;
}

/** Runs the real `baram` command in a child process, as a user or a script would. */
export interface RunCliOptions {
  /** Written to stdin (then closed) once stderr matches `when`, or at once without `when`. */
  readonly stdin?: string;
  readonly when?: RegExp;
  /** Write stdin but leave it open, as a terminal does (the command must still exit once answered). */
  readonly keepStdinOpen?: boolean;
  readonly env?: NodeJS.ProcessEnv;
}

export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliRun> {
  return startCli(args, options).done;
}

/** The running command, for tests that act on it while it runs (Ctrl-C is `child.kill('SIGINT')`). */
export interface StartedCli {
  readonly child: ChildProcessWithoutNullStreams;
  /** stderr so far. */
  stderr(): string;
  readonly done: Promise<CliRun>;
}

export function startCli(args: readonly string[], options: RunCliOptions = {}): StartedCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  const done = new Promise<CliRun>((resolvePromise, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    let answered = false;
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (!answered && options.when && options.when.test(stderr)) {
        answered = true;
        if (options.keepStdinOpen) child.stdin.write(options.stdin ?? '');
        else child.stdin.end(options.stdin);
      }
    });
    child.on('error', reject);
    child.on('exit', () => child.stdin.destroy());
    child.on('close', (code) =>
      resolvePromise({
        code,
        stdout,
        stderr,
        json<T>() {
          return JSON.parse(stdout) as T;
        },
      }),
    );
    if (!options.when) child.stdin.end(options.stdin);
  });
  return { child, stderr: () => stderr, done };
}
