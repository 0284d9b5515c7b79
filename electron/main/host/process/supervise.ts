import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { killTree, trackLiveTree, untrackLiveTree } from './kill-tree';
import { readPidClock } from './pid-window';
import type { OutputChannel, OutputChannelSource, OutputSink } from './output-channel';

/**
 * Runs one program and sees its whole process tree to the end (SPEC S-SHELL):
 *   - child_process.spawn with `shell: false`: argv goes to the OS as it is, no `sh -c`, no
 *     `cmd /c`. Not execa: its promise and stream plumbing, unused here, cost ≈1.5 ms a run
 *     (`true`: 3.6 ms with spawn, 5.1 ms with execa, measured on this 2-core VM);
 *   - the absolute real path is executed (no PATH lookup at all), argv[0] is the bare name;
 *   - a new session and process group (`detached`), so the tree can be killed as one;
 *   - stdin ignored (a program waiting for input would otherwise hang until its timeout);
 *   - timeout and abort kill the whole tree with SIGKILL: nothing a program can catch or delay;
 *   - when the program exits, what is left of its group is killed too: a command has no
 *     background, and a grandchild holding the output open would otherwise keep the call waiting;
 *   - after a kill we wait for the output to reach end-of-file, killing again while we wait (a
 *     process that was between fork() and its own death, or one found only by the session sweep,
 *     may have started another); a process outside group and session keeps the output open
 *     forever, so the wait is bounded and then our end is closed.
 */

export type KillReason = 'timeout' | 'cancel' | 'stop' | 'close';

export type Termination =
  | {
      readonly kind: 'exited';
      readonly exitCode: number | null;
      readonly signal: string | null;
      readonly strayProcessesKilled: boolean;
      readonly outputForceClosed: boolean;
      readonly durationMs: number;
    }
  | { readonly kind: 'killed'; readonly reason: KillReason; readonly outputForceClosed: boolean; readonly durationMs: number }
  | { readonly kind: 'failed-to-start'; readonly code: string; readonly durationMs: number };

export interface SuperviseRequest {
  /** Absolute path of the program file (already resolved and checked). */
  readonly file: string;
  readonly argv0: string;
  readonly args: readonly string[];
  /** Absolute, existing folder. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly sink: OutputSink;
  readonly channels: OutputChannelSource;
}

export interface SupervisedProcess {
  /** Resolves once the program started (true) or could not start (false). */
  readonly started: Promise<boolean>;
  readonly done: Promise<Termination>;
  /** Kills the whole tree now; the first reason given is the one reported. */
  kill(reason: KillReason): void;
}

/**
 * After the program's exit (or a kill), how long the output may stay open before we close our end.
 * SIGKILLed processes release it within milliseconds; only a process out of reach holds it longer.
 */
export const OUTPUT_CLOSE_BOUND_MS = 1000;
/** Interval of the re-kills while waiting for end-of-file. */
const REKILL_INTERVAL_MS = 50;
/** The /proc sweep costs milliseconds of main thread; every fourth re-kill is enough to catch a group-leaver. */
const SWEEP_EVERY = 4;

