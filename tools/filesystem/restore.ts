import { Type } from '@sinclair/typebox';
import type { TrashEntry } from '../../electron/common/file-access';
import { text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type Plan, type PrecheckContext } from '../kit/define-tool';
import { localTime, quoted } from '../kit/format';
import { baseName, joinPath } from '../kit/paths';
import { attempt, displayOf, renderRun, runTargets } from '../kit/targets';

/** Recent trash entries named when a trashId is unknown, so the model can pick the right one. */
const LISTED_RECENT = 10;

const input = Type.Object(
  {
    trashId: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: 5000 })], {
      description: 'The trashId that filesystem.delete (or filesystem.trash) reported, or a list of them: one approval restores them all.',
    }),
    to: Type.Optional(
      Type.String({ description: 'Put it back elsewhere: a new path for one item, or a folder for several (created if missing). Default: the original place.' }),
    ),
  },
  { additionalProperties: false },
);

/** Where an entry goes back: its original place, or `to` (a new name for one item, a folder for several). */
function destinationOf(entry: TrashEntry, to: string | undefined, several: boolean, ctx: PrecheckContext): string {
  if (to === undefined || to.trim() === '') return entry.originalPath;
  return several || /[\\/]$/.test(to) ? joinPath(ctx.files.resolve(to), baseName(entry.originalPath)) : ctx.files.resolve(to);
}

function idsOf(trashId: string | readonly string[]): string[] {
  return (typeof trashId === 'string' ? [trashId] : [...trashId]).map((id) => id.trim());
}

/** Every entry, each able to go back to its destination (inside the workspace, still free), or the first refusal. */
async function restorables(args: { trashId: string | readonly string[]; to?: string | undefined }, ctx: PrecheckContext): Promise<{ entry: TrashEntry; destination: string }[] | Failure> {
  const ids = idsOf(args.trashId);
  const out: { entry: TrashEntry; destination: string }[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    const found = await restorable(id, ctx, (entry) => destinationOf(entry, args.to, ids.length > 1, ctx));
    if (isFailure(found)) return found;
    const key = found.destination.toLowerCase();
    if (seen.has(key)) {
      return failure(
        text(
          `되돌릴 항목 둘이 같은 자리 '${displayOf(ctx.files, found.destination)}'로 갑니다. 하나씩 다른 to로 되돌리세요.`,
          `Two items would go back to the same place '${displayOf(ctx.files, found.destination)}'. Restore them one at a time with different 'to'.`,
        ),
      );
    }
    seen.add(key);
    out.push(found);
  }
  return out;
}

/** Finds the entry and checks it can go back: its place is inside the workspace and still free. */
async function restorable(trashId: string, ctx: PrecheckContext, placeOf: (entry: TrashEntry) => string): Promise<{ entry: TrashEntry; destination: string } | Failure> {
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
  const destination = placeOf(entry);
  const shown = displayOf(files, destination);
  const checked = await attempt(files, () => files.check(destination));
  if (typeof checked !== 'string') return checked;
  const occupied = await attempt(files, () => files.stat(destination));
  if (occupied !== null && 'failure' in occupied) return occupied;
  if (occupied !== null) {
    return failure(
      text(
        `되돌릴 자리 '${shown}'에 지금 다른 항목이 있어 되돌리지 않았습니다 (덮어쓰지 않습니다). to로 다른 이름을 주거나, 그 항목을 filesystem.move로 옮긴 뒤 다시 요청하세요.`,
        `Something else is now at '${shown}', so nothing was restored (no overwriting). Give another name with 'to', or move it away with filesystem.move, then try again.`,
      ),
    );
  }
  return { entry, destination };
}

export const filesystemRestore = defineTool({
  name: 'filesystem.restore',
  description: {
    ko: 'filesystem.delete로 휴지통에 옮긴 항목을 되돌립니다(여러 trashId를 한 번에, to로 다른 이름·폴더에). trashId는 삭제 결과나 filesystem.trash에 있습니다.',
    en: 'Put items deleted with filesystem.delete back (several trashIds at once; to for another name or folder). trashIds are in the delete result or filesystem.trash.',
  },
  keywords: ['복원', '되돌리기', '살리기', '되살리기', '휴지통', '지운 파일', '삭제 취소', 'restore', 'undelete', 'undo delete', 'trash'],
  input,
  risk: 'write',
  // A trashId is not a path, so there is nothing for path rules to match before planning. The
  // destination is the item's own original place (where a delete, itself approved, took it from),
  // and the host confines it like any other path.
  subject: null,
  concurrency: 'exclusive',
  capabilities: ['files'],

  async precheck(args, ctx) {
    const entries = await restorables(args, ctx);
    return isFailure(entries) ? entries : null;
  },

  async plan(args, ctx): Promise<Plan | Failure> {
    const entries = await restorables(args, ctx);
    if (isFailure(entries)) return entries;
    return { targets: entries.map(({ entry, destination }) => ({ path: destination, fingerprint: null, trashId: entry.trashId })) };
  },

  summarize(args, plan, { files }) {
    const first = plan.targets[0];
    const elsewhere = args.to !== undefined && args.to.trim() !== '';
    if (plan.targets.length === 1 && first) {
      const shown = displayOf(files, first.path);
      return elsewhere
        ? text(`휴지통에서 항목 하나를 ${quoted(shown, '로')} 되돌립니다`, `Restores one item from the trash to '${shown}'`)
        : text(`휴지통에서 ${quoted(shown, '을')} 원래 자리로 되돌립니다`, `Restores '${shown}' from the trash to its original place`);
    }
    const n = plan.targets.length;
    return elsewhere
      ? text(`휴지통에서 ${n}개를 ${quoted(displayOf(files, args.to ?? ''), '로')} 되돌립니다`, `Restores ${n} items from the trash into '${displayOf(files, args.to ?? '')}'`)
      : text(`휴지통에서 ${n}개를 원래 자리로 되돌립니다`, `Restores ${n} items from the trash to their original places`);
  },

  async execute(_args, ctx) {
    const { files, lang } = ctx;
    const run = await runTargets(ctx, async (t) => {
      await files.restore(t.trashId ?? '', { to: t.path });
      return t;
    });
    const only = run.done.length === 1 && run.total === 1 ? run.done[0] : undefined;
    const shown = only ? displayOf(files, only.target.path) : '';
    const headline = only
      ? text(`${quoted(shown, '을')} 되돌렸습니다.`, `Restored '${shown}'.`)
      : run.done.length > 0
        ? text(`${run.done.length}개를 되돌렸습니다.`, `Restored ${run.done.length}.`)
        : text('되돌리지 못했습니다.', 'Nothing was restored.');
    const doneLines = only ? [] : run.done.map((d) => displayOf(files, d.target.path));
    return renderRun(run, lang, { headline, doneLines, details: { restored: run.done.map((d) => ({ trashId: d.target.trashId, path: displayOf(files, d.target.path) })) } }, files);
  },
});
