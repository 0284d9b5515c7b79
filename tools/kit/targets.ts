import type { ReadOnlyFileAccess } from './define-tool';
import { FileAccessError, isFileAccessError, type Fingerprint } from '../../electron/common/file-access';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import type { ToolOutcome, ToolResult } from '../../electron/common/tool-result';
import { failure, isFailure, type Failure, type PlanContext, type PlannedTarget, type ToolContext } from './define-tool';
import { fileErrorText } from './file-errors';
import { cappedLines, josa } from './format';
import { baseName, hasGlobChars, isSameOrInside } from './paths';

/**
 * Planning and execution over expanded targets (SPEC G-APPROVE): globs are expanded BEFORE
 * approval so the human sees every file, and execution touches exactly the approved list,
 * re-checking each fingerprint first.
 */

/**
 * Most files one approval may cover. The seed's real case was 158 files; 5,000 still fits an
 * approval dialog a person can scroll, while a pattern matching more is almost always a mistake.
 */
export const MAX_TARGETS = 5000;

/** Converts a host error into a signpost refusal; any other exception is a bug and propagates. */
export function asFailure(e: unknown, files?: ReadOnlyFileAccess): Failure {
  if (!isFileAccessError(e)) throw e;
  return failure(explainFileError(e, files));
}

/** A host error as a signpost; with `files`, about the workspace-relative path. */
export function explainFileError(e: FileAccessError, files?: ReadOnlyFileAccess): Text {
  if (files === undefined) return fileErrorText(e);
  const shown = withDisplayPath(e, files);
  return (shown.code === 'NOT_FOUND' ? workspaceNamedAgain(shown.path, files) : null) ?? fileErrorText(shown);
}

/**
 * "./다운로드/휴가계.hwp" where the workspace already is the 다운로드 folder (issue 15 item 6): the
 * model repeated the folder's own name. Say so, and what to write instead.
 */
function workspaceNamedAgain(shown: string, files: ReadOnlyFileAccess): Text | null {
  const root = files.roots[0];
  if (root === undefined || /^([A-Za-z]:)?[\\/]/.test(shown)) return null;
  const parts = shown.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  const folder = baseName(root);
  if (parts.length === 0 || folder === '' || parts[0]!.normalize('NFC').toLowerCase() !== folder.normalize('NFC').toLowerCase()) return null;
  const instead = parts.slice(1).join('/') || '.';
  return text(
    `'${shown}'이(가) 없습니다. 작업 폴더가 이미 '${folder}' 폴더이므로 '${folder}/'를 빼고 '${instead}'${instead === '.' ? '을' : '(으)로'} 쓰세요 (작업 폴더 자체는 '.').`,
    `'${shown}' does not exist: the workspace already is the folder '${folder}'. Leave '${folder}/' out and write '${instead}' (the workspace itself is '.').`,
  );
}

/** Runs a host call; a FileAccessError becomes a Failure value (expected outcomes are values). */
export async function attempt<T>(files: ReadOnlyFileAccess, work: () => Promise<T>): Promise<T | Failure> {
  try {
    return await work();
  } catch (e) {
    return asFailure(e, files);
  }
}

/**
 * Host errors carry the path as we passed it, often absolute; the model knows workspace-relative
 * names. A path outside the roots keeps the form the model gave: resolving it would put host
 * details (user folders, drive layout) into the message.
 */
export function withDisplayPath(e: FileAccessError, files: ReadOnlyFileAccess): FileAccessError {
  const shown = displayOf(files, e.path);
  if (/^([A-Za-z]:)?[\\/]/.test(shown)) return e;
  return new FileAccessError(e.code, shown, e.message);
}

export function displayOf(files: ReadOnlyFileAccess, path: string): string {
  try {
    return files.display(path);
  } catch {
    return path;
  }
}

/** A refusal about `shownPath`; with `files`, about its workspace-relative form (explainFileError). */
export function refusal(code: FileAccessError['code'], shownPath: string, files?: ReadOnlyFileAccess): Failure {
  return failure(explainFileError(new FileAccessError(code, shownPath), files));
}

/**
 * Symbolic links (and devices) are not written or edited: the fingerprint would describe the link, not the
 * content behind it, so a change made after approval could go unnoticed.
 */
