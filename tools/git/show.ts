import { Type } from '@sinclair/typebox';
import { text } from '../../electron/common/i18n';
import { defineTool, type PrecheckContext } from '../kit/define-tool';
import { renderChanges } from './changes';
import { BudgetedText, parseNumstatPatch, RS, US } from './git-output';
import { atTop, failed, gitPlan, insideRepository, locate, placeGit, printable, refProblem, runGit, say, type GitPlace } from './git-run';
import { gitMessages as m } from './messages';

const input = Type.Object(
  {
    ref: Type.String({ description: 'Commit id, branch or tag (e.g. "HEAD~1").' }),
    path: Type.Optional(Type.String({ description: 'Folder in the git repository; default the workspace.' })),
    file: Type.Optional(Type.String({ description: 'Only this file.' })),
  },
  { additionalProperties: false },
);

type Input = { ref: string; path?: string; file?: string };

const FORMAT = `--format=%x1e%H%x1f%an%x1f%ae%x1f%aI%x1f%P%x1f%B%x1e`;

function args(a: Input, place: Omit<GitPlace, 'program'>, commit?: string): string[] {
  const narrow = place.file ?? place.scope;
  return ['show', FORMAT, '--numstat', '--patch', '-z', '--no-color', '--find-renames', commit ?? a.ref.trim(), '--', ...(narrow !== undefined ? [narrow] : [])];
}

async function checked(a: Input, ctx: PrecheckContext, judge = true) {
  const problem = refProblem(a.ref.trim());
  if (problem) return problem;
  return placeGit(ctx, a, (p) => args(a, p), { judge });
}

export const gitShow = defineTool({
  name: 'git.show',
  description: {
    ko: '커밋 하나의 내용: 작성자, 날짜, 커밋 메시지, 바뀐 파일과 줄. file로 한 파일만 봅니다.',
    en: 'One git commit: author, date, message and its changes.',
  },
  keywords: ['커밋 내용', '커밋 보기', '그 커밋', '무엇을 고쳤는지', '커밋 메시지', 'git show', 'show', 'commit', 'revision'],
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

  summarize: (a: Input) => text(`커밋 '${a.ref}'의 내용을 봅니다`, `Shows commit '${a.ref}'`),

  async execute(a: Input, ctx) {
    const place = await checked(a, ctx, false);
    if ('failure' in place) return failed(ctx, place);
    const ref = a.ref.trim();
    const where = await locate(ctx, place.cwd, [ref]);
    if ('result' in where) return where.result;
    if ('bad' in where) return failed(ctx, m.unknownRef(ref), 'error');
    const outside = insideRepository(ctx, place, where.top);
    if (outside) return failed(ctx, outside);
    const at = atTop(ctx, place, where.top);
    const commit = where.commits[0] as string;
    const ran = await runGit(ctx, place.cwd, args(a, at, commit));
    if (!ran.ok) return ran.result;
    if (ran.exitCode !== 0) return failed(ctx, m.gitFailed(ran.exitCode, ran.text), 'error');
    const start = ran.text.indexOf(RS);
    const end = start < 0 ? -1 : ran.text.indexOf(RS, start + 1);
    if (end < 0) return failed(ctx, m.gitFailed(ran.exitCode, ran.text), 'error');
    const [id, author, email, date, parents, ...body] = ran.text.slice(start + 1, end).split(US);
    const message = body.join(US).trim();
    const rest = ran.text.slice(end + 1).replace(/^[\0\n]+/, '');
    const { files, sections } = parseNumstatPatch(rest);
    const lang = ctx.lang;
    const out = new BudgetedText(ctx.outputBudget);
    const parentList = (parents ?? '').split(' ').filter(Boolean).map((p) => p.slice(0, 10));
    out.add(`${lang === 'ko' ? '커밋' : 'commit'} ${id ?? commit}${parentList.length > 1 ? (lang === 'ko' ? ` (병합: ${parentList.join(' + ')})` : ` (merge of ${parentList.join(' + ')})`) : ''}`);
    out.add(printable(`${lang === 'ko' ? '작성자' : 'Author'}: ${author ?? ''} <${email ?? ''}>`));
    out.add(`${lang === 'ko' ? '날짜' : 'Date'}: ${(date ?? '').replace('T', ' ')}`);
    out.add('');
    // The message is the commit's own text: cut to a share of the budget, never the whole of it.
    const messageLines = message.split('\n');
    let k = 0;
    for (; k < messageLines.length && k < 60; k++) if (!out.add(`    ${messageLines[k]}`)) break;
    if (k < messageLines.length) out.add(say(lang, text(`    (… 메시지 ${messageLines.length - k}줄 생략)`, `    (… ${messageLines.length - k} more message line(s))`)));
    out.add('');
    const rendered = await renderChanges(ctx, out, { cwd: place.cwd, top: where.top }, files, sections, { truncatedCapture: ran.truncated });
    const notes = [...rendered.notes];
    if (parentList.length > 1 && files.length === 0) notes.push(say(lang, text('병합 커밋: 각 부모와의 차이는 git.diff {"ref": "부모..커밋"}으로 보세요.', 'A merge commit: see the difference to a parent with git.diff {"ref": "parent..commit"}.')));
    return { outcome: 'ok', text: out.text(notes), details: { commit: id ?? commit, files: rendered.files, hidden: rendered.hidden } };
  },
});