export async function supervise(request: SuperviseRequest): Promise<SupervisedProcess> {
  const platform = process.platform;
  const t0 = performance.now();
  const elapsed = (): number => Math.round(performance.now() - t0);
  let channel: OutputChannel;
  try {
    channel = await request.channels.open(request.sink);
  } catch (error) {
    // No socket folder (temp directory full or not writable): the program cannot start with its
    // output captured, so it does not start at all.
    const code = (error as NodeJS.ErrnoException).code ?? 'OUTPUT_CHANNEL';
    const failed: Termination = { kind: 'failed-to-start', code, durationMs: elapsed() };
    return { started: Promise.resolve(false), done: Promise.resolve(failed), kill: () => undefined };
  }

  // Before the start, so every pid the program's tree gets is counted after it (see pid-window.ts).
  const sessionClock = platform === 'linux' ? readPidClock() : null;
  let child: ChildProcess;
  try {
    child = spawn(request.file, [...request.args], {
      argv0: request.argv0,
      cwd: request.cwd,
      env: { ...request.env },
      shell: false,
      detached: platform !== 'win32',
      windowsHide: true,
      windowsVerbatimArguments: false,
      stdio: ['ignore', channel.stdout, channel.stderr],
    });
  } catch (error) {
    // Refused before any process existed: Node validates some requests itself (a NUL in an
    // argument; on Windows, a batch file without a shell).
    channel.discard();
    const failed: Termination = { kind: 'failed-to-start', code: (error as NodeJS.ErrnoException).code ?? 'ESPAWN', durationMs: elapsed() };
    return { started: Promise.resolve(false), done: Promise.resolve(failed), kill: () => undefined };
  }

  // 'error' before 'spawn' means it never started (ENOENT, EACCES …); a later one (a failed signal)
  // changes nothing, but must have a listener or it would be thrown.
  let startError = null as NodeJS.ErrnoException | null;
  const started = new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.on('error', (error: NodeJS.ErrnoException) => {
      startError ??= error;
      resolve(false);
    });
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });

  let killReason: KillReason | null = null;
  let finished = false;
  let leaderAlive = true;
  const killNow = (sweepSession: boolean): Promise<boolean> =>
    child.pid === undefined ? Promise.resolve(false) : killTree(child.pid, { platform, sweepSession, leaderAlive, sessionClock });

  const done = (async (): Promise<Termination> => {
    if (!(await started) || child.pid === undefined) {
      finished = true;
      channel.discard();
      return { kind: 'failed-to-start', code: startError?.code ?? 'ESPAWN', durationMs: elapsed() };
    }
    const pid = child.pid;
    trackLiveTree(pid);
    channel.attach(child);
    // The child holds its own copy now; ours goes at once, so end-of-file comes as soon as the
    // last process holding the output is gone (and closing it overlaps the program's run).
    channel.releaseChildEnd();
    const timer = setTimeout(() => kill('timeout'), request.timeoutMs);
    try {
      const exit = await exited;
      leaderAlive = false;
      clearTimeout(timer);
      const reasonAtExit = killReason;
      // Also after a normal exit, and with the session sweep: a grandchild that left the group and
      // sent its output elsewhere would hold nothing open, and nothing else would ever find it.
      const stray = await killNow(true);
      const outputForceClosed = await waitForEndOfOutput(pid);
      if (reasonAtExit !== null) return { kind: 'killed', reason: reasonAtExit, outputForceClosed, durationMs: elapsed() };
      return {
        kind: 'exited',
        exitCode: exit.code,
        signal: exit.signal,
        strayProcessesKilled: stray,
        outputForceClosed,
        durationMs: elapsed(),
      };
    } finally {
      clearTimeout(timer);
      finished = true;
      untrackLiveTree(pid);
    }
  })();

  /** True when the bound passed and our end was closed on a writer we could not reach. */
  async function waitForEndOfOutput(pid: number): Promise<boolean> {
    let isClosed = false;
    void channel.closed.then(() => {
      isClosed = true;
    });
    const deadline = performance.now() + OUTPUT_CLOSE_BOUND_MS;
    for (let round = 1; ; round++) {
      await Promise.race([channel.closed, sleep(REKILL_INTERVAL_MS)]);
      if (isClosed) return false;
      await killTree(pid, { platform, sweepSession: round % SWEEP_EVERY === 1, leaderAlive: false, sessionClock });
      if (performance.now() >= deadline) {
        channel.forceClose();
        return true;
      }
    }
  }

  function kill(reason: KillReason): void {
    if (finished || killReason !== null) return;
    killReason = reason;
    // Synchronous on POSIX (group kill and session sweep): the tree is dead when this returns.
    void killNow(true);
  }

  return { started, done, kill };
}
