import { statSync } from 'node:fs';
import { assertNever } from '../../../common/assert-never';
import { isFileAccessError, type FileAccess } from '../../../common/file-access';
import { text } from '../../../common/i18n';
import type {
  BackgroundTaskHandle,
  CapturedOutput,
  ProcessCapability,
  ProgramCall,
  ProgramRefusal,
  ProgramRefusalCode,
  ResolvedProgram,
  RunOutcome,
  RunRequest,
  StartFailure,
  TaskRead,
} from '../../../common/process-capability';
import type { ShellPolicy } from '../../policy/types';
import { BackgroundTasks, DEFAULT_MAX_RUNNING_TASKS, type PreparedRun } from './background-tasks';
import { BoundedCapture } from './capture';
import { buildChildEnv } from './child-env';
import { decodeCapture } from './decode-output';
import { ProgramDigests } from './file-digest';
import { refusal, startFailureText } from './messages';
import { defaultTransport, type OutputTransport } from './output-channel';
import { SpareOutputChannels } from './spare-channel';
import { pathApiFor, realProgramFileView, type ProgramFileView } from './program-files';
import { locateProgram } from './resolve-program';
import { argumentProblem, cwdProblem, runLimits } from './run-request';
import { GIT_PREFIX, hardenedGitEnv, listDrivers, probeRepository } from './git-hardening';
import { deniedArgument, grammarFor, grammarMessages } from './grammar';
import type { Text } from '../../../common/i18n';
import { supervise, type SupervisedProcess } from './supervise';
import type { ProgramPathConfinement } from './program-paths';

/** git subcommands whose output can hold paths (and contents) beyond the path arguments given. */
const GIT_LISTS_PATHS: ReadonlySet<string> = new Set(['status', 'log', 'show', 'diff', 'ls-files']);

export interface ProcessHostOptions {
  /** The effective policy's shell section: whitelist, trusted folders, env whitelist, limits. */
  readonly shell: ShellPolicy;
  /** Where whitelisted variables are copied from (default: this process's environment). */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Tests only: force the 'pipes' transport on POSIX to exercise the Windows capture path. */
  readonly transport?: OutputTransport;
  readonly maxBackgroundTasks?: number;
  /**
   * The file tools' confinement (the session's FileAccess): every path argument a program grammar
   * finds is held to it, and git's repository too. Without it, a call with a path argument and
   * every git call that needs a repository is refused (fail closed).
   */
  readonly paths?: ProgramPathConfinement;
}

/** What runs after the checks: the program's arguments and environment, hardened. */
interface Vetted {
  readonly argv: readonly string[];
  readonly env: Record<string, string>;
}

/**
 * The process capability of one session (SPEC S-SHELL). The session creates it, hands it to tools
 * as ctx.process, and calls closeAll() when it closes: every tree still running dies then.
 */
export class ProcessHost implements ProcessCapability {
  private readonly view: ProgramFileView;
  private readonly digests = new ProgramDigests();
  private readonly tasks: BackgroundTasks;
  private readonly foreground = new Set<SupervisedProcess>();
  private readonly inflight = new Set<Promise<RunOutcome>>();
  private readonly channels: SpareOutputChannels;
  private closed = false;

  constructor(private readonly options: ProcessHostOptions) {
    this.view = realProgramFileView();
    this.channels = new SpareOutputChannels(options.transport ?? defaultTransport(process.platform));
    this.tasks = new BackgroundTasks(options.maxBackgroundTasks ?? DEFAULT_MAX_RUNNING_TASKS);
  }

  async resolve(command: string, call?: ProgramCall): Promise<ResolvedProgram | ProgramRefusal> {
    const program = await this.locate(command);
    if (program.kind === 'refused' || call === undefined) return program;
    const args = argumentProblem(command, call.args);
    if (args) return args;
    const vetted = await this.vet(program, call.args, call.cwd, call.filtersHiddenPaths === true);
    return 'kind' in vetted ? vetted : program;
  }

