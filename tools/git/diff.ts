import { Type } from '@sinclair/typebox';
import { text } from '../../electron/common/i18n';
import { defineTool, type Failure, type PrecheckContext } from '../kit/define-tool';
import { renderChanges } from './changes';
import { BudgetedText, parseNumstatPatch } from './git-output';
import { atTop, failed, gitPlan, insideRepository, locate, placeGit, rangeRefs, runGit, say, type GitPlace } from './git-run';
import { gitMessages as m } from './messages';

const input = Type.Object(
  {
    path: Type.Optional(Type.String({ description: 'Folder in a git repository; default the workspace.' })),
    file: Type.Optional(Type.String({ description: 'Only this file.' })),
    staged: Type.Optional(Type.Boolean({ description: 'Only staged changes.' })),
    ref: Type.Optional(Type.String({ description: 'Compare with this commit instead of HEAD; "A..B" for two commits.' })),
  },
  { additionalProperties: false },
);

type Input = { path?: string; file?: string; staged?: boolean; ref?: string };

const refOf = (a: Input): string | undefined => (a.ref === undefined || a.ref.trim() === '' ? undefined : a.ref.trim());

/**
 * What is compared: by default the work tree (staged or not) against the last commit — what an
 * office worker means by "what did I change"; `staged` compares the staging area instead; `ref`
 * names the other side (`A..B`: two commits). `revisions` are the located commit ids.
 */
function args(a: Input, place: Omit<GitPlace, 'program'>, revisions?: readonly string[]): string[] {
  const narrow = place.file ?? place.scope;
  const ref = refOf(a);
  const sides = revisions ?? (ref !== undefined ? [ref] : ['HEAD']);
  return ['diff', '--numstat', '--patch', '-z', '--no-color', '--find-renames', ...(a.staged ? ['--cached'] : []), ...sides, '--', ...(narrow !== undefined ? [narrow] : [])];
}

function refs(a: Input): readonly string[] | Failure {
  const ref = refOf(a);
  if (ref === undefined) return ['HEAD'];
  const range = rangeRefs(ref);
  return 'failure' in range ? range : range.refs;
}

async function checked(a: Input, ctx: PrecheckContext, judge = true) {
  const r = refs(a);
  if ('failure' in r) return r;
  return placeGit(ctx, a, (p) => args(a, p), { judge });
}

export const gitDiff = defineTool({
  name: 'git.diff',
  description: {
    ko: '커밋 이후 바뀐 내용(diff): 파일별 추가·삭제 줄. staged로 스테이징된 것만, ref로 다른 커밋과 비교합니다.',
    en: 'What changed since the last commit (git diff), per file and line.',
  },
  keywords: ['깃 디프', '차이', '비교', '바뀐 내용', '무엇이 바뀌었는지', '수정 내용', '변경 사항', 'git diff', 'diff', 'changes', 'compare', 'patch'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path', 'file'] },
  concurrency: 'parallel-safe',
  capabilities: ['processes', 'files'],

  async precheck(a: Input, ctx) {
    const place = await checked(a, ctx);
    return 'failure' in place ? place : null;
  },

  async plan(a: Input, ctx) {
    const place = await checked(a, ctx);
    return 'failure' in place ? place : gitPlan(place, args(a, place), ctx);
  },

  summarize: (a: Input) => text(`'${a.file ?? a.path ?? '.'}'의 바뀐 내용을 봅니다`, `Shows what changed in '${a.file ?? a.path ?? '.'}'`),

  async execute(a: Input, ctx) {
    const place = await checked(a, ctx, false);
    if ('failure' in place) return failed(ctx, place);
    const wanted = refs(a) as readonly string[];
    const ref = refOf(a);
    let where = await locate(ctx, place.cwd, wanted);
    let revisions: readonly string[] | undefined;
    let unborn = false;
    if ('bad' in where) {
      if (ref !== undefined) return failed(ctx, m.unknownRef(ref), 'error');
      // No commit yet: everything staged is new, compared against nothing.
      unborn = true;
      where = await locate(ctx, place.cwd, []);
      revisions = [];
    }
    if ('result' in where) return where.result;
    if ('bad' in where) return failed(ctx, m.noCommits(), 'error');
    const outside = insideRepository(ctx, place, where.top);
    if (outside) return failed(ctx, outside);
    const at = atTop(ctx, place, where.top);
    if (revisions === undefined) {
      const range = ref !== undefined ? rangeRefs(ref) : { refs: ['HEAD'], separator: '' };
      const sep = 'failure' in range ? '' : range.separator;
      revisions = sep === '' ? where.commits : [`${where.commits[0]}${sep}${where.commits[1]}`];
    }
    const ran = await runGit(ctx, place.cwd, args(unborn ? { ...a, staged: true } : a, at, revisions));
    if (!ran.ok) return ran.result;
    if (ran.exitCode !== 0) return failed(ctx, m.gitFailed(ran.exitCode, ran.text), 'error');
    const { files, sections } = parseNumstatPatch(ran.text);
    const lang = ctx.lang;
    const out = new BudgetedText(ctx.outputBudget);
    const against = unborn
      ? say(lang, text('아직 커밋이 없어 스테이징된 내용 전체를 새 파일로 보입니다.', 'No commits yet: everything staged is shown as new.'))
      : a.staged
        ? say(lang, text(`스테이징된 변경 (${ref ?? 'HEAD'} 대비):`, `Staged changes (against ${ref ?? 'HEAD'}):`))
        : ref?.includes('..')
          ? say(lang, text(`${ref} 사이의 변경:`, `Changes ${ref}:`))
          : say(lang, text(`작업 폴더의 변경 (${ref ?? '마지막 커밋'} 대비, 스테이징 여부 무관):`, `Changes in the work tree (against ${ref ?? 'the last commit'}, staged or not):`));
    out.add(against);
    const rendered = await renderChanges(ctx, out, { cwd: place.cwd, top: where.top }, files, sections, { truncatedCapture: ran.truncated });
    const notes = [...rendered.notes];
    if (!unborn && !a.staged && ref === undefined) notes.push(say(lang, text('추적하지 않는 새 파일은 여기 없습니다: git.status로 보세요.', 'Untracked new files are not included: see git.status.')));
    return { outcome: 'ok', text: out.text(notes), details: { files: rendered.files, hidden: rendered.hidden } };
  },
});
