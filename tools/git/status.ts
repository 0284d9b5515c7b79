import { Type } from '@sinclair/typebox';
import { text, type Lang } from '../../electron/common/i18n';
import { defineTool } from '../kit/define-tool';
import { BudgetedText, parseStatus, type StatusEntry } from './git-output';
import { atTop, failed, gitPlan, hiddenPaths, inRepository, insideRepository, locate, placeGit, runGit, say, shown, type GitPlace } from './git-run';
import { gitMessages as m } from './messages';

const input = Type.Object(
  {
    path: Type.Optional(Type.String({ description: 'Folder in a git repository; default the workspace.' })),
  },
  { additionalProperties: false },
);

type Input = { path?: string };

function args(place: Omit<GitPlace, 'program'>): string[] {
  // porcelain v2 with -z: stable fields, names never quoted (Korean names as they are).
  return ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=normal', '--', ...(place.scope !== undefined ? [place.scope] : [])];
}

type Change = 'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | 'conflict' | 'untracked' | 'typechange';

const LABEL: Record<Change, { ko: string; en: string }> = {
  modified: { ko: '수정', en: 'modified' },
  added: { ko: '새 파일', en: 'new file' },
  deleted: { ko: '삭제', en: 'deleted' },
  renamed: { ko: '이름 바꿈', en: 'renamed' },
  copied: { ko: '복사', en: 'copied' },
  conflict: { ko: '충돌', en: 'conflict' },
  untracked: { ko: '새 파일(추적 안 함)', en: 'untracked' },
  typechange: { ko: '종류 바뀜', en: 'type changed' },
};

function letter(code: string): Change | null {
  switch (code) {
    case 'M':
      return 'modified';
    case 'A':
      return 'added';
    case 'D':
      return 'deleted';
    case 'R':
      return 'renamed';
    case 'C':
      return 'copied';
    case 'T':
      return 'typechange';
    default:
      return null;
  }
}

/** The one word a file is counted under in the summary line. */
function overall(e: StatusEntry): Change {
  switch (e.kind) {
    case 'untracked':
      return 'untracked';
    case 'unmerged':
      return 'conflict';
    case 'renamed':
      return e.copy ? 'copied' : 'renamed';
    case 'changed':
      return letter(e.staged) === 'added' ? 'added' : (letter(e.staged) ?? letter(e.unstaged) ?? 'modified');
  }
}

function label(c: Change, lang: Lang): string {
  return LABEL[c][lang];
}

