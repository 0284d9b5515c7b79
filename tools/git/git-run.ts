import { isFileAccessError } from '../../electron/common/file-access';
import { pick, type Lang, type Text } from '../../electron/common/i18n';
import type { ProgramRefusal, ResolvedProgram } from '../../electron/common/process-capability';
import type { ToolResult } from '../../electron/common/tool-result';
import { failure, isFailure, type Failure, type Plan, type PrecheckContext, type ToolContext } from '../kit/define-tool';
import { fileErrorText } from '../kit/file-errors';
import { isSameOrInside, joinPath, parentPath, samePath } from '../kit/paths';
import { fail } from '../kit/results';
import { gitMessages as m } from './messages';

/**
 * What the five git tools share (docs/2026-12-03-git-tools.md). They run the program `git`
 * through the process capability, exactly as shell.execute's git does: the host resolves it from
 * the trusted folders only, holds every argument to the read-only git grammar, every path argument
 * to the workspace and the policy's read rules, refuses a repository whose work tree, git
 * directory or common directory lies outside the roots, and runs it with the hardened
 * configuration and environment (electron/main/host/process/git-hardening.ts). Nothing here
 * hardens git a second time; these tools only choose arguments the grammar already allows and
 * read git's machine-readable output.
 */

export const GIT = 'git';

/** Where a git tool runs: the working folder and, when the call names one, the file it is about. */
export interface GitPlace {
  readonly program: ResolvedProgram;
  /** Absolute working folder inside a repository. */
  readonly cwd: string;
  /** Absolute path of `file` (confined to the roots), when given. */
  readonly file?: string;
  /** Absolute path the call narrows to (a `path` that is a file, or a sub-folder), when any. */
  readonly scope?: string;
}

export interface PlaceInput {
  readonly path?: string | undefined;
  readonly file?: string | undefined;
}

const given = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** The refusals of resolving `git` said so an office worker's administrator can act on them. */
function programRefusal(refusal: ProgramRefusal): Text {
  switch (refusal.code) {
    case 'NOT_WHITELISTED':
      return m.notWhitelisted();
    case 'NOT_FOUND':
      return m.notInstalled();
    default:
      return m.programRefused(refusal.message);
  }
}

/** Whether a `.git` (folder or gitfile) exists in `folder` or above it, up to the root holding it. */
async function looksLikeRepository(ctx: PrecheckContext, folder: string): Promise<boolean> {
  const root = ctx.files.roots.find((r) => isSameOrInside(folder, r));
  let current = folder;
  for (let depth = 0; depth < 256; depth++) {
    try {
      if ((await ctx.files.stat(joinPath(current, '.git'))) !== null) return true;
    } catch (e) {
      if (!isFileAccessError(e)) throw e;
    }
    if (root === undefined || current === root || !isSameOrInside(parentPath(current), root)) return false;
    const up = parentPath(current);
    if (up === current) return false;
    current = up;
  }
  return false;
}

/** Up to five folders right below `folder` that hold a `.git`: where the model probably meant to look. */
async function repositoriesBelow(ctx: PrecheckContext, folder: string): Promise<string[]> {
  const found: string[] = [];
  try {
    const entries = await ctx.files.list(folder, { maxEntries: 500 });
    for (const e of entries.filter((x) => x.type === 'directory').slice(0, 200)) {
      if ((await ctx.files.stat(joinPath(e.path, '.git'))) !== null) found.push(ctx.files.display(e.path));
      if (found.length === 5) break;
    }
  } catch (e) {
    if (!isFileAccessError(e)) throw e;
  }
  return found;
}

/**
 * The program, the working folder (the `path` folder, or the folder of a `path` that is a file,
 * or the folder of `file`; default the first workspace root) and the file, each confined. Then
 * the host judges the very arguments the tool will run with in that folder (grammar, paths,
 * repository), so a call that cannot run is refused before anyone is asked (SPEC G-PRECHECK).
 */
