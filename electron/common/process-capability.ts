import type { Text } from './i18n';

/**
 * The process capability handed to tools (implemented by electron/main/host/process; SPEC S-SHELL).
 * Tools never touch node:child_process: program resolution (trusted folders only), the
 * environment whitelist, process groups, whole-tree kills and bounded capture live in one place.
 *
 * Expected outcomes are values: a refusal, a non-zero exit, a timeout, a cancel, a program that
 * could not start. Only bugs throw (for example a relative `cwd`: the caller confines it first).
 *
 * The runner returns raw captured text plus flags. Cutting to the model's budget and appending
 * the marker after the cut (`[exit code: N]`, `[timed out after N ms]`) is the tool's rendering.
 */

/** Why a program is refused before anything runs. Each refusal's `message` says what to do instead. */
export type ProgramRefusalCode =
  | 'EMPTY' // no program name at all
  | 'INVALID_CHARACTERS' // NUL or another control character in the name
  | 'PATH_SEPARATOR' // './git', '/usr/bin/git', 'C:\\x\\git.exe': only bare names are resolved
  | 'ENVIRONMENT_ASSIGNMENT' // 'FOO=1': variables come from the policy's whitelist only
  | 'ARGUMENTS_IN_NAME' // 'git status': program and arguments go in separate fields
  | 'SHELL_SYNTAX' // pipes, redirects, globs, quotes, substitution: there is no shell
  | 'INVALID_NAME' // '.', '..', Windows device names or names ending in a dot or space
  | 'NOT_WHITELISTED' // not one of the policy's shell.commands
  | 'NOT_FOUND' // in no trusted folder
  | 'BATCH_FILE' // Windows .bat/.cmd: cmd.exe re-parses the arguments (injection)
  | 'NOT_A_PROGRAM' // Windows: an extension other than .exe/.com (.ps1, .vbs, …)
  | 'NOT_EXECUTABLE' // found, but not a regular file with execute permission
  | 'OUTSIDE_TRUSTED_DIRS' // found, but its real path (after symlinks) lies outside every trusted folder
  | 'UNSAFE_PERMISSIONS' // the file or its folder is writable by every user
  | 'CHANGED' // not the program that was approved (different path or SHA-256)
  | 'INVALID_ARGUMENT' // an argument with a NUL character (no OS can pass it)
  | 'TOO_MANY_TASKS' // the session's background task limit is reached
  | 'ARGUMENT_NOT_ALLOWED' // not in the program's grammar, or an administrator's denyArgs entry
  | 'PATH_NOT_ALLOWED' // a path argument outside the workspace roots or inside a protected path
  | 'REPOSITORY_NOT_ALLOWED'; // git: no work tree here, or its git/common directory lies outside the roots

export interface ProgramRefusal {
  readonly kind: 'refused';
  readonly code: ProgramRefusalCode;
  /** The command as the caller wrote it. */
  readonly command: string;
  /** What went wrong and what to do instead (SPEC G-SIGNPOST). */
  readonly message: Text;
}

/** A whitelisted program found in a trusted folder; what the approval shows and the audit records. */
export interface ResolvedProgram {
  readonly kind: 'resolved';
  /** The bare name as asked ('git'); becomes the program's argv[0]. */
  readonly command: string;
  /** Where it was found: a trusted folder joined with the name ('/usr/bin/git'). */
  readonly path: string;
  /** `path` with every symlink resolved: the file that is executed and hashed. */
  readonly realPath: string;
  /** SHA-256 (hex) of the file at `realPath`. */
  readonly sha256: string;
  readonly size: number;
}

/** The program an approval named: running anything else is refused with 'CHANGED'. */
export interface ExpectedProgram {
  readonly realPath: string;
  readonly sha256: string;
}

export interface RunRequest {
  /** A bare program name from the policy's whitelist ('git'), never a path. */
  readonly command: string;
  readonly args: readonly string[];
  /** As ProgramCall's. */
  readonly filtersHiddenPaths?: boolean;
  /** Absolute working folder, already confined to the workspace by the caller. */
  readonly cwd: string;
  /** Clamped to [1 s, policy maxTimeoutMs]; absent means the policy's defaultTimeoutMs. */
  readonly timeoutMs?: number;
  /** At most the policy's maxCaptureBytes (a larger value is lowered to it). */
  readonly maxCaptureBytes?: number;
  /** Aborting kills the whole process tree (the user pressed Stop). */
  readonly signal?: AbortSignal;
  /** When set, the program resolved now must be this one (what the human approved). */
  readonly expected?: ExpectedProgram;
}

