import { Type } from '@sinclair/typebox';
import type { TrashEntry } from '../../electron/common/file-access';
import { text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type Plan } from '../kit/define-tool';
import { countNoun, quoted } from '../kit/format';
import { samePath } from '../kit/paths';
import { checkSource, displayOf, expandSources, renderRun, runTargets } from '../kit/targets';

const input = Type.Object(
  {
    path: Type.String({ description: 'File or folder to delete, or a glob such as "temp/*.log". Goes to Baram\'s trash.' }),
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

  precheck: (args, ctx) => checkSource(args.path, 'path', ctx),

  async plan(args, ctx): Promise<Plan | Failure> {
    const sources = await expandSources(args.path, 'path', ctx);
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
    return { targets: sources.paths.map((path, i) => ({ path, fingerprint: sources.fingerprints[i] ?? null })) };
  },

  summarize(_args, plan, { files }) {
    const first = plan.targets[0];
    if (plan.targets.length === 1 && first) {
      const shown = displayOf(files, first.path);
      return text(`${quoted(shown, '을')} Baram 휴지통으로 옮깁니다 (되돌릴 수 있음)`, `Moves '${shown}' to Baram's trash (can be restored)`);
    }
    const n = countNoun(plan.targets.map((t) => t.fingerprint?.type));
    return text(`${n.ko}를 Baram 휴지통으로 옮깁니다 (되돌릴 수 있음)`, `Moves ${n.en} to Baram's trash (can be restored)`);
  },

  async execute(_args, ctx) {
    const { files, lang } = ctx;
    const run = await runTargets(ctx, (t) => files.trash(t.path));
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

