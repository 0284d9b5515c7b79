import { Type } from '@sinclair/typebox';
import { text } from '../../electron/common/i18n';
import { shortLocalTime } from '../kit/dates';
import { defineTool, type PrecheckContext } from '../kit/define-tool';
import { BudgetedText, parseBlame } from './git-output';
import { failed, gitPlan, insideRepository, locate, placeGit, printable, runGit, say, shown, type GitPlace } from './git-run';
import { gitMessages as m } from './messages';

const input = Type.Object(
  {
    file: Type.String({ description: 'File in a git repository.' }),
    startLine: Type.Optional(Type.Integer({ description: '1-based; default 1.' })),
    lineCount: Type.Optional(Type.Integer({ description: 'Default 100, max 2000.' })),
  },
  { additionalProperties: false },
);

type Input = { file: string; startLine?: number; lineCount?: number };

const DEFAULT_LINES = 100;
const MAX_LINES = 2_000;
const UNCOMMITTED = /^0+$/;

const startOf = (a: Input): number => Math.max(1, Math.round(a.startLine ?? 1));
const countOf = (a: Input): number => Math.min(Math.max(Math.round(a.lineCount ?? DEFAULT_LINES), 1), MAX_LINES);

function args(a: Input, place: Omit<GitPlace, 'program'>): string[] {
  // One line more than asked: whether the file goes on is told without counting its lines.
  return ['blame', '--porcelain', '-L', `${startOf(a)},+${countOf(a) + 1}`, '--', place.file as string];
}

function checked(a: Input, ctx: PrecheckContext, judge = true) {
  return placeGit(ctx, { file: a.file }, (p) => args(a, p), { fileMustExist: true, judge });
}

export const gitBlame = defineTool({
  name: 'git.blame',
  description: {
    ko: '파일의 각 줄을 누가, 언제, 어느 커밋에서 고쳤는지(blame). startLine·lineCount로 줄 범위를 고릅니다.',
    en: 'Who last changed each line of a file, when, in which commit (git blame).',
  },
  keywords: ['누가 고쳤는지', '누가 썼는지', '누가 바꿨', '줄별 작성자', '작성자', 'git blame', 'blame', 'annotate', 'who changed', 'author of line'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['file'] },
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

  summarize: (a: Input) => text(`'${a.file}'의 줄별 작성자를 봅니다`, `Shows who changed each line of '${a.file}'`),

  async execute(a: Input, ctx) {
    const place = await checked(a, ctx, false);
    if ('failure' in place) return failed(ctx, place);
    const where = await locate(ctx, place.cwd, ['HEAD']);
    if ('result' in where) return where.result;
    if ('bad' in where) return failed(ctx, m.noCommits(), 'error');
    const outside = insideRepository(ctx, place, where.top);
    if (outside) return failed(ctx, outside);
    const lang = ctx.lang;
    const name = shown(ctx, place.file as string);
    const ran = await runGit(ctx, place.cwd, args(a, place));
    if (!ran.ok) return ran.result;
    if (ran.exitCode !== 0) {
      // Past the end of the file, or a file git does not track: git says which (in its own language).
      return failed(
        ctx,
        text(
          `'${name}'의 줄별 기록을 볼 수 없습니다: ${ran.text.trim().slice(0, 300)} 파일이 커밋된 적이 있는지 git.log {"file": "${name}"}로 확인하고, startLine이 파일 줄 수보다 작은지 보세요.`,
          `No line history for '${name}': ${ran.text.trim().slice(0, 300)} Check that the file was ever committed (git.log {"file": "${name}"}) and that startLine is within the file.`,
        ),
        'error',
      );
    }
    const all = parseBlame(ran.text);
    const lines = all.slice(0, countOf(a));
    const more = all.length > lines.length;
    const out = new BudgetedText(ctx.outputBudget);
    const first = lines[0]?.line ?? startOf(a);
    const last = lines[lines.length - 1]?.line ?? first;
    out.add(lang === 'ko' ? `'${name}' ${first}–${last}행: 줄마다 마지막으로 고친 커밋` : `'${name}' lines ${first}–${last}: the commit that last changed each line`);
    let previous = '';
    let shownLines = 0;
    for (const l of lines) {
      if (l.commit !== previous) {
        const who = UNCOMMITTED.test(l.commit)
          ? say(lang, text('(아직 커밋 안 됨)', '(not committed yet)'))
          : printable(`${l.commit.slice(0, 10)} ${l.author} ${shortLocalTime(l.time * 1000).slice(0, 10)} "${l.summary}"`);
        if (!out.add(who)) break;
        previous = l.commit;
      }
      if (!out.add(`${String(l.line).padStart(6)}│${l.text}`)) break;
      shownLines++;
    }
    const notes: string[] = [];
    const nextLine = (lines[shownLines - 1]?.line ?? first - 1) + 1;
    if (shownLines < lines.length) {
      notes.push(say(lang, text(`… 출력 한도 때문에 ${lines.length - shownLines}줄 생략. startLine: ${nextLine}부터 이어서 보거나 lineCount를 줄이세요.`, `… ${lines.length - shownLines} line(s) left out (output limit). Continue with startLine: ${nextLine}, or use a smaller lineCount.`)));
    } else if (more) {
      notes.push(say(lang, text(`파일이 더 이어집니다: startLine: ${nextLine}로 다음 줄을 보세요.`, `The file goes on: see the next lines with startLine: ${nextLine}.`)));
    }
    notes.push(say(lang, text('커밋 하나의 내용은 git.show {"ref": 커밋 id}로 보세요.', 'See a commit in full with git.show {"ref": commit id}.')));
    return { outcome: 'ok', text: out.text(notes), details: { lines: shownLines, from: first } };
  },
});