export async function placeGit(
  ctx: PrecheckContext,
  where: PlaceInput,
  args: (place: Omit<GitPlace, 'program'>) => readonly string[],
  options: {
    readonly fileMustExist?: boolean;
    /**
     * false in execute: the run path judges the same arguments again itself (host prepare), so
     * asking here too would only probe the repository twice more.
     */
    readonly judge?: boolean;
  } = {},
): Promise<GitPlace | Failure> {
  const found = await ctx.processes.resolve(GIT);
  if (found.kind === 'refused') return failure(programRefusal(found));
  const pathArg = given(where.path);
  const fileArg = given(where.file);
  let cwd: string;
  let scope: string | undefined;
  let file: string | undefined;
  try {
    if (fileArg !== undefined) {
      file = await ctx.files.check(fileArg);
      const info = await ctx.files.stat(file);
      if (options.fileMustExist && info?.type !== 'file') return failure(m.notAFile(fileArg));
      if (info?.type === 'directory') scope = file;
    }
    const folderArg = pathArg ?? (file !== undefined ? undefined : '.');
    if (folderArg !== undefined) {
      const folder = await ctx.files.check(folderArg);
      const info = await ctx.files.stat(folder);
      if (info === null) return failure(m.notAFolder(folderArg));
      cwd = info.type === 'directory' ? folder : parentPath(folder);
      if (info.type !== 'directory') scope = folder;
      else if (pathArg !== undefined && scope === undefined && file === undefined) scope = folder;
    } else {
      // Only a file: its nearest existing folder (a deleted file's history is still asked for).
      let up = parentPath(file as string);
      while ((await ctx.files.stat(up))?.type !== 'directory' && ctx.files.roots.some((r) => isSameOrInside(parentPath(up), r))) up = parentPath(up);
      cwd = up;
    }
  } catch (e) {
    if (isFileAccessError(e)) return failure(fileErrorText(e));
    throw e;
  }
  const place = { cwd, ...(file !== undefined ? { file } : {}), ...(scope !== undefined ? { scope } : {}) };
  if (options.judge === false) return { program: found, ...place };
  const judged = await ctx.processes.resolve(GIT, { args: args(place), cwd, filtersHiddenPaths: true });
  if (judged.kind === 'refused') {
    if (judged.code === 'REPOSITORY_NOT_ALLOWED' && !(await looksLikeRepository(ctx, cwd))) {
      return failure(m.notARepository(ctx.files.display(cwd) || '.', await repositoriesBelow(ctx, cwd)));
    }
    return failure(judged.code === 'NOT_WHITELISTED' || judged.code === 'NOT_FOUND' ? programRefusal(judged) : judged.message);
  }
  return { program: judged, ...place };
}

/**
 * The plan of every git tool: no file is changed; the approval (if a rule asks) shows the command
 * line, the folder it runs in, and the git file that runs.
 */
export function gitPlan(place: GitPlace, argv: readonly string[], ctx: { readonly files: { display(p: string): string } }): Plan {
  const { program } = place;
  return {
    targets: [],
    program: { command: program.command, path: program.path, realPath: program.realPath, sha256: program.sha256 },
    preview: `git ${argv.join(' ')}\ncwd: ${shown(ctx, place.cwd)}\n${program.realPath}  SHA-256 ${program.sha256}`,
  };
}

export type GitRun =
  | { readonly ok: true; readonly text: string; readonly exitCode: number; readonly truncated: boolean }
  | { readonly ok: false; readonly result: ToolResult };

/**
 * One git run through the plan-scoped process capability (only the approved git file). Refusals,
 * start failures, timeouts and Stop become results; a non-zero exit is returned for the tool to
 * read (a bad revision is exit 128, whatever language git's message is in).
 */