export function notRegularFile(path: string): Failure {
  return failure(
    text(
      `'${path}'은(는) 일반 파일이 아니라(심볼릭 링크 등) 고칠 수 없습니다. 링크가 가리키는 원래 파일의 경로로 다시 요청하세요.`,
      `'${path}' is not a regular file (e.g. a symbolic link) and cannot be changed. Repeat the request with the path of the file it points to.`,
    ),
  );
}

export const emptyPathText = (field: string): Text =>
  text(
    `${josa(field, '이')} 비어 있습니다. 작업 폴더 안의 경로를 주세요 (예: "보고서/2024.xlsx", 여러 파일은 "*.xlsx").`,
    `${field} is empty. Give a path inside the workspace (e.g. "reports/2024.xlsx", or "*.xlsx" for several files).`,
  );

export interface ExpandedSources {
  /** Absolute paths, sorted, none inside another (a matched folder carries its contents). */
  readonly paths: readonly string[];
  readonly fingerprints: readonly Fingerprint[];
  /** The argument was a glob (not an existing literal path). */
  readonly isPattern: boolean;
}

/**
 * Expands `spec` into existing paths. An existing path is taken literally even when it contains
 * glob characters: Korean office files are often named "[최종] 보고서.xlsx" or "보고서(1).xlsx".
 */
export async function expandSources(spec: string, field: string, ctx: PlanContext): Promise<ExpandedSources | Failure> {
  const files = ctx.files;
  if (spec.trim() === '') return failure(emptyPathText(field));
  const pattern = hasGlobChars(spec);
  let literal: Fingerprint | null;
  try {
    literal = await files.fingerprint(spec);
  } catch (e) {
    // A glob is not a path; the host may call it invalid. Confinement errors stay refusals.
    if (pattern && isFileAccessError(e) && (e.code === 'INVALID_PATH' || e.code === 'IO' || e.code === 'NOT_FOUND')) literal = null;
    else return asFailure(e, files);
  }
  if (literal) {
    // Spelled as on disk: typed 휴가계.hwp (NFC) may name a file from a Mac (NFD), and a move or copy
    // into a folder must keep that real name (docs/2026-12-03-names-match-nfc.md).
    const info = await attempt(files, () => files.stat(spec));
    if (info !== null && 'failure' in info) return info;
    return { paths: [info?.path ?? files.resolve(spec)], fingerprints: [literal], isPattern: false };
  }
  if (!pattern) return refusal('NOT_FOUND', spec, files);

  let matches: string[] = [];
  let tooMany = false;
  try {
    matches = await files.glob(spec, { maxMatches: MAX_TARGETS });
  } catch (e) {
    // The host refuses (TOO_LARGE) rather than return a partial expansion.
    if (isFileAccessError(e) && e.code === 'TOO_LARGE') tooMany = true;
    else return asFailure(e, files);
  }
  if (!tooMany && matches.length === 0) {
    const again = workspaceNamedAgain(displayOf(files, spec), files);
    if (again !== null) return failure(again);
    return failure(
      text(
        `'${spec}'에 맞는 파일이 없습니다. filesystem.search로 실제 파일 이름을 확인한 뒤 그 이름이나 패턴으로 다시 요청하세요.`,
        `Nothing matches '${spec}'. Use filesystem.search to see the actual file names, then repeat the request with one of them or a matching pattern.`,
      ),
    );
  }
  if (tooMany || matches.length > MAX_TARGETS) {
    return failure(
      text(
        `'${spec}'에 맞는 항목이 ${MAX_TARGETS}개를 넘습니다. 한 번에 ${MAX_TARGETS}개까지 다룰 수 있으니 폴더나 이름 패턴을 좁혀 나눠서 요청하세요.`,
        `More than ${MAX_TARGETS} entries match '${spec}'. One request can cover at most ${MAX_TARGETS}; narrow the folder or name pattern and split the work.`,
      ),
    );
  }

  const sorted = [...matches].sort();
  const paths: string[] = [];
  const fingerprints: Fingerprint[] = [];
  const folders: string[] = [];
  for (const path of sorted) {
    // `**` can match a folder and the files in it; acting on both would fail on the second.
    if (folders.some((folder) => isSameOrInside(path, folder))) continue;
    const fp = await attempt(files, () => files.fingerprint(path));
    if (fp === null) continue; // vanished between glob and stat: not a target
    if ('failure' in fp) return fp;
    paths.push(path);
    fingerprints.push(fp);
    if (fp.type === 'directory') folders.push(path);
  }
  if (paths.length === 0) return refusal('NOT_FOUND', spec, files);
  return { paths, fingerprints, isPattern: true };
}