/** How the captured bytes were decoded. CP949 is what Korean Windows programs print. */
export type OutputEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'cp949';

export interface CapturedOutput {
  /** stdout and stderr merged in the order the program wrote them, decoded; ends on a whole character. */
  readonly text: string;
  /** True when the program wrote more than the capture limit: `text` is the beginning only. */
  readonly truncated: boolean;
  /** Bytes behind `text`. */
  readonly capturedBytes: number;
  /** Everything the program wrote, kept or not (counted while draining, so it never blocks). */
  readonly totalBytes: number;
  readonly encoding: OutputEncoding;
}

interface Ran {
  readonly program: ResolvedProgram;
  readonly output: CapturedOutput;
  readonly durationMs: number;
  /**
   * True when, after the tree was killed, something still held the output open past the wait
   * bound (a process that left the process group and session): Baram closed its end and returned.
   */
  readonly outputForceClosed: boolean;
}

export type RunOutcome =
  | (Ran & {
      readonly kind: 'exited';
      /** The program's exit code; null when a signal ended it (as SshOutcome and tools/kit/command-output). */
      readonly exitCode: number | null;
      /** The signal that ended the program itself ('SIGSEGV'), when one did. */
      readonly signal: string | null;
      /** Processes the program left behind in its group were killed when it exited. */
      readonly strayProcessesKilled: boolean;
    })
  | (Ran & { readonly kind: 'timed-out'; readonly timeoutMs: number })
  | (Ran & { readonly kind: 'cancelled' })
  | StartFailure;

/** The program was resolved but could not be started (the only case for "Command failed: "). */
export interface StartFailure {
  readonly kind: 'failed-to-start';
  readonly program: ResolvedProgram;
  /** OS error code ('EACCES', 'ENOEXEC', …) or 'CWD_NOT_FOUND'. */
  readonly code: string;
  readonly message: Text;
  readonly durationMs: number;
}

export interface BackgroundTaskHandle {
  readonly kind: 'started';
  /** Random, unguessable; valid in this session only. */
  readonly taskId: string;
  readonly program: ResolvedProgram;
  /** The task is killed (state 'timed-out') when it runs this long. */
  readonly timeoutMs: number;
}

export type TaskState = 'running' | 'exited' | 'timed-out' | 'stopped';

/** One look at a background task: output written since the previous look, and its state. */
export interface TaskRead {
  readonly taskId: string;
  readonly program: ResolvedProgram;
  readonly state: TaskState;
  /** Set when state is 'exited' and the program returned a code. */
  readonly exitCode: number | null;
  /** Set when state is 'exited' and a signal the program did not get from us ended it. */
  readonly signal: string | null;
  /** Output since the previous read, decoded; ends on a whole character (the rest comes next time). */
  readonly text: string;
  /**
   * Bytes written since the previous read that were not kept because the unread output already
   * filled the capture limit (the oldest unread output is kept; read more often to lose less).
   */
  readonly droppedBytes: number;
  /** Everything the task wrote so far. */
  readonly totalBytes: number;
  readonly durationMs: number;
  readonly encoding: OutputEncoding;
}

/** The arguments and working folder resolve() judges along with the program. */
export interface ProgramCall {
  readonly args: readonly string[];
  /** Absolute, already confined by the caller. */
  readonly cwd: string;
  /**
   * The caller leaves out of what it shows every path the policy hides (the git tools filter git's
   * output through the deny rules). Without it, under a policy whose deny rules hide paths from
   * filesystem.read, git subcommands that print paths or file contents beyond their path arguments
   * (status, log, show, diff, ls-files) are refused: `git log -p` would print a denied file's history.
   */
  readonly filtersHiddenPaths?: boolean;
}

export interface ProcessCapability {
  /**
   * Finds the program without running it (precheck and approval show the result). With `call`,
   * also judges the arguments as run() will (the program's grammar, its path arguments against the
   * roots, git's repository): a call that run() would refuse is refused here, before approval.
   */
  resolve(command: string, call?: ProgramCall): Promise<ResolvedProgram | ProgramRefusal>;
  /** Runs to completion, timeout or cancel. */
  run(request: RunRequest): Promise<RunOutcome | ProgramRefusal>;
  /** Starts a background task of this session; resolves once the program started or failed to. */
  start(request: Omit<RunRequest, 'signal'>): Promise<BackgroundTaskHandle | ProgramRefusal | StartFailure>;
  /** New output and state; undefined for an unknown task id. */
  read(taskId: string): TaskRead | undefined;
  /** Kills the task's whole tree (if still running) and returns the last read; undefined if unknown. */
  stop(taskId: string): Promise<TaskRead | undefined>;
}
