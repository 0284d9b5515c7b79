import { text, type Lang } from '../../electron/common/i18n';
import type { ToolContext } from '../kit/define-tool';
import { BudgetedText, type ChangedFile } from './git-output';
import { hiddenPaths, inRepository, say, shown } from './git-run';
import { gitMessages as m } from './messages';

/**
 * How git.diff and git.show present a set of changed files: one summary line per file (what kind
 * of change, lines added and removed), then each file's hunks while the output budget lasts.
 * Binary files are named, never dumped; a file whose patch does not fit is cut at a whole line,
 * and the closing note says how to see the rest (one file at a time). Files the policy's read
 * rules cover are left out entirely, counted.
 */

/** Longest patch shown for one file when several changed, so one huge file does not hide the others. */
const PER_FILE_SHARE = 0.6;

export interface RenderedChanges {
  readonly notes: readonly string[];
  readonly files: number;
  readonly hidden: number;
}

/** A section's leading mode lines (kept by the splitter) tell a new or deleted file from a changed one. */
function modeLines(section: string): { readonly kind: 'new' | 'deleted' | 'mode' | null; readonly body: string } {
  const lines = section === '' ? [] : section.split('\n');
  let k = 0;
  let kind: 'new' | 'deleted' | 'mode' | null = null;
  for (; k < lines.length && /^(old|new|deleted file|new file) mode /.test(lines[k] as string); k++) {
    const line = lines[k] as string;
    kind = line.startsWith('new file') ? 'new' : line.startsWith('deleted file') ? 'deleted' : (kind ?? 'mode');
  }
  return { kind, body: lines.slice(k).join('\n') };
}

function kindOf(f: ChangedFile, mode: ReturnType<typeof modeLines>['kind'], lang: Lang): string {
  if (f.from !== undefined) return lang === 'ko' ? '이름 바꿈' : 'renamed';
  if (mode === 'new') return lang === 'ko' ? '새 파일' : 'new file';
  if (mode === 'deleted') return lang === 'ko' ? '삭제' : 'deleted';
  if (f.binary) return lang === 'ko' ? '바이너리' : 'binary';
  return lang === 'ko' ? '수정' : 'modified';
}

export async function renderChanges(
  ctx: ToolContext,
  out: BudgetedText,
  where: { readonly cwd: string; readonly top: string },
  files: readonly ChangedFile[],
  sections: readonly string[] | null,
  options: { readonly truncatedCapture: boolean },
): Promise<RenderedChanges> {
  const lang = ctx.lang;
  const abs = (p: string) => inRepository(ctx, where.top, p);
  const hidden = await hiddenPaths(ctx, where.cwd, files.flatMap((f) => (f.from !== undefined ? [abs(f.path), abs(f.from)] : [abs(f.path)])));
  const visible = files.map((f, i) => ({ f, i })).filter(({ f }) => !hidden.has(abs(f.path)) && !(f.from !== undefined && hidden.has(abs(f.from))));
  const notes: string[] = [];
  if (visible.length === 0) {
    out.add(say(lang, text('바뀐 내용이 없습니다.', 'No changes.')));
    if (hidden.size > 0) notes.push(say(lang, m.hidden(hidden.size)));
    return { notes, files: 0, hidden: hidden.size };
  }
  const added = visible.reduce((n, { f }) => n + f.added, 0);
  const deleted = visible.reduce((n, { f }) => n + f.deleted, 0);
  out.add(lang === 'ko' ? `바뀐 파일 ${visible.length}개 (+${added} −${deleted}):` : `${visible.length} file(s) changed (+${added} −${deleted}):`);
  const name = (f: ChangedFile): string => (f.from !== undefined ? `${shown(ctx, abs(f.from))} → ${shown(ctx, abs(f.path))}` : shown(ctx, abs(f.path)));
  let summaryLeft = 0;
  const parts = visible.map(({ i }) => modeLines(sections?.[i] ?? ''));
  visible.forEach(({ f }, n) => {
    const kind = kindOf(f, parts[n]!.kind, lang);
    // '바이너리: x' already says it; a new, deleted or renamed binary file says it in the parentheses.
    const plainBinary = f.from === undefined && parts[n]!.kind !== 'new' && parts[n]!.kind !== 'deleted';
    const binary = plainBinary ? text('내용 비교 생략', 'contents not compared') : text('바이너리, 내용 비교 생략', 'binary, contents not compared');
    const stats = f.binary ? say(lang, binary) : `+${f.added} −${f.deleted}`;
    if (summaryLeft > 0 || !out.add(`  ${kind}: ${name(f)} (${stats})`)) summaryLeft++;
  });
  if (summaryLeft > 0) {
    notes.push(say(lang, text(`… 파일 ${summaryLeft}개 더 있음. file이나 path로 좁혀 보세요.`, `… ${summaryLeft} more file(s). Narrow it down with file or path.`)));
    if (hidden.size > 0) notes.push(say(lang, m.hidden(hidden.size)));
    return { notes, files: visible.length, hidden: hidden.size };
  }
  if (sections === null) {
    notes.push(say(lang, text('파일별 내용을 나눠 읽지 못해 목록만 보였습니다. file로 한 파일씩 보세요.', 'The per-file contents could not be told apart; only the list is shown. Give one file at a time as file.')));
    if (hidden.size > 0) notes.push(say(lang, m.hidden(hidden.size)));
    return { notes, files: visible.length, hidden: hidden.size };
  }
  const shareOf = visible.length > 1 ? Math.floor(out.left() * PER_FILE_SHARE) : Infinity;
  const cutFiles: string[] = [];
  const notShown: string[] = [];
  for (const [n, { f }] of visible.entries()) {
    const section = parts[n]!.body;
    if (notShown.length > 0) {
      notShown.push(name(f));
      continue;
    }
    if (!out.add(`--- ${name(f)}`)) {
      notShown.push(name(f));
      continue;
    }
    if (f.binary) {
      out.add(say(lang, text('(바이너리 파일: 내용은 보여 주지 않습니다)', '(binary file: contents not shown)')));
      continue;
    }
    if (section === '') {
      const empty = parts[n]!.kind === 'new' || parts[n]!.kind === 'deleted';
      out.add(say(lang, empty ? text('(빈 파일)', '(empty file)') : text('(내용 변화 없음: 이름이나 권한만 바뀜)', '(no content change: name or mode only)')));
      continue;
    }
    // One file may take at most its share when others follow; the rest of it is left out.
    const lines = section.split('\n');
    let used = 0;
    let k = 0;
    for (; k < lines.length; k++) {
      const line = lines[k] as string;
      if (used + line.length + 1 > shareOf || !out.add(line)) break;
      used += line.length + 1;
    }
    if (k < lines.length) {
      cutFiles.push(name(f));
      out.add(say(lang, text(`(… 이 파일의 나머지 ${lines.length - k}줄 생략)`, `(… ${lines.length - k} more line(s) of this file left out)`)));
    }
  }
  if (cutFiles.length > 0 || notShown.length > 0) {
    const some = [...cutFiles, ...notShown].slice(0, 5).join(', ');
    notes.push(say(lang, text(`출력 한도 때문에 다 보여 주지 못한 파일: ${some}. file에 그 파일 하나를 주어 다시 보세요.`, `Not shown in full (output limit): ${some}. Give that one file as file to see it.`)));
  }
  if (options.truncatedCapture) notes.push(say(lang, m.captureCut()));
  if (hidden.size > 0) notes.push(say(lang, m.hidden(hidden.size)));
  return { notes, files: visible.length, hidden: hidden.size };
}