/** A source argument: one path or glob, or a list of them ("these 74 files into 2022" is one call). */
export type SourceSpec = string | readonly string[];

/** How a source argument is named in messages. */
export function specText(spec: SourceSpec): string {
  return typeof spec === 'string' ? spec : spec.length <= 3 ? spec.join(', ') : `${spec.slice(0, 3).join(', ')} … (+${spec.length - 3})`;
}

/**
 * expandSources over a list: each entry a path or a glob, the union in order, duplicates and
 * entries inside a listed folder dropped. A list always acts "into a folder", like a glob.
 */
export async function expandSourceSpecs(spec: SourceSpec, field: string, ctx: PlanContext): Promise<ExpandedSources | Failure> {
  if (typeof spec === 'string') return expandSources(spec, field, ctx);
  if (spec.length === 0) return failure(emptyPathText(field));
  const paths: string[] = [];
  const fingerprints: Fingerprint[] = [];
  for (const one of spec) {
    const expanded = await expandSources(one, field, ctx);
    if (isFailure(expanded)) return expanded;
    for (const [i, path] of expanded.paths.entries()) {
      if (paths.some((p) => isSameOrInside(path, p))) continue;
      paths.push(path);
      fingerprints.push(expanded.fingerprints[i]!);
    }
  }
  if (paths.length > MAX_TARGETS) {
    return failure(
      text(
        `${field}의 항목이 ${MAX_TARGETS}개를 넘습니다. 나눠서 요청하세요.`,
        `${field} lists more than ${MAX_TARGETS} entries. Split the work.`,
      ),
    );
  }
  return { paths, fingerprints, isPattern: true };
}

/** checkSource over a list: every plain path must exist (globs are expanded by the plan). */
export async function checkSources(spec: SourceSpec, field: string, ctx: PlanContext): Promise<Failure | null> {
  if (typeof spec === 'string') return checkSource(spec, field, ctx);
  if (spec.length === 0) return failure(emptyPathText(field));
  for (const one of spec) {
    const refused = await checkSource(one, field, ctx);
    if (refused) return refused;
  }
  return null;
}

export { sameFingerprint } from '../../electron/common/file-access';

export interface TargetRun<R> {
  readonly done: { readonly target: PlannedTarget; readonly value: R }[];
  readonly skipped: { readonly target: PlannedTarget; readonly reason: Text; readonly code: string }[];
  readonly cancelled: boolean;
  /** Number of approved targets. */
  readonly total: number;
}

/**
 * Acts on exactly the approved targets, in order. The gate already left out targets that changed
 * since approval, and the plan-scoped file capability refuses one that changes in between
 * (CHANGED); such refusals, like every host refusal, are reported per target and the rest proceed.
 * Never re-expands a glob.
 */
export async function runTargets<R>(
  ctx: ToolContext,
  act: (target: PlannedTarget) => Promise<R>,
  /** A tool-specific signpost for a host refusal (e.g. EXISTS for move, which has no overwrite). */
  explain?: (e: FileAccessError, target: PlannedTarget) => Text | undefined,
): Promise<TargetRun<R>> {
  const done: { target: PlannedTarget; value: R }[] = [];
  const skipped: { target: PlannedTarget; reason: Text; code: string }[] = [];
  const files = ctx.files;
  const total = ctx.plan.targets.length;
  for (const target of ctx.plan.targets) {
    if (ctx.signal.aborted) return { done, skipped, cancelled: true, total };
    try {
      done.push({ target, value: await act(target) });
    } catch (e) {
      if (!isFileAccessError(e)) throw e;
      skipped.push({ target, code: e.code, reason: explain?.(e, target) ?? explainFileError(e, files) });
    }
  }
  return { done, skipped, cancelled: false, total };
}

