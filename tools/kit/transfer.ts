import type { ReadOnlyFileAccess } from './define-tool';
import { pick, text, type Text } from '../../electron/common/i18n';
import type { ToolResult } from '../../electron/common/tool-result';
import { failure, isFailure, type Failure, type Plan, type PlanContext, type PlannedTarget, type ToolContext } from './define-tool';
import { countNoun, quoted } from './format';
import { baseName, endsWithSeparator, isSameOrInside, joinPath, parentPath, samePath } from './paths';
import { attempt, displayOf, emptyPathText, expandSourceSpecs, refuseWildcardName, renderRun, runTargets, specText, type SourceSpec } from './targets';

/**
 * Shared by filesystem.move and filesystem.copy (they differ only in the host call and wording).
 *
 * Where things go:
 * - `from` is a glob, or matches several entries, or `to` is an existing folder or ends in '/':
 *   every match goes INTO the folder `to`, under its own name (matches from subfolders land side
 *   by side; two with the same name are refused). A missing `to` folder is created — the common
 *   request "엑셀 파일을 2024 폴더로 정리해줘" names a folder that does not exist yet, and one
 *   approval listing the new folder beats a second approval for mkdir.
 * - otherwise `to` is the new path of the single entry (rename); a missing parent folder is created.
 * Nothing is ever overwritten: an existing destination refuses the whole request before approval,
 * naming the clashes, and the host refuses again at execution if one appeared since.
 * The folder to create is a planned target without `to`, so the approval lists it too.
 */

export type TransferVerb = 'move' | 'copy';

/** Destination clashes listed in a refusal; more are counted. */
const MAX_LISTED_CONFLICTS = 10;

interface Wording {
  readonly doing: (what: string, where: string) => Text;
  readonly done: (what: Text, where: string) => Text;
  readonly none: Text;
}

const WORDING: Readonly<Record<TransferVerb, Wording>> = {
  move: {
    doing: (what, where) => text(`${what} ${quoted(where, '로')} 옮깁니다`, `Moves ${what} to '${where}'`),
    done: (what, where) => text(`${what.ko}를 ${quoted(where, '로')} 옮겼습니다.`, `Moved ${what.en} to '${where}'.`),
    none: text('아무것도 옮기지 못했습니다.', 'Nothing was moved.'),
  },
  copy: {
    doing: (what, where) => text(`${what} ${quoted(where, '로')} 복사합니다`, `Copies ${what} to '${where}'`),
    done: (what, where) => text(`${what.ko}를 ${quoted(where, '로')} 복사했습니다.`, `Copied ${what.en} to '${where}'.`),
    none: text('아무것도 복사하지 못했습니다.', 'Nothing was copied.'),
  },
};

function conflictText(lines: readonly string[], total: number, verb: TransferVerb): Text {
  const listed = lines.map((l) => `- ${l}`).join('\n');
  const more = total > lines.length ? `\n… (+${total - lines.length})` : '';
  const what = verb === 'move' ? text('옮길', 'move') : text('복사할', 'copy');
  return text(
    `${what.ko} 곳에 이미 같은 이름이 있거나 옮길 수 없는 경로라 아무것도 하지 않았습니다 (덮어쓰지 않습니다):\n${listed}${more}\n` +
      '다른 to를 주거나, 기존 파일을 먼저 다른 이름으로 옮기거나 filesystem.delete(복원 가능)로 지운 뒤 다시 요청하세요.',
    `Nothing was done: these destinations already exist or are not possible (files are never overwritten):\n${listed}${more}\n` +
      `Choose another 'to', or first rename the existing files or delete them with filesystem.delete (restorable), then ${what.en} again.`,
  );
}

/** What to do where a destination already exists: refuse everything (the default), skip that one, or keep both. */
export type OnConflict = 'refuse' | 'skip' | 'keepBoth';

/** "보고서.xlsx" → "보고서 (2).xlsx", the first name that is free on disk and in this plan. */
async function freeName(destination: string, taken: ReadonlySet<string>, files: ReadOnlyFileAccess): Promise<string | Failure> {
  const folder = parentPath(destination);
  const name = baseName(destination);
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; n < 1000; n++) {
    const candidate = joinPath(folder, `${stem} (${n})${ext}`);
    if (taken.has(candidate.toLowerCase())) continue;
    const existing = await attempt(files, () => files.fingerprint(candidate));
    if (existing !== null && 'failure' in existing) return existing;
    if (existing === null) return candidate;
  }
  return failure(text(`'${name}'에 쓸 새 이름을 찾지 못했습니다.`, `No free name was found for '${name}'.`));
}