  private async locate(command: string): Promise<ResolvedProgram | ProgramRefusal> {
    const located = await locateProgram(command, {
      trustedDirs: this.options.shell.trustedDirs,
      commands: Object.keys(this.options.shell.commands),
      view: this.view,
    });
    if (located.kind === 'refused') return located;
    const sha256 = await this.digests.sha256(located);
    return { kind: 'resolved', command, path: located.path, realPath: located.realPath, sha256, size: located.size };
  }

  async run(request: RunRequest): Promise<RunOutcome | ProgramRefusal> {
    this.assertOpen();
    const prepared = await this.prepare(request);
    if (prepared.kind !== 'prepared') return prepared;
    this.assertOpen(); // closed while resolving: start nothing
    // Registered synchronously, so a closeAll() from now on waits for this run to end.
    const execution = this.execute(prepared, request.signal);
    this.inflight.add(execution);
    try {
      return await execution;
    } finally {
      this.inflight.delete(execution);
    }
  }

  private async execute(prepared: PreparedRun, signal: AbortSignal | undefined): Promise<RunOutcome> {
    const { program } = prepared;
    const capture = new BoundedCapture(prepared.maxCaptureBytes);
    if (signal?.aborted) {
      return { kind: 'cancelled', program, output: captured(capture), durationMs: 0, outputForceClosed: false };
    }
    const proc = await supervise({ ...prepared, sink: (chunk, length) => capture.push(chunk, length) });
    this.foreground.add(proc);
    const onAbort = (): void => proc.kill('cancel');
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort(); // aborted while the output channel was being set up
    if (this.closed) proc.kill('close');
    try {
      const end = await proc.done;
      switch (end.kind) {
        case 'failed-to-start':
          return failedToStart(program, end.code, prepared.cwd, end.durationMs);
        case 'exited':
          return {
            kind: 'exited',
            program,
            exitCode: end.exitCode,
            signal: end.signal,
            strayProcessesKilled: end.strayProcessesKilled,
            output: captured(capture),
            durationMs: end.durationMs,
            outputForceClosed: end.outputForceClosed,
          };
        case 'killed': {
          const ran = { program, output: captured(capture), durationMs: end.durationMs, outputForceClosed: end.outputForceClosed };
          return end.reason === 'timeout' ? { kind: 'timed-out', timeoutMs: prepared.timeoutMs, ...ran } : { kind: 'cancelled', ...ran };
        }
        default:
          return assertNever(end);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.foreground.delete(proc);
    }
  }

  async start(request: Omit<RunRequest, 'signal'>): Promise<BackgroundTaskHandle | ProgramRefusal | StartFailure> {
    this.assertOpen();
    const prepared = await this.prepare(request);
    if (prepared.kind !== 'prepared') return prepared;
    this.assertOpen();
    return this.tasks.start(prepared);
  }

  read(taskId: string): TaskRead | undefined {
    return this.tasks.read(taskId);
  }

  stop(taskId: string): Promise<TaskRead | undefined> {
    return this.tasks.stop(taskId);
  }

  /** Kills every tree this session started (background tasks and runs in progress) and waits for them. */
  async closeAll(): Promise<void> {
    this.closed = true;
    this.channels.close();
    for (const proc of this.foreground) proc.kill('close');
    // Runs still setting up see `closed` and kill themselves; wait for every one to end.
    await Promise.all([this.tasks.closeAll(), Promise.allSettled([...this.inflight])]);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('ProcessHost: the session is closed; no new processes');
  }

  /**
   * Resolves and checks everything before a process exists. The program is resolved again here even
   * when the caller resolved it for the approval (`expected`): what runs is what was approved, or
   * nothing. Between this hash and the exec a file could still be swapped by whoever may write the
   * trusted folder; that is the administrator (world-writable programs and folders are refused).
   */
  private async prepare(request: Omit<RunRequest, 'signal'>): Promise<(PreparedRun & { readonly kind: 'prepared' }) | ProgramRefusal | StartFailure> {
    const args = argumentProblem(request.command, request.args);
    if (args) return args;
    const program = await this.locate(request.command);
    if (program.kind === 'refused') return program;
    const expected = request.expected;
    if (expected && (expected.realPath !== program.realPath || expected.sha256 !== program.sha256)) {
      return refusal('CHANGED', request.command, {});
    }
    const cwd = await cwdProblem(program, request.cwd, process.platform);
    if (cwd) return cwd;
    const { timeoutMs, maxCaptureBytes } = runLimits(request, this.options.shell);
    // The grammar, the path arguments and git's repository are judged here again, whatever
    // precheck said: this is the run path, the one the model cannot go around.
    const vetted = await this.vet(program, request.args, request.cwd, request.filtersHiddenPaths === true);
    if ('kind' in vetted) return vetted;
    return {
      kind: 'prepared',
      program,
      file: program.realPath,
      argv0: program.command,
      args: vetted.argv,
      cwd: request.cwd,
      env: vetted.env,
      timeoutMs,
      maxCaptureBytes,
      channels: this.channels,
    };
  }

  private baseEnv(): Record<string, string> {
    return buildChildEnv({
      whitelist: this.options.shell.env,
      source: this.options.environment ?? process.env,
      platform: process.platform,
      trustedDirs: this.options.shell.trustedDirs,
    });
  }

  /**
   * docs/2026-12-03-programs-confined-by-grammar.md: the program's grammar (what it may be told),
   * the administrator's denyArgs, every path argument held to the roots as file tools are, and for
   * git the hardened environment and a repository whose places all lie inside the roots.
   */
  private async vet(program: ResolvedProgram, args: readonly string[], cwd: string, filtersHiddenPaths: boolean): Promise<Vetted | ProgramRefusal> {
    const platform = process.platform;
    const command = program.command;
    const refuse = (code: ProgramRefusalCode, message: Text): ProgramRefusal => ({ kind: 'refused', code, command, message });
    const denied = deniedArgument(args, this.options.shell.commands[command]?.denyArgs ?? []);
    if (denied) return refuse('ARGUMENT_NOT_ALLOWED', grammarMessages.adminDenied(command, denied.arg, denied.rule));
    const base = this.baseEnv();
    const api = pathApiFor(platform);
    // By the name asked or by the file it is: a whitelisted 'g' that is a link to git is git.
    const grammar = grammarFor(command, platform) ?? grammarFor(api.basename(program.realPath), platform);
    // A program without a grammar is the administrator's explicit grant of its full authority
    // (the shipped defaults list none); its arguments pass as they are.
    if (!grammar) return { argv: args, env: base };
    const verdict = grammar.check(args, platform);
    if (!verdict.ok) return refuse('ARGUMENT_NOT_ALLOWED', verdict.reason);
    const confinement = this.options.paths;
    if ((verdict.paths.length > 0 || verdict.repository) && !confinement) return refuse('PATH_NOT_ALLOWED', grammarMessages.noConfinement(command));
    for (const p of verdict.paths) {
      const problem = await confinedProblem(confinement as NonNullable<typeof confinement>, api.resolve(cwd, p));
      if (problem) return refuse('PATH_NOT_ALLOWED', grammarMessages.pathRefused(command, p, problem));
    }
    if (grammar.program === 'tar') {
      const env = { ...base };
      for (const k of Object.keys(env)) if (k.toUpperCase() === 'TAR_OPTIONS') delete env[k];
      return { argv: verdict.argv, env };
    }
    if (grammar.program !== 'git') return { argv: verdict.argv, env: base };
    // The path arguments were judged above. Without one, or with a folder, these subcommands also
    // print paths and contents nobody named (`git log -p`, `git show <blob>`, `git diff HEAD .`),
    // which a deny rule must hide as well: under such a policy they run only on named files.
    const subcommand = args[0] ?? '';
    if (confinement?.hidesPaths && !filtersHiddenPaths && GIT_LISTS_PATHS.has(subcommand) && !namesOnlyFiles(subcommand, args, verdict.paths, (p) => api.resolve(cwd, p))) {
      return refuse('ARGUMENT_NOT_ALLOWED', grammarMessages.gitWouldShowHidden(subcommand));
    }
    const roots = confinement?.roots ?? [];
    const probeEnv = hardenedGitEnv(base, { platform, roots });
    if (!verdict.repository) return { argv: [...GIT_PREFIX, ...verdict.argv], env: probeEnv };
    const held = confinement as NonNullable<typeof confinement>;
    const places = await probeRepository(program.realPath, cwd, probeEnv);
    if (!places) {
      return refuse('REPOSITORY_NOT_ALLOWED', grammarMessages.repository(text('이 폴더는 작업 공간 안에 있는 git 작업 트리가 아닙니다.', 'this folder is not in a git work tree inside the workspace.')));
    }
    for (const [what, where] of [['work tree', places.topLevel], ['git directory', places.gitDir], ['common directory', places.commonDir]] as const) {
      const problem = await confinedProblem(held, where);
      if (problem) {
        return refuse(
          'REPOSITORY_NOT_ALLOWED',
          grammarMessages.repository(text(`저장소의 ${what}(${where})가 작업 공간 밖이거나 보호된 위치입니다.`, `its ${what} (${where}) lies outside the workspace or in a protected location.`)),
        );
      }
    }
    const drivers = await listDrivers(program.realPath, cwd, probeEnv);
    if (!drivers) return refuse('REPOSITORY_NOT_ALLOWED', grammarMessages.repository(text('저장소 설정을 읽지 못했습니다.', 'its configuration could not be read.')));
    return { argv: [...GIT_PREFIX, ...verdict.argv], env: hardenedGitEnv(base, { platform, roots, drivers }) };
  }
}

/**
 * Whether a git run under a policy that hides paths prints only files it names: `show REV:FILE`
 * only, or `-- FILE…` with at most one revision before it (`git diff BLOB BLOB` or `git show BLOB`
 * would print an object by id, whatever path it had). Each file must exist as a regular file: a
 * folder may hold hidden paths, and a gone path may have been one. `paths` is the grammar's list:
 * every positional (revisions included, as they might be paths) and each `REV:` path part.
 */
function namesOnlyFiles(subcommand: string, args: readonly string[], paths: readonly string[], absolute: (p: string) => string): boolean {
  const isFile = (p: string) => statSync(absolute(p), { throwIfNoEntry: false })?.isFile() === true;
  if (subcommand === 'show') {
    const revPaths = paths.filter((p) => p.includes(':'));
    const parts = revPaths.map((p) => p.slice(p.indexOf(':') + 1).replace(/^[\\/]+/, ''));
    return revPaths.length > 0 && paths.every((p) => p.includes(':') || parts.includes(p)) && parts.every(isFile);
  }
  const dashes = args.indexOf('--');
  if (dashes < 0) return false;
  const named = args.slice(dashes + 1);
  const before = paths.filter((p) => !named.includes(p));
  return named.length > 0 && named.every(isFile) && before.length <= 1 && before.every((p) => !p.includes(':'));
}

/** null when the file tools' confinement accepts the absolute path; otherwise why not. */
async function confinedProblem(paths: Pick<FileAccess, 'check'>, absolute: string): Promise<Text | null> {
  try {
    await paths.check(absolute);
    return null;
  } catch (e) {
    if (!isFileAccessError(e)) throw e;
    if (e.code === 'FORBIDDEN') return text('정책의 거부 규칙이 이 경로를 막습니다.', 'a deny rule of the policy covers it.');
    return text(`작업 공간 밖이거나 보호된 위치입니다 (${e.code}).`, `it lies outside the workspace or in a protected location (${e.code}).`);
  }
}

export function createProcessHost(options: ProcessHostOptions): ProcessHost {
  return new ProcessHost(options);
}

function captured(capture: BoundedCapture): CapturedOutput {
  const decoded = decodeCapture(capture.bytes(), capture.truncated);
  return {
    text: decoded.text,
    truncated: capture.truncated,
    capturedBytes: decoded.decodedBytes,
    totalBytes: capture.totalBytes,
    encoding: decoded.encoding,
  };
}

function failedToStart(program: ResolvedProgram, code: string, cwd: string, durationMs: number): StartFailure {
  return { kind: 'failed-to-start', program, code, message: startFailureText(program.command, code, cwd), durationMs };
}
