import { Type } from '@sinclair/typebox';
import { text } from '../../electron/common/i18n';
import { defineTool } from '../kit/define-tool';
import { BudgetedText, LOG_FORMAT, parseLog } from './git-output';
import { atTop, failed, gitPlan, insideRepository, locate, placeGit, printable, refProblem, runGit, say, shown, type GitPlace } from './git-run';
import { gitMessages as m } from './messages';

const input = Type.Object(
  {
    path: Type.Optional(Type.String({ description: 'Folder in a git repository; default the workspace.' })),
    file: Type.Optional(Type.String({ description: 'Only commits that changed this file.' })),
    ref: Type.Optional(Type.String({ description: 'Start here instead of HEAD.' })),
    maxCount: Type.Optional(Type.Integer({ description: 'Default 20, max 200.' })),
  },
  { additionalProperties: false },
);

type Input = { path?: string; file?: string; ref?: string; maxCount?: number };

const DEFAULT_COUNT = 20;
const MAX_COUNT = 200;

const count = (a: Input): number => Math.min(Math.max(Math.round(a.maxCount ?? DEFAULT_COUNT), 1), MAX_COUNT);
const refOf = (a: Input): string | undefined => (a.ref === undefined || a.ref.trim() === '' ? undefined : a.ref.trim());

function args(a: Input, place: Omit<GitPlace, 'program'>, start?: string): string[] {
  const narrow = place.file ?? place.scope;
  // --follow only for one file: it follows a single path across renames.
  const follow = place.file !== undefined && place.scope !== place.file ? ['--follow'] : [];
  return ['log', LOG_FORMAT, '--numstat', `--max-count=${count(a)}`, ...follow, ...(start ?? refOf(a) ? [start ?? (refOf(a) as string)] : []), '--', ...(narrow !== undefined ? [narrow] : [])];
}

async function checked(a: Input, ctx: Parameters<typeof placeGit>[0], judge = true) {
  const ref = refOf(a);
  if (ref !== undefined) {
    const problem = refProblem(ref);
    if (problem) return problem;
  }
  return placeGit(ctx, a, (p) => args(a, p), { judge });
}

export const gitLog = defineTool({
  name: 'git.log',
  description: {
    ko: 'git 커밋 기록(변경 내역): 커밋 id, 날짜, 작성자, 제목, 바뀐 파일 수. 파일 하나나 폴더의 기록만 볼 수도 있습니다.',
    en: 'git commit history (id, date, author, subject), of the repository or one file.',
  },
  keywords: ['깃 로그', '커밋', '커밋 기록', '변경 내역', '변경 이력', '히스토리', '누가 언제', 'git log', 'log', 'history', 'commits', 'changelog'],
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

  summarize: (a: Input) => text(`'${a.file ?? a.path ?? '.'}'의 git 기록을 봅니다`, `Shows the git history of '${a.file ?? a.path ?? '.'}'`),

  async execute(a: Input, ctx) {
    const place = await checked(a, ctx, false);
    if ('failure' in place) return failed(ctx, place);
    const ref = refOf(a);
    const where = await locate(ctx, place.cwd, [ref ?? 'HEAD']);
    if ('result' in where) return where.result;
    if ('bad' in where) return failed(ctx, ref === undefined ? m.noCommits() : m.unknownRef(ref), 'error');
    const outside = insideRepository(ctx, place, where.top);
    if (outside) return failed(ctx, outside);
    const at = atTop(ctx, place, where.top);
    // The commit located, not the name again: what was checked is what is walked.
    const ran = await runGit(ctx, place.cwd, args(a, at, where.commits[0]));
    if (!ran.ok) return ran.result;
    if (ran.exitCode !== 0) return failed(ctx, m.gitFailed(ran.exitCode, ran.text), 'error');
    const entries = parseLog(ran.text);
    const lang = ctx.lang;
    const what = at.file ?? at.scope;
    const subject = what !== undefined ? `'${shown(ctx, what)}'` : lang === 'ko' ? `저장소 '${shown(ctx, ctx.files.resolve(where.top))}'` : `repository '${shown(ctx, ctx.files.resolve(where.top))}'`;
    if (entries.length === 0) {
      return { outcome: 'ok', text: say(lang, text(`${subject}을(를) 바꾼 커밋이 없습니다.`, `No commit changed ${subject}.`)), details: { commits: 0 } };
    }
    const out = new BudgetedText(ctx.outputBudget);
    out.add(lang === 'ko' ? `${subject}의 커밋 ${entries.length}개 (최근 순${ref ? `, ${ref}부터` : ''}):` : `${entries.length} commit(s) of ${subject} (newest first${ref ? `, from ${ref}` : ''}):`);
    let shownCount = 0;
    for (const e of entries) {
      const date = e.date.slice(0, 16).replace('T', ' ');
      const stats = lang === 'ko' ? `파일 ${e.files}개, +${e.added} −${e.deleted}` : `${e.files} file(s), +${e.added} −${e.deleted}`;
      if (!out.add(printable(`${e.commit.slice(0, 10)} ${date} ${e.author} — ${e.subject} (${stats})`))) break;
      shownCount++;
    }
    const notes: string[] = [];
    const last = entries[shownCount - 1];
    if (shownCount < entries.length) {
      notes.push(say(lang, text(`… 커밋 ${entries.length - shownCount}개는 출력 한도 때문에 생략했습니다. maxCount를 줄이거나 file로 좁혀 보세요.`, `… ${entries.length - shownCount} more commit(s) left out (output limit). Use a smaller maxCount or narrow it with file.`)));
    } else if (entries.length === count(a) && last) {
      notes.push(say(lang, text(`더 오래된 커밋이 더 있을 수 있습니다: ref에 "${last.commit.slice(0, 10)}~1"을 주면 이어서 봅니다.`, `There may be older commits: pass ref "${last.commit.slice(0, 10)}~1" to continue.`)));
    }
    notes.push(say(lang, text('한 커밋의 내용은 git.show {"ref": 커밋 id}로 보세요.', 'See one commit in full with git.show {"ref": commit id}.')));
    return { outcome: 'ok', text: out.text(notes), details: { commits: entries.length } };
  },
});