export async function runGit(ctx: ToolContext, cwd: string, args: readonly string[]): Promise<GitRun> {
  const outcome = await ctx.processes.run({ command: GIT, args, cwd, timeoutMs: ctx.policy.defaultTimeoutMs, signal: ctx.signal, filtersHiddenPaths: true });
  switch (outcome.kind) {
    case 'refused':
      return { ok: false, result: fail(ctx.lang, outcome.message, { code: outcome.code }, 'refused') };
    case 'failed-to-start':
      return { ok: false, result: fail(ctx.lang, m.startFailed(outcome.message), { code: outcome.code }) };
    case 'timed-out':
      return { ok: false, result: { outcome: 'timeout', text: outcome.output.text.slice(0, 2_000), marker: `[timed out after ${outcome.timeoutMs} ms]` } };
    case 'cancelled':
      return { ok: false, result: { outcome: 'cancelled', text: '', marker: '[cancelled]' } };
    case 'exited':
      return { ok: true, text: outcome.output.text, exitCode: outcome.exitCode ?? -1, truncated: outcome.output.truncated };
  }
}

/** What a refusal or failure inside execute turns into. */
export function failed(ctx: { readonly lang: Lang }, f: Failure | Text, outcome: 'refused' | 'error' = 'refused'): ToolResult {
  return fail(ctx.lang, isFailure(f) ? f.failure : f, undefined, outcome);
}

export interface Located {
  /** The repository's work tree (absolute, as git prints it). */
  readonly top: string;
  /** Full commit ids of the refs asked for, in order. */
  readonly commits: readonly string[];
}

/**
 * The repository's top folder and the commits the refs name, in one `git rev-parse`: exit 128
 * means a ref names nothing (judged by the exit code, not by git's message, which may be Korean).
 * Each ref is peeled to a commit (`^{commit}`): a tree or blob id, or `ref:path`, is not a commit.
 */
export async function locate(ctx: ToolContext, cwd: string, refs: readonly string[]): Promise<Located | { readonly bad: true } | { readonly result: ToolResult }> {
  const ran = await runGit(ctx, cwd, ['rev-parse', '--path-format=absolute', '--show-toplevel', ...refs.map((r) => `${r}^{commit}`), '--']);
  if (!ran.ok) return { result: ran.result };
  // The repository itself was probed by the host before this ran, so a failure with refs given is
  // a ref that names no commit. stderr is merged into the capture (a warning may come first), so
  // the top folder and the ids are picked out by their shape, not their position.
  if (ran.exitCode !== 0) return refs.length > 0 ? { bad: true } : { result: fail(ctx.lang, m.gitFailed(ran.exitCode, ran.text)) };
  const lines = ran.text.split(/\r?\n/);
  const top = lines.find((l) => l.startsWith('/') || /^[A-Za-z]:[\\/]/.test(l));
  const commits = lines.filter((l) => /^[0-9a-f]{40,64}$/.test(l));
  if (top === undefined || commits.length !== refs.length) return { result: fail(ctx.lang, m.gitFailed(ran.exitCode, ran.text)) };
  return { top, commits };
}

/**
 * A ref as these tools accept it: a commit id, a branch, tag or remote name, HEAD, with `~N`,
 * `^N` or `@{N}` suffixes. Never starting with '-' (it would be read as an option), no ':' (that
 * reads a path out of a commit), no whitespace, control characters, '\\', or the glob and
 * revision-range characters git itself refuses in names (`* ? [ ..`). The grammar and git see only
 * what passes this; the refs go before `--`, so git reads them as revisions, never as paths.
 */
const REF = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{(?!\d{1,6}\}))[\p{L}\p{N}._/@{}+-]{1,200}(?:[~^]\d{0,6})*$/u;

export function refProblem(ref: string): Failure | null {
  return REF.test(ref) && !ref.endsWith('/') && !ref.endsWith('.') && !ref.endsWith('.lock') ? null : failure(m.badRef(ref));
}

