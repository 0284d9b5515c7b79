import { Type } from '@sinclair/typebox';
import type { TrashEntry } from '../../electron/common/file-access';
import { text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type Plan, type PrecheckContext } from '../kit/define-tool';
import { fail } from '../kit/results';
import { localTime, quoted } from '../kit/format';
import { samePath } from '../kit/paths';
import { attempt, displayOf, refusal, renderRun, runTargets } from '../kit/targets';

/** Recent trash entries named when a trashId is unknown, so the model can pick the right one. */
const LISTED_RECENT = 10;

const input = Type.Object(
  {
    trashId: Type.String({ description: 'The trashId that filesystem.delete reported for the item.' }),
  },
  { additionalProperties: false },
);

/** Finds the entry and checks it can go back: its place is inside the workspace and still free. */
async function restorable(trashId: string, ctx: PrecheckContext): Promise<TrashEntry | Failure> {
  const { files } = ctx;
  const id = trashId.trim();
  if (id === '') {
    return failure(
      text('trashId가 비어 있습니다. filesystem.delete 결과에 나온 trashId를 그대로 주세요.', 'trashId is empty. Give the trashId exactly as filesystem.delete reported it.'),
    );
  }
  const entries = await attempt(files, () => files.trashList());
  if (!Array.isArray(entries)) return entries;
  const entry = entries.find((e) => e.trashId === id);
  if (!entry) {
    if (entries.length === 0) {
      return failure(text('Baram 휴지통이 비어 있어 되돌릴 것이 없습니다.', "Baram's trash is empty; there is nothing to restore."));
    }
    const recent = [...entries]
      .sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : a.deletedAt > b.deletedAt ? -1 : 0))
      .slice(0, LISTED_RECENT)
      .map((e) => `- ${e.trashId}: ${displayOf(files, e.originalPath)} (${localTime(Date.parse(e.deletedAt))})`)
      .join('\n');
    return failure(
      text(
        `trashId '${id}'는 휴지통에 없습니다. 최근에 지운 항목 중에서 골라 그 trashId를 주세요:\n${recent}`,
        `There is no trashId '${id}' in the trash. Pick one of the recently deleted items and give its trashId:\n${recent}`,
      ),
    );
  }
  const shown = displayOf(files, entry.originalPath);
  const checked = await attempt(files, () => files.check(entry.originalPath));
  if (typeof checked !== 'string') return checked;
  const occupied = await attempt(files, () => files.stat(entry.originalPath));
  if (occupied !== null && 'failure' in occupied) return occupied;
  if (occupied !== null) {
    return failure(
      text(
        `원래 자리 '${shown}'에 지금 다른 항목이 있어 되돌리지 않았습니다 (덮어쓰지 않습니다). 그 항목을 filesystem.move로 다른 이름으로 옮긴 뒤 다시 요청하세요.`,
        `Something else is now at the original place '${shown}', so nothing was restored (no overwriting). Move it to another name with filesystem.move, then try again.`,
      ),
    );
  }
  return entry;
}

export const filesystemRestore = defineTool({
  name: 'filesystem.restore',
  description: {
    ko: 'filesystem.delete로 휴지통에 옮긴 항목을 원래 자리로 되돌립니다. trashId는 삭제 결과에 있습니다.',
    en: 'Put an item deleted with filesystem.delete back in its original place. The trashId is in the delete result.',
  },
  keywords: ['복원', '되돌리기', '휴지통', '삭제 취소', 'restore', 'undelete', 'undo delete', 'trash'],
  input,
  risk: 'write',
  // A trashId is not a path, so there is nothing for path rules to match before planning. The
  // destination is the item's own original place (where a delete, itself approved, took it from),
  // and the host confines it like any other path.
  subject: null,
  concurrency: 'exclusive',
  capabilities: ['files'],

  async precheck(args, ctx) {
    const entry = await restorable(args.trashId, ctx);
    return isFailure(entry) ? entry : null;
  },

  async plan(args, ctx): Promise<Plan | Failure> {
    const entry = await restorable(args.trashId, ctx);
    if (isFailure(entry)) return entry;
    return { targets: [{ path: entry.originalPath, fingerprint: null, trashId: entry.trashId }] };
  },

  summarize(_args, plan, { files }) {
    const shown = plan.targets[0] ? displayOf(files, plan.targets[0].path) : '?';
    return text(`휴지통에서 ${quoted(shown, '을')} 원래 자리로 되돌립니다`, `Restores '${shown}' from the trash to its original place`);
  },

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const target = ctx.plan.targets[0];
    if (!target) return fail(lang, refusal('NOT_FOUND', args.trashId).failure);
    const shown = displayOf(files, target.path);
    const run = await runTargets(ctx, async () => {
      const entry = await restorable(args.trashId, ctx);
      if (isFailure(entry)) return entry;
      if (!samePath(entry.originalPath, target.path)) return refusal('CHANGED', shown);
      await files.restore(entry.trashId);
      return null;
    });
    const refused = run.done.find((d) => d.value !== null)?.value;
    if (refused) return fail(lang, refused.failure);
    const headline =
      run.done.length > 0
        ? text(`${quoted(shown, '을')} 원래 자리로 되돌렸습니다.`, `Restored '${shown}' to its original place.`)
        : text('되돌리지 못했습니다.', 'Nothing was restored.');
    return renderRun(run, lang, { headline, doneLines: [], details: { trashId: args.trashId.trim() } }, files);
  },
});
