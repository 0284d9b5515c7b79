import { Type } from '@sinclair/typebox';
import { text } from '../../electron/common/i18n';
import { defineTool, failure, type Failure, type Plan, type PrecheckContext } from '../kit/define-tool';
import { fail } from '../kit/results';
import { quoted } from '../kit/format';
import { attempt, displayOf, emptyPathText, refuseWildcardName, renderRun, runTargets } from '../kit/targets';

const input = Type.Object(
  {
    path: Type.String({ description: 'Folder to create, relative to the workspace (missing parent folders are created too).' }),
  },
  { additionalProperties: false },
);

async function checkCreatable(path: string, ctx: PrecheckContext): Promise<Failure | null> {
  if (path.trim() === '') return failure(emptyPathText('path'));
  const wildcard = refuseWildcardName(path, 'path');
  if (wildcard) return wildcard;
  const info = await attempt(ctx.files, () => ctx.files.stat(path));
  if (info !== null && 'failure' in info) return info;
  if (info?.type === 'directory') {
    // Nothing to do: asking a person to approve a no-op would teach them to click without reading.
    return failure(
      text(`'${path}' 폴더는 이미 있습니다. 만들 필요 없이 그대로 쓰면 됩니다.`, `The folder '${path}' already exists. No need to create it; just use it.`),
    );
  }
  if (info !== null) {
    return failure(
      text(
        `'${path}'에 이미 같은 이름의 파일이 있어 폴더를 만들 수 없습니다. 다른 이름을 쓰세요.`,
        `A file named '${path}' already exists, so the folder cannot be created. Choose another name.`,
      ),
    );
  }
  const checked = await attempt(ctx.files, () => ctx.files.check(path));
  return typeof checked === 'string' ? null : checked;
}

export const filesystemMkdir = defineTool({
  name: 'filesystem.mkdir',
  description: {
    ko: '새 폴더를 만듭니다(없는 상위 폴더도 함께).',
    en: 'Create a new folder (and any missing parent folders).',
  },
  keywords: ['폴더 만들기', '새 폴더', '디렉터리 생성', 'mkdir', 'create folder', 'new folder', 'make directory'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'exclusive',
  capabilities: ['files'],

  precheck: (args, ctx) => checkCreatable(args.path, ctx),

  async plan(args, ctx): Promise<Plan | Failure> {
    const refused = await checkCreatable(args.path, ctx);
    if (refused) return refused;
    return { targets: [{ path: ctx.files.resolve(args.path), fingerprint: null }] };
  },

  summarize(args, plan, { files }) {
    const shown = plan.targets[0] ? displayOf(files, plan.targets[0].path) : args.path;
    return text(`${quoted(shown)} 폴더를 만듭니다`, `Creates the folder '${shown}'`);
  },

  async execute(args, ctx) {
    const { files, lang } = ctx;
    if (ctx.plan.targets.length === 0) return fail(lang, emptyPathText('path'));
    const run = await runTargets(ctx, (t) => files.mkdir(t.path));
    const shown = displayOf(files, ctx.plan.targets[0]?.path ?? args.path);
    return renderRun(run, lang, { headline: run.done.length ? text(`${quoted(shown)} 폴더를 만들었습니다.`, `Created the folder '${shown}'.`) : text('폴더를 만들지 못했습니다.', 'The folder was not created.'), doneLines: [] }, files);
  },
});