export const gitStatus = defineTool({
  name: 'git.status',
  description: {
    ko: 'git 저장소의 현재 상태: 브랜치, 바뀐 파일(수정·새 파일·삭제·이름 바꿈), 스테이징 여부. 읽기만 합니다.',
    en: 'git repository state: branch, changed files (modified, new, deleted, renamed), staged or not.',
  },
  keywords: ['깃', '깃 상태', '변경된 파일', '바뀐 파일', '커밋 안 한', '스테이징', '브랜치', 'git', 'git status', 'status', 'changes', 'modified', 'uncommitted', 'branch'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['processes', 'files'],

  async precheck(a: Input, ctx) {
    const place = await placeGit(ctx, a, args);
    return 'failure' in place ? place : null;
  },

  async plan(a: Input, ctx) {
    const place = await placeGit(ctx, a, args);
    return 'failure' in place ? place : gitPlan(place, args(place), ctx);
  },

  summarize: (a: Input) => text(`'${a.path ?? '.'}'의 git 상태를 봅니다`, `Shows the git status of '${a.path ?? '.'}'`),

  async execute(a: Input, ctx) {
    const place = await placeGit(ctx, a, args, { judge: false });
    if ('failure' in place) return failed(ctx, place);
    const where = await locate(ctx, place.cwd, []);
    if ('result' in where) return where.result;
    if ('bad' in where) return failed(ctx, m.noCommits(), 'error');
    const outside = insideRepository(ctx, place, where.top);
    if (outside) return failed(ctx, outside);
    const at = atTop(ctx, place, where.top);
    const ran = await runGit(ctx, place.cwd, args(at));
    if (!ran.ok) return ran.result;
    if (ran.exitCode !== 0) return failed(ctx, m.gitFailed(ran.exitCode, ran.text), 'error');
    const { branch, entries } = parseStatus(ran.text);
    const abs = (p: string) => inRepository(ctx, where.top, p);
    const hidden = await hiddenPaths(ctx, place.cwd, entries.flatMap((e) => (e.kind === 'renamed' ? [abs(e.path), abs(e.from)] : [abs(e.path)])));
    const visible = entries.filter((e) => !hidden.has(abs(e.path)) && !(e.kind === 'renamed' && hidden.has(abs(e.from))));
    const lang = ctx.lang;
    const out = new BudgetedText(ctx.outputBudget);

    const repo = shown(ctx, ctx.files.resolve(where.top));
    const head = branch.head === '(detached)' || branch.head === undefined ? (lang === 'ko' ? `브랜치 없음(커밋 ${branch.oid?.slice(0, 7) ?? '?'})` : `no branch (at ${branch.oid?.slice(0, 7) ?? '?'})`) : branch.head;
    let track = '';
    if (branch.upstream !== undefined && branch.ahead !== undefined && branch.behind !== undefined) {
      const parts = lang === 'ko'
        ? [branch.ahead > 0 ? `${branch.ahead}개 앞섬` : '', branch.behind > 0 ? `${branch.behind}개 뒤처짐` : ''].filter(Boolean)
        : [branch.ahead > 0 ? `${branch.ahead} ahead` : '', branch.behind > 0 ? `${branch.behind} behind` : ''].filter(Boolean);
      track = parts.length === 0 ? (lang === 'ko' ? ` (${branch.upstream}와 같음)` : ` (up to date with ${branch.upstream})`) : lang === 'ko' ? ` (${branch.upstream}보다 ${parts.join(', ')})` : ` (${parts.join(', ')} of ${branch.upstream})`;
    }
    const noCommitYet = branch.oid === '(initial)';
    out.add(lang === 'ko' ? `저장소 '${repo}' · 브랜치 ${head}${track}${noCommitYet ? ' · 아직 커밋 없음' : ''}` : `Repository '${repo}' · branch ${head}${track}${noCommitYet ? ' · no commits yet' : ''}`);

    if (visible.length === 0) {
      out.add(say(lang, text('변경된 파일이 없습니다 (마지막 커밋과 같습니다).', 'No changed files (same as the last commit).')));
    } else {
      const counts = new Map<Change, number>();
      for (const e of visible) counts.set(overall(e), (counts.get(overall(e)) ?? 0) + 1);
      const tally = [...counts].map(([c, n]) => `${label(c, lang)} ${n}`).join(', ');
      out.add(lang === 'ko' ? `변경된 파일 ${visible.length}개: ${tally}` : `${visible.length} changed file(s): ${tally}`);
      const staged: string[] = [];
      const unstaged: string[] = [];
      const untracked: string[] = [];
      const conflicts: string[] = [];
      for (const e of visible) {
        // An untracked folder is listed once, as 'folder/'.
        const name = shown(ctx, abs(e.path)) + (e.path.endsWith('/') ? '/' : '');
        switch (e.kind) {
          case 'untracked':
            untracked.push(`  ${name}`);
            break;
          case 'unmerged':
            conflicts.push(`  ${name}`);
            break;
          case 'renamed': {
            const kind = e.copy ? 'copied' : 'renamed';
            staged.push(`  ${label(kind, lang)}: ${shown(ctx, abs(e.from))} → ${name}`);
            if (letter(e.unstaged)) unstaged.push(`  ${label(letter(e.unstaged)!, lang)}: ${name}`);
            break;
          }
          case 'changed':
            if (letter(e.staged)) staged.push(`  ${label(letter(e.staged)!, lang)}: ${name}`);
            if (letter(e.unstaged)) unstaged.push(`  ${label(letter(e.unstaged)!, lang)}: ${name}`);
            break;
        }
      }
      const groups: [string, string[]][] = [
        [say(lang, text('충돌 (병합을 끝내야 함):', 'Conflicts (merge not finished):')), conflicts],
        [say(lang, text('커밋할 준비가 된 변경 (스테이징됨):', 'Staged for the next commit:')), staged],
        [say(lang, text('아직 스테이징하지 않은 변경:', 'Not staged yet:')), unstaged],
        [say(lang, text('git이 추적하지 않는 새 파일·폴더:', 'Untracked files and folders:')), untracked],
      ];
      let left = 0;
      for (const [title, lines] of groups) {
        if (lines.length === 0) continue;
        if (left > 0 || !out.add(title)) {
          left += lines.length;
          continue;
        }
        lines.forEach((l, i) => {
          if (left > 0 || !out.add(l)) left = left > 0 ? left + 1 : lines.length - i;
        });
      }
      const notes: string[] = [];
      if (left > 0) notes.push(say(lang, text(`… ${left}줄 더 있음. path로 하위 폴더를 주어 좁혀 보세요.`, `… ${left} more line(s). Give a sub-folder as path to narrow it down.`)));
      if (hidden.size > 0) notes.push(say(lang, m.hidden(hidden.size)));
      notes.push(say(lang, text('내용 비교는 git.diff, 기록은 git.log로 보세요.', 'See the changes themselves with git.diff, the history with git.log.')));
      return { outcome: 'ok', text: out.text(notes), details: { repository: repo, files: visible.length, hidden: hidden.size } };
    }
    const notes = hidden.size > 0 ? [say(lang, m.hidden(hidden.size))] : [];
    return { outcome: 'ok', text: out.text(notes), details: { repository: repo, files: 0, hidden: hidden.size } };
  },
});
