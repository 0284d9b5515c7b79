import { Type } from '@sinclair/typebox';
import type { TrashEntry } from '../../electron/common/file-access';
import { text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type Plan, type PlanContext, type PlannedTarget } from '../kit/define-tool';
import { countNoun, quoted } from '../kit/format';
import { isSameOrInside, samePath } from '../kit/paths';
import { asFailure, checkSources, displayOf, expandSourceSpecs, MAX_TARGETS, renderRun, runTargets } from '../kit/targets';

/** Every entry below a folder, each with its fingerprint (folders too: a new file changes a folder's mtime). */
async function folderContents(folder: string, ctx: PlanContext, room: number): Promise<PlannedTarget[] | Failure> {
  try {
    const entries = await ctx.files.list(folder, { recursive: true, maxEntries: room + 1 });
    if (entries.length > room) {
      return failure(
        text(
          `'${displayOf(ctx.files, folder)}' 안의 항목이 너무 많습니다 (한 번에 ${MAX_TARGETS}개까지). 안쪽 폴더를 하나씩 지우세요.`,
          `'${displayOf(ctx.files, folder)}' holds too many entries (at most ${MAX_TARGETS} at once). Delete its subfolders one at a time.`,
        ),
      );
    }
    const listed: PlannedTarget[] = [];
    for (const entry of entries) {
      const fingerprint = await ctx.files.fingerprint(entry.path);
      if (fingerprint !== null) listed.push({ path: entry.path, fingerprint });
    }
    // Every folder carries its count, so any of them can be judged whole or not on its own.
    return listed.map((t) => (t.fingerprint?.type === 'directory' ? { ...t, contains: listed.filter((o) => o !== t && isSameOrInside(o.path, t.path)).length } : t));
  } catch (e) {
    return asFailure(e, ctx.files);
  }
}

/** Targets not inside another target: what the person named (a file, a folder, a glob's matches). */
function topLevel(targets: readonly PlannedTarget[]): PlannedTarget[] {
  return targets.filter((t) => !targets.some((other) => other !== t && other.fingerprint?.type === 'directory' && isSameOrInside(t.path, other.path)));
}

/** A whole folder when all it listed is still as approved; else its listed files one by one. */
function whatToTrash(kept: readonly PlannedTarget[]): PlannedTarget[] {
  const out: PlannedTarget[] = [];
  const visit = (targets: readonly PlannedTarget[]) => {
    for (const top of topLevel(targets)) {
      if (top.contains === undefined) {
        out.push(top);
        continue;
      }
      const below = kept.filter((t) => t !== top && isSameOrInside(t.path, top.path));
      // Whole, or judge what is below it the same way (a subfolder may still go whole).
      if (below.length === top.contains) out.push(top);
      else visit(below);
    }
  };
  visit(kept);
  return out;
}

const input = Type.Object(
  {
    path: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: 5000 })], {
      description: 'File or folder to delete, a glob such as "temp/*.log", or a list of them. Goes to Baram\'s trash.',
    }),
  },
  { additionalProperties: false },
);

export const filesystemDelete = defineTool({
  name: 'filesystem.delete',
  description: {
    ko: '파일이나 폴더를 Baram 휴지통으로 옮깁니다(글롭 가능, 예: *.tmp). 결과에 나온 trashId로 filesystem.restore를 쓰면 되돌릴 수 있습니다.',
    en: "Delete files or folders into Baram's trash (glob allowed, e.g. *.tmp). Undo with filesystem.restore and the trashId from the result.",
  },
  keywords: ['삭제', '지우기', '휴지통', '제거', 'delete', 'remove', 'trash', 'rm', 'del'],
  input,
  risk: 'destructive',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'exclusive',
  capabilities: ['files'],

  precheck: (args, ctx) => checkSources(args.path, 'path', ctx),

  async plan(args, ctx): Promise<Plan | Failure> {
    const sources = await expandSourceSpecs(args.path, 'path', ctx);
    if (isFailure(sources)) return sources;
    const root = sources.paths.find((p) => ctx.files.roots.some((r) => samePath(p, r)));
    if (root !== undefined) {
      return failure(
        text(
          '작업 폴더 자체는 지울 수 없습니다. 그 안의 파일을 지우려면 "폴더/*"처럼 패턴을 쓰세요.',
          'The workspace folder itself cannot be deleted. To delete what is inside, use a pattern such as "folder/*".',
        ),
      );
    }
    // A folder lists every entry below it (SPEC G-APPROVE: every affected file is shown), each
    // with its own fingerprint, then itself with their count (issue 14 class 6).
    const targets: PlannedTarget[] = [];
    for (const [i, path] of sources.paths.entries()) {
      const fingerprint = sources.fingerprints[i] ?? null;
      if (fingerprint?.type === 'directory') {
        const inside = await folderContents(path, ctx, MAX_TARGETS - targets.length);
        if (isFailure(inside)) return inside;
        targets.push(...inside, { path, fingerprint, contains: inside.length });
      } else {
        targets.push({ path, fingerprint });
      }
    }
    return { targets };
  },

  summarize(_args, plan, { files }) {
    const tops = topLevel(plan.targets);
    const first = tops[0];
    const inside = plan.targets.length - tops.length;
    const files_ = plan.targets.filter((t) => t.fingerprint?.type !== 'directory').length;
    const within = inside > 0 ? text(` — 안에 든 파일 ${files_}개 포함, 목록의 항목만`, ` — including the ${files_} files inside; only the listed items`) : text('', '');
    if (tops.length === 1 && first) {
      const shown = displayOf(files, first.path);
      return text(
        `${quoted(shown, '을')} Baram 휴지통으로 옮깁니다${within.ko} (되돌릴 수 있음)`,
        `Moves '${shown}' to Baram's trash${within.en} (can be restored)`,
      );
    }
    const n = countNoun(tops.map((t) => t.fingerprint?.type));
    return text(`${n.ko}를 Baram 휴지통으로 옮깁니다${within.ko} (되돌릴 수 있음)`, `Moves ${n.en} to Baram's trash${within.en} (can be restored)`);
  },

  async execute(_args, ctx) {
    const { files, lang } = ctx;
    // The gate left out whatever changed since approval. A folder whose listed entries are all
    // still as approved goes to the trash as one item (restored as one); otherwise only its listed,
    // unchanged files go, one by one, and the folder stays with whatever appeared in it.
    const acted = whatToTrash(ctx.plan.targets);
    const run = await runTargets({ ...ctx, plan: { ...ctx.plan, targets: acted } }, (t) => files.trash(t.path));
    const trashed: TrashEntry[] = run.done.map((d) => d.value);
    const n = countNoun(run.done.map((d) => d.target.fingerprint?.type));
    const headline =
      trashed.length > 0
        ? text(
            `${n.ko}를 휴지통으로 옮겼습니다. 되돌리려면 filesystem.restore에 trashId를 주세요.`,
            `Moved ${n.en} to the trash. To undo, call filesystem.restore with the trashId.`,
          )
        : text('아무것도 지우지 못했습니다.', 'Nothing was deleted.');
    const doneLines = run.done.map((d) => `${displayOf(files, d.target.path)}  (trashId: ${d.value.trashId})`);
    return renderRun(
      run,
      lang,
      {
        headline,
        doneLines,
        details: { trash: trashed.map((t) => ({ trashId: t.trashId, path: displayOf(files, t.originalPath) })) },
      },
      files,
    );
  },
});