export async function planTransfer(
  args: { from: SourceSpec; to: string; onConflict?: OnConflict | undefined },
  ctx: PlanContext,
  verb: TransferVerb,
): Promise<Plan | Failure> {
  const { files } = ctx;
  const onConflict = args.onConflict ?? 'refuse';
  const sources = await expandSourceSpecs(args.from, 'from', ctx);
  if (isFailure(sources)) return sources;
  if (args.to.trim() === '') return failure(emptyPathText('to'));
  const wildcard = refuseWildcardName(args.to, 'to');
  if (wildcard) return wildcard;
  const checked = await attempt(files, () => files.check(args.to));
  if (typeof checked !== 'string') return checked;
  const toInfo = await attempt(files, () => files.stat(args.to));
  if (toInfo !== null && 'failure' in toInfo) return toInfo;
  const toPath = files.resolve(args.to);

  const intoFolder = sources.isPattern || sources.paths.length > 1 || toInfo?.type === 'directory' || endsWithSeparator(args.to);
  if (intoFolder && toInfo && toInfo.type !== 'directory') {
    return failure(
      text(
        `'${args.to}'은(는) 파일입니다. 여러 항목이나 패턴(${specText(args.from)})을 옮길 때 to는 폴더여야 합니다. 폴더 경로를 주세요 (없으면 새로 만듭니다).`,
        `'${args.to}' is a file. When several entries or a pattern (${specText(args.from)}) are moved or copied, 'to' must be a folder. Give a folder path (a missing one is created).`,
      ),
    );
  }

  let createFolder: string | undefined;
  if (intoFolder) {
    if (!toInfo) createFolder = toPath;
  } else {
    const parent = parentPath(toPath);
    const parentInfo = await attempt(files, () => files.stat(parent));
    if (parentInfo !== null && 'failure' in parentInfo) return parentInfo;
    if (parentInfo === null) createFolder = parent;
    else if (parentInfo.type !== 'directory') {
      return failure(
        text(`'${displayOf(files, parent)}'은(는) 폴더가 아니라 파일입니다. to에 폴더 안의 경로를 주세요.`, `'${displayOf(files, parent)}' is a file, not a folder. Give a 'to' inside a folder.`),
      );
    }
  }

  const targets: PlannedTarget[] = createFolder ? [{ path: createFolder, fingerprint: null }] : [];
  const conflicts: string[] = [];
  const skipped: string[] = [];
  const renamed: string[] = [];
  const destinations = new Map<string, string>();
  let skippedSelf: string | undefined;
  for (const [i, source] of sources.paths.entries()) {
    // "정리해줘": `*` → `정리` also matches the folder 정리 itself, which cannot go into itself and
    // was not meant to; it is left out (and the preview says so).
    if (sources.isPattern && intoFolder && samePath(source, toPath)) {
      skippedSelf = displayOf(files, source);
      continue;
    }
    let destination = intoFolder ? joinPath(toPath, baseName(source)) : toPath;
    const shownSource = displayOf(files, source);
    const key = destination.toLowerCase();
    let clash: string | undefined;
    if (samePath(source, destination)) {
      clash = pick(text(`${shownSource}: 이미 그 자리에 있습니다`, `${shownSource}: already there`), ctx.lang);
    } else if (isSameOrInside(destination, source)) {
      conflicts.push(pick(text(`${shownSource}: 폴더를 자기 안으로 옮길 수 없습니다`, `${shownSource}: a folder cannot go inside itself`), ctx.lang));
      continue;
    } else if (destinations.has(key)) {
      clash = pick(text(`${displayOf(files, destination)}: ${destinations.get(key)}와(과) 이름이 같습니다`, `${displayOf(files, destination)}: same name as ${destinations.get(key)}`), ctx.lang);
    } else {
      const existing = createFolder ? null : await attempt(files, () => files.fingerprint(destination));
      if (existing !== null && 'failure' in existing) return existing;
      if (existing !== null) clash = pick(text(`${displayOf(files, destination)}: 이미 있습니다`, `${displayOf(files, destination)}: already exists`), ctx.lang);
    }
    if (clash !== undefined) {
      // The approval shows what each choice does: skipped entries and new names are listed.
      if (onConflict === 'skip' || samePath(source, destination)) {
        if (onConflict === 'refuse') conflicts.push(clash);
        else skipped.push(clash);
        continue;
      }
      if (onConflict === 'refuse') {
        conflicts.push(clash);
        continue;
      }
      const free = await freeName(destination, new Set(destinations.keys()), files);
      if (isFailure(free)) return free;
      destination = free;
      renamed.push(`${shownSource} → ${displayOf(files, destination)}`);
    }
    destinations.set(destination.toLowerCase(), shownSource);
    targets.push({ path: source, to: destination, fingerprint: sources.fingerprints[i] ?? null });
  }
  if (conflicts.length > 0) return failure(conflictText(conflicts.slice(0, MAX_LISTED_CONFLICTS), conflicts.length, verb));
  if (!targets.some((t) => t.to !== undefined)) {
    if (skipped.length > 0) {
      return failure(text(`옮길 것이 없습니다: 모두 이미 있어 건너뜁니다.\n${skipped.join('\n')}`, `Nothing to do: every entry already exists there and is skipped.\n${skipped.join('\n')}`));
    }
    return failure(
      text(
        `'${specText(args.from)}'에 맞는 것이 대상 폴더 자신뿐입니다. 옮길 파일에 맞는 패턴을 주세요 (이름은 filesystem.search로 확인).`,
        `The only match for '${specText(args.from)}' is the destination folder itself. Give a pattern that matches the files to move (check names with filesystem.search).`,
      ),
    );
  }

  const notes: string[] = [];
  if (createFolder) {
    notes.push(pick(text(`새 폴더 ${quoted(displayOf(files, createFolder), '을')} 만듭니다.`, `Creates the new folder '${displayOf(files, createFolder)}'.`), ctx.lang));
  }
  if (skipped.length > 0) {
    notes.push(pick(text(`이름이 겹쳐 건너뛰는 ${skipped.length}개:`, `Skipped, because the name is taken (${skipped.length}):`), ctx.lang), ...skipped.map((l) => `- ${l}`));
  }
  if (renamed.length > 0) {
    notes.push(pick(text(`이름이 겹쳐 새 이름으로 ${verb === 'move' ? '옮기는' : '복사하는'} ${renamed.length}개:`, `Kept both: new names for ${renamed.length}:`), ctx.lang), ...renamed.map((l) => `- ${l}`));
  }
  if (skippedSelf !== undefined) {
    notes.push(pick(text(`대상 폴더 ${quoted(skippedSelf, '은')} 패턴에 맞지만 제외합니다.`, `The destination folder '${skippedSelf}' matches the pattern and is left out.`), ctx.lang));
  }
  return notes.length === 0 ? { targets } : { targets, preview: notes.join('\n') };
}

