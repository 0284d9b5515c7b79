import { randomBytes } from 'node:crypto';
import { assertNever } from '../../../common/assert-never';
import type {
  BackgroundTaskHandle,
  ProgramRefusal,
  ResolvedProgram,
  StartFailure,
  TaskRead,
  TaskState,
} from '../../../common/process-capability';
import { UnreadOutput } from './capture';
import { refusal, startFailureText } from './messages';
import { supervise, type SuperviseRequest, type SupervisedProcess, type Termination } from './supervise';

/**
 * The background tasks of one session (SPEC S-SHELL `background: true`; shell.output reads or
 * stops them). Tasks die with the session: it calls closeAll() when it closes. A task also dies at
 * its timeout like any run, so a forgotten `ping -t` cannot outlive the policy's maxTimeoutMs.
 */

/** A prepared run: program resolved and checked, limits clamped, environment built. */
export interface PreparedRun extends Omit<SuperviseRequest, 'sink'> {
  readonly program: ResolvedProgram;
  readonly maxCaptureBytes: number;
}

/** Eight concurrent programs is far above what a chat turn needs and far below a fork bomb. */
export const DEFAULT_MAX_RUNNING_TASKS = 8;
/** Finished tasks kept for a last read; the oldest finished one is forgotten beyond this. */
const MAX_FINISHED_TASKS = 64;

interface Task {
  readonly id: string;
  readonly program: ResolvedProgram;
  readonly process: SupervisedProcess;
  readonly output: UnreadOutput;
  readonly startedAt: number;
  state: TaskState;
  exitCode: number | null;
  signal: string | null;
  endedAt: number | null;
  /** The final output has been handed out; the buffer is released. */
  drained: boolean;
}

export class BackgroundTasks {
  private readonly tasks = new Map<string, Task>();
  /** Starts in progress: counted against the limit, and awaited by closeAll(). */
  private readonly starting = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly maxRunning: number = DEFAULT_MAX_RUNNING_TASKS) {}

  /** Running tasks plus starts in progress. */
  get running(): number {
    let n = this.starting.size;
    for (const task of this.tasks.values()) if (task.state === 'running') n++;
    return n;
  }

  async start(run: PreparedRun): Promise<BackgroundTaskHandle | ProgramRefusal | StartFailure> {
    if (this.closed) throw new Error('BackgroundTasks: the session is closed');
    if (this.running >= this.maxRunning) return refusal('TOO_MANY_TASKS', run.program.command, { limit: this.maxRunning });
    // Registered synchronously: two concurrent starts cannot both take the last slot, and a
    // closeAll() that comes while this one is starting waits for it.
    const attempt = this.launch(run);
    this.starting.add(attempt);
    try {
      return await attempt;
    } finally {
      this.starting.delete(attempt);
    }
  }

  private async launch(run: PreparedRun): Promise<BackgroundTaskHandle | StartFailure> {
    const output = new UnreadOutput(run.maxCaptureBytes);
    const proc = await supervise({ ...run, sink: (chunk, length) => output.push(chunk, length) });
    if (!(await proc.started)) {
      const end = await proc.done;
      const code = end.kind === 'failed-to-start' ? end.code : 'ESPAWN';
      return { kind: 'failed-to-start', program: run.program, code, message: startFailureText(run.program.command, code, run.cwd), durationMs: end.durationMs };
    }
    const task: Task = {
      id: newTaskId(),
      program: run.program,
      process: proc,
      output,
      startedAt: performance.now(),
      state: 'running',
      exitCode: null,
      signal: null,
      endedAt: null,
      drained: false,
    };
    this.tasks.set(task.id, task);
    void proc.done.then((end) => this.finish(task, end));
    // closeAll() came while this one was starting: it must not outlive the session.
    if (this.closed) proc.kill('close');
    return { kind: 'started', taskId: task.id, program: run.program, timeoutMs: run.timeoutMs };
  }

  read(taskId: string): TaskRead | undefined {
    const task = this.tasks.get(taskId);
    if (task === undefined) return undefined;
    const final = task.state !== 'running';
    const { text, droppedBytes, encoding } = task.drained ? { text: '', droppedBytes: 0, encoding: 'utf-8' as const } : task.output.take(final);
    if (final && !task.drained) {
      task.drained = true;
      task.output.release();
    }
    return {
      taskId: task.id,
      program: task.program,
      state: task.state,
      exitCode: task.exitCode,
      signal: task.signal,
      text,
      droppedBytes,
      totalBytes: task.output.totalBytes,
      durationMs: Math.round((task.endedAt ?? performance.now()) - task.startedAt),
      encoding,
    };
  }

  async stop(taskId: string): Promise<TaskRead | undefined> {
    const task = this.tasks.get(taskId);
    if (task === undefined) return undefined;
    task.process.kill('stop');
    this.finish(task, await task.process.done);
    return this.read(taskId);
  }

  /** Kills every task's tree and waits until each has ended. Later starts are refused (bug). */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.starting]);
    const tasks = [...this.tasks.values()];
    for (const task of tasks) task.process.kill('close');
    await Promise.all(tasks.map(async (task) => this.finish(task, await task.process.done)));
  }

  private finish(task: Task, end: Termination): void {
    if (task.state !== 'running') return;
    task.endedAt = performance.now();
    switch (end.kind) {
      case 'exited':
        task.state = 'exited';
        task.exitCode = end.exitCode;
        task.signal = end.signal;
        break;
      case 'killed':
        task.state = end.reason === 'timeout' ? 'timed-out' : 'stopped';
        break;
      case 'failed-to-start': // cannot happen after 'started'; treated as an end without exit code
        task.state = 'stopped';
        break;
      default:
        assertNever(end);
    }
    this.forgetOldFinished();
  }

  private forgetOldFinished(): void {
    const finished = [...this.tasks.values()].filter((t) => t.state !== 'running');
    for (const old of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_TASKS))) this.tasks.delete(old.id);
  }
}

/** Short enough for a small model to copy back without mistakes, random enough not to collide. */
function newTaskId(): string {
  return `task-${randomBytes(6).toString('hex')}`;
}