/**
 * Renders a run for the model: headline, the list of what was done, then what was skipped and why.
 * Outcome: `cancelled` when Stop interrupted it, `error` when nothing could be done, else `ok`
 * (a partial success is reported item by item, so the model does not repeat the finished part).
 */
export function renderRun<R>(
  run: TargetRun<R>,
  lang: Lang,
  parts: { readonly headline: Text; readonly doneLines: readonly string[]; readonly details?: Record<string, unknown> },
  files: ReadOnlyFileAccess,
): ToolResult {
  const lines: string[] = [pick(parts.headline, lang)];
  lines.push(...cappedLines(parts.doneLines.map((l) => `- ${l}`), lang));
  if (run.skipped.length > 0) {
    lines.push(pick(text(`건너뜀 ${run.skipped.length}개:`, `Skipped ${run.skipped.length}:`), lang));
    lines.push(...cappedLines(run.skipped.map((s) => `- ${pick(s.reason, lang)}`), lang));
  }
  if (run.cancelled) {
    const left = Math.max(0, run.total - run.done.length - run.skipped.length);
    lines.push(
      pick(
        text(
          `사용자가 중지해서 나머지 ${left}개는 손대지 않았습니다.`,
          `Stopped by the user; the remaining ${left} were not touched.`,
        ),
        lang,
      ),
    );
  }
  const outcome: ToolOutcome = run.cancelled ? 'cancelled' : run.done.length === 0 && run.skipped.length > 0 ? 'error' : 'ok';
  return {
    outcome,
    text: lines.join('\n'),
    details: {
      done: run.done.map((d) => displayOf(files, d.target.path)),
      skipped: run.skipped.map((s) => ({ path: displayOf(files, s.target.path), code: s.code })),
      ...(run.cancelled ? { cancelled: true } : {}),
      ...parts.details,
    },
  };
}

/**
 * A new name may not contain `*` or `?`: Windows forbids them in names, and in a destination they
 * mean the model expected a pattern to be expanded where only one path can be.
 */
export function refuseWildcardName(path: string, field: string): Failure | null {
  if (!/[*?]/.test(path)) return null;
  return failure(
    text(
      `${josa(field, '은')} 새로 만들 경로 하나여야 합니다. '${path}'처럼 *나 ?는 쓸 수 없습니다. 폴더나 파일 이름을 그대로 주세요.`,
      `${field} must be one new path; '${path}' contains * or ?, which cannot be used there. Give the folder or file name itself.`,
    ),
  );
}

/**
 * Cheap precheck for a source argument (a path or a glob): empty, or a plain path that does not
 * exist. Globs are expanded by the plan, which runs next, still before approval.
 */
export async function checkSource(spec: string, field: string, ctx: PlanContext): Promise<Failure | null> {
  if (spec.trim() !== '' && hasGlobChars(spec)) return null;
  return checkExisting(spec, field, ctx, 'any');
}

/**
 * Precheck of tools that act on one existing entry: an empty path, a missing entry and host
 * refusals (outside the roots, protected) are refused before approval; `file` also refuses folders.
 */
export async function checkExisting(path: string, field: string, ctx: PlanContext, want: 'file' | 'any'): Promise<Failure | null> {
  if (path.trim() === '') return failure(emptyPathText(field));
  const info = await attempt(ctx.files, () => ctx.files.stat(path));
  if (info === null) return refusal('NOT_FOUND', path, ctx.files);
  if ('failure' in info) return info;
  if (want === 'file' && info.type === 'directory') return refusal('IS_DIRECTORY', path);
  return null;
}

/**
 * Most glob matches a listing or search asks the host for. Only LIST_CAP are shown; the count up
 * to this bound tells the model how much it missed, beyond it only "narrow the pattern" helps.
 */
export const MAX_COUNTED_MATCHES = 10_000;

/** Expands a name-pattern glob for list/search; `tooMany` when the host refused to expand more. */
export async function globForListing(files: ReadOnlyFileAccess, pattern: string): Promise<{ readonly paths: readonly string[]; readonly tooMany: boolean }> {
  try {
    return { paths: await files.glob(pattern, { maxMatches: MAX_COUNTED_MATCHES }), tooMany: false };
  } catch (e) {
    if (isFileAccessError(e) && e.code === 'TOO_LARGE') return { paths: [], tooMany: true };
    throw e;
  }
}