function transfers(plan: Plan): readonly PlannedTarget[] {
  return plan.targets.filter((t) => t.to !== undefined);
}

/**
 * The place named in summaries: the exact new path of a single entry, or the folder that several
 * entries go into (they all share it).
 */
function destinationShown(items: readonly PlannedTarget[], files: ReadOnlyFileAccess): string {
  const first = items[0];
  if (!first?.to) return '';
  return displayOf(files, items.length > 1 ? parentPath(first.to) : first.to) || '.';
}

export function summarizeTransfer(plan: Plan, files: ReadOnlyFileAccess, verb: TransferVerb): Text {
  const items = transfers(plan);
  const where = destinationShown(items, files);
  const first = items[0];
  const what =
    items.length === 1 && first
      ? text(quoted(displayOf(files, first.path), '을'), `'${displayOf(files, first.path)}'`)
      : (() => {
          const n = countNoun(items.map((t) => t.fingerprint?.type));
          return text(`${n.ko}를`, n.en);
        })();
  const w = WORDING[verb];
  const base = text(w.doing(what.ko, where).ko, w.doing(what.en, where).en);
  const folder = plan.targets.find((t) => t.to === undefined);
  if (!folder) return base;
  const shownFolder = displayOf(files, folder.path);
  return text(`${base.ko} (새 폴더 ${quoted(shownFolder)} 포함)`, `${base.en} (creating the folder '${shownFolder}')`);
}

export async function executeTransfer(ctx: ToolContext, verb: TransferVerb): Promise<ToolResult> {
  const { files, lang } = ctx;
  const run = await runTargets(ctx, async (t) => {
    if (t.to === undefined) {
      await files.mkdir(t.path);
      return 'folder' as const;
    }
    // Never overwrite: a destination that appeared since approval makes the host refuse (EXISTS).
    if (verb === 'move') await files.move(t.path, t.to, { overwrite: false });
    else await files.copy(t.path, t.to, { overwrite: false });
    return 'item' as const;
  }, (e, t) => {
    if (e.code !== 'EXISTS' || t.to === undefined) return undefined;
    const shown = displayOf(files, t.to);
    return text(
      `${quoted(shown, '이')} 승인 뒤에 생겨 덮어쓰지 않았습니다. 다른 to를 주거나 그 파일을 filesystem.delete(복원 가능)로 지운 뒤 다시 요청하세요.`,
      `'${shown}' appeared after approval and was not overwritten. Choose another 'to', or delete it with filesystem.delete (restorable) and try again.`,
    );
  });
  const items = run.done.filter((d) => d.value === 'item');
  const folders = run.done.filter((d) => d.value === 'folder');
  const approvedItems = transfers(ctx.plan);
  const where = destinationShown(approvedItems, files);
  const w = WORDING[verb];
  const headline = items.length > 0 ? w.done(countNoun(items.map((d) => d.target.fingerprint?.type)), where) : w.none;
  const doneLines = [
    ...folders.map((d) => pick(text(`새 폴더: ${displayOf(files, d.target.path)}`, `new folder: ${displayOf(files, d.target.path)}`), lang)),
    ...items.map((d) => `${displayOf(files, d.target.path)} → ${displayOf(files, d.target.to ?? '')}`),
  ];
  const result = renderRun(run, lang, { headline, doneLines, details: { [verb === 'move' ? 'moved' : 'copied']: items.length } }, files);
  // Creating the folder alone is not success: nothing the model asked for happened.
  return items.length === 0 && result.outcome === 'ok' && approvedItems.length > 0 ? { ...result, outcome: 'error' } : result;
}