/** `A..B` or `A...B` (diff) or one ref; each side checked. */
export function rangeRefs(ref: string): { readonly refs: readonly string[]; readonly separator: string } | Failure {
  const match = /^(.+?)(\.\.\.?)(.+)$/.exec(ref);
  const refs = match ? [match[1] as string, match[3] as string] : [ref];
  for (const r of refs) {
    const problem = refProblem(r);
    if (problem) return failure(m.badRef(ref));
  }
  return { refs, separator: match ? (match[2] as string) : '' };
}

/** A path git printed relative to the top of the work tree ('/' separators), made absolute. */
export function inRepository(ctx: ToolContext, top: string, relative: string): string {
  return ctx.files.resolve(joinPath(top, relative));
}

/**
 * The place as git should get it once the top folder is known: a `path` or `file` that is the
 * repository's top folder narrows nothing, and is dropped — as a pathspec it would also drop the
 * commits that change no file (history simplification).
 */
export function atTop<P extends Omit<GitPlace, 'program'>>(ctx: ToolContext, place: P, top: string): P {
  const topAbs = ctx.files.resolve(top);
  const { scope, file, ...rest } = place;
  return {
    ...rest,
    ...(scope !== undefined && !samePath(scope, topAbs) ? { scope } : {}),
    ...(file !== undefined && !samePath(file, topAbs) ? { file } : {}),
  } as P;
}

/** The file or folder a call narrows to, if it is inside the repository; a refusal otherwise. */
export function insideRepository(ctx: ToolContext, place: GitPlace, top: string): Failure | null {
  const topAbs = ctx.files.resolve(top);
  for (const p of [place.file, place.scope]) {
    if (p !== undefined && !isSameOrInside(p, topAbs)) return failure(m.fileOutsideRepository(ctx.files.display(p), ctx.files.display(topAbs) || '.'));
  }
  return null;
}

/**
 * The paths among `paths` (absolute) that may not be shown: those the policy's rules for this
 * tool cover, and those git may not be told about — the process host judges path arguments with
 * the file tools' confinement and the deny rules a filesystem.read of them meets
 * (host/process/program-paths.ts), the same judgement as
 * `git log -- <path>` through shell.execute. It is asked without running anything (resolve), a
 * whole batch at once, and halves of a refused batch until each refused path is found.
 */
export async function hiddenPaths(ctx: ToolContext, cwd: string, paths: readonly string[]): Promise<ReadonlySet<string>> {
  const hidden = new Set<string>();
  // First the deny and ask rules for this tool itself (`git.*(**/인사/**)`): the gate's path veto,
  // the one walks of the file tools obey (SPEC G-PERM: every path a tool lists).
  const rest: string[] = [];
  for (const p of new Set(paths)) {
    if (ctx.files.vetoed?.(p) === true) hidden.add(p);
    else rest.push(p);
  }
  const judge = async (batch: readonly string[]): Promise<void> => {
    if (batch.length === 0) return;
    const verdict = await ctx.processes.resolve(GIT, { args: ['log', '--', ...batch], cwd, filtersHiddenPaths: true });
    if (verdict.kind === 'resolved') return;
    if (batch.length === 1) {
      // Refused for any reason: not shown (fail closed).
      hidden.add(batch[0] as string);
      return;
    }
    const half = Math.ceil(batch.length / 2);
    await judge(batch.slice(0, half));
    await judge(batch.slice(half));
  };
  await judge(rest);
  return hidden;
}

/**
 * Where to show a path: relative to its workspace root ('.' for the root itself), control
 * characters written as escapes — a file name is the repository's (the agent's) text, and a name
 * with a newline must not read as another line of the answer.
 */
export function shown(ctx: { readonly files: { display(p: string): string } }, absolute: string): string {
  return printable(ctx.files.display(absolute) || '.');
}

export function printable(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

export function say(lang: Lang, t: Text): string {
  return pick(t, lang);
}
