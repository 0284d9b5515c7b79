import { Type } from '@sinclair/typebox';
import { pick, text, type Lang } from '../../electron/common/i18n';
import { defineTool, type Failure, type PrecheckContext } from '../kit/define-tool';
import { humanSize } from '../kit/format';
import { relativeTo } from '../kit/paths';
import { fail, fromHostError, ok } from '../kit/results';
import { asFailure, displayOf, refusal } from '../kit/targets';
import { decodeText, looksBinary } from '../kit/text-decoding';
import { extensionOf, languageById, languageOfName, languageOfShebang, type LanguageId } from './languages';
import { countLines, type LineCounts } from './line-counter';

/**
 * Most files one call reads. A large monorepo's own code is a few thousand files; past this the
 * result would take minutes on a slow share, and a subfolder answers the question better.
 */
export const MAX_FILES = 20_000;
/** Most bytes one call reads in all (the walk stops there and says so). */
export const MAX_TOTAL_BYTES = 256 * 1024 * 1024;
/** A bigger single file is skipped: hand-written code is not 4 MiB per file; bundles and dumps are. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Files the second, unread walk counts to tell how many .gitignore and node_modules kept out. */
export const MAX_SKIP_COUNT = 200_000;

/** The caps of one tool instance: the constants above, smaller in the tests of the caps themselves. */
export interface StatsLimits {
  readonly maxFiles: number;
  readonly maxTotalBytes: number;
  readonly maxFileBytes: number;
  readonly maxSkipCount: number;
}

export const STATS_LIMITS: StatsLimits = { maxFiles: MAX_FILES, maxTotalBytes: MAX_TOTAL_BYTES, maxFileBytes: MAX_FILE_BYTES, maxSkipCount: MAX_SKIP_COUNT };

const input = Type.Object(
  {
    path: Type.Optional(Type.String({ description: 'Folder or file to count, relative to the workspace (default: the whole workspace).' })),
  },
  { additionalProperties: false },
);

interface Totals extends LineCounts {
  files: number;
}

interface Skipped {
  binary: number;
  notCode: number;
  tooLarge: number;
  unreadable: number;
  nodeModules: number;
  /** null: not counted (the walk stopped early). */
  gitignored: number | null;
  /** The second walk reached MAX_SKIP_COUNT: the counts above are lower bounds. */
  countCapped: boolean;
}

function whereOf(path: string | undefined): string {
  return path === undefined || path.trim() === '' ? '.' : path;
}

async function checkTarget(where: string, ctx: PrecheckContext): Promise<Failure | null> {
  try {
    const info = await ctx.files.stat(where);
    return info === null ? refusal('NOT_FOUND', where, ctx.files) : null;
  } catch (e) {
    return asFailure(e, ctx.files);
  }
}

function inNodeModules(root: string, path: string): boolean {
  return relativeTo(root, path).split(/[\\/]/).includes('node_modules');
}

const number = (n: number): string => n.toLocaleString('en-US');

/** Columns a string takes in a terminal: Hangul and CJK characters take two. */
function width(s: string): number {
  let n = 0;
  for (const ch of s) n += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/u.test(ch) ? 2 : 1;
  return n;
}

/** A plain-text table, columns padded: what a model (or a person in a terminal) reads back without mistakes. */
function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => width(r[c]!))));
  const pad = (cell: string, c: number): string => {
    const fill = ' '.repeat(widths[c]! - width(cell));
    return c === 0 ? cell + fill : fill + cell;
  };
  return rows.map((r) => r.map(pad).join('  ').trimEnd());
}

function skippedNote(s: Skipped, policy: number, maxFileBytes: number, lang: Lang): string | null {
  const more = s.countCapped ? '+' : '';
  const parts: [number | null, string, string][] = [
    [s.nodeModules, `node_modules 안 ${number(s.nodeModules)}${more}개`, `${number(s.nodeModules)}${more} in node_modules`],
    [s.gitignored, `.gitignore 대상 ${number(s.gitignored ?? 0)}${more}개`, `${number(s.gitignored ?? 0)}${more} ignored by .gitignore`],
    [s.binary, `바이너리 ${number(s.binary)}개`, `${number(s.binary)} binary`],
    [s.tooLarge, `${humanSize(maxFileBytes)} 넘는 파일 ${number(s.tooLarge)}개`, `${number(s.tooLarge)} larger than ${humanSize(maxFileBytes)}`],
    [s.notCode, `코드가 아닌 파일 ${number(s.notCode)}개`, `${number(s.notCode)} not source code`],
    [s.unreadable, `읽지 못한 파일 ${number(s.unreadable)}개`, `${number(s.unreadable)} unreadable`],
    [policy, `정책 규칙으로 ${number(policy)}개`, `${number(policy)} by policy`],
  ];
  const shown = parts.filter(([n]) => n !== null && n > 0);
  if (shown.length === 0) return null;
  return pick(
    text(`[건너뜀: ${shown.map((p) => p[1]).join(', ')}. 숨김 파일·폴더와 .git은 세지 않습니다.]`, `[Skipped: ${shown.map((p) => p[2]).join(', ')}. Hidden files and folders and .git are not counted.]`),
    lang,
  );
}

/** code.stats with the given caps (the registry's instance: `codeStats`). */
export function defineCodeStats(limits: StatsLimits) {
  return defineTool({
    name: 'code.stats',
    description: {
      ko: '폴더(또는 파일)의 코드 줄 수를 언어별로 셉니다: 파일 수, 코드·주석·빈 줄. .gitignore, node_modules, 바이너리는 건너뜁니다(cloc처럼).',
      en: 'Lines of code per language in a folder or file (like cloc): files, code, comment, blank lines. Skips .gitignore\'d files, node_modules, binaries.',
    },
    keywords: ['코드', '줄 수', '코드 줄 수', '라인 수', '언어별', '몇 줄', '코드 통계', '프로젝트 규모', 'lines of code', 'loc', 'sloc', 'cloc', 'line count', 'code stats', 'languages'],
    input,
    risk: 'read',
    subject: { kind: 'PATH', fields: ['path'] },
    concurrency: 'parallel-safe',
    capabilities: ['files'],

    precheck: (args, ctx) => checkTarget(whereOf(args.path), ctx),

    summarize: (args) => text(`'${whereOf(args.path)}'의 코드 줄 수를 언어별로 셉니다`, `Counts lines of code per language in '${whereOf(args.path)}'`),

    async execute(args, ctx) {
      const { files, lang, signal } = ctx;
      const where = whereOf(args.path);
      const refused = await checkTarget(where, ctx);
      if (refused) return fail(lang, refused.failure);
      try {
        const root = await files.check(where);
        const info = await files.stat(root);
        const isFolder = info?.type === 'directory';
        const shown = displayOf(files, root) || '.';
        const perLanguage = new Map<LanguageId, Totals>();
        const skipped: Skipped = { binary: 0, notCode: 0, tooLarge: 0, unreadable: 0, nodeModules: 0, gitignored: null, countCapped: false };
        // Files the ignore rules let through, counted before any filter of ours: the second walk's
        // total minus these is what .gitignore kept out.
        let passedIgnore = 0;
        let passedIgnoreInNodeModules = 0;
        let filesRead = 0;
        let bytesRead = 0;
        let capped: 'files' | 'bytes' | null = null;

        const include = (path: string): boolean => {
          passedIgnore++;
          if (inNodeModules(root, path)) {
            passedIgnoreInNodeModules++;
            return false;
          }
          // A name with no extension may still be a script with a #! line: read it to see.
          if (languageOfName(path) !== null || extensionOf(path) === '') return true;
          skipped.notCode++;
          return false;
        };
        const tree = files.readTree(root, {
          respectIgnoreFiles: true,
          includeHidden: false,
          windowBytes: limits.maxFileBytes,
          signal,
          reuseBuffers: true,
          ...(isFolder ? { include } : {}),
        });
        for await (const file of tree) {
          if (signal.aborted) break;
          if (filesRead >= limits.maxFiles) {
            capped = 'files';
            break;
          }
          if (bytesRead >= limits.maxTotalBytes) {
            capped = 'bytes';
            break;
          }
          if (!file.ok) {
            skipped.unreadable++;
            continue;
          }
          filesRead++;
          bytesRead += file.bytes.length;
          if (!file.complete) {
            skipped.tooLarge++;
            continue;
          }
          if (looksBinary(file.bytes)) {
            skipped.binary++;
            continue;
          }
          const source = decodeText(file.bytes).text;
          const id = languageOfName(file.path) ?? languageOfShebang(source.slice(0, 200).split('\n', 1)[0] ?? '');
          if (id === null) {
            skipped.notCode++;
            continue;
          }
          const counts = countLines(source, languageById(id).syntax);
          const totals = perLanguage.get(id) ?? { files: 0, code: 0, comment: 0, blank: 0 };
          totals.files++;
          totals.code += counts.code;
          totals.comment += counts.comment;
          totals.blank += counts.blank;
          perLanguage.set(id, totals);
        }
        const policySkips = files.skippedByPolicy?.() ?? 0;

        // What the ignore rules kept out is known only from a walk without them (names only, no reads).
        if (isFolder && capped === null && !signal.aborted) {
          let all = 0;
          let allInNodeModules = 0;
          for await (const entry of files.walk(root, { respectIgnoreFiles: false, includeHidden: false })) {
            if (signal.aborted) break;
            all++;
            if (inNodeModules(root, entry.path)) allInNodeModules++;
            if (all >= limits.maxSkipCount) {
              skipped.countCapped = true;
              break;
            }
          }
          skipped.nodeModules = Math.max(allInNodeModules, passedIgnoreInNodeModules);
          if (!signal.aborted) skipped.gitignored = Math.max(0, all - allInNodeModules - (passedIgnore - passedIgnoreInNodeModules));
        } else {
          skipped.nodeModules = passedIgnoreInNodeModules;
        }

        const rows = [...perLanguage.entries()].sort((a, b) => b[1].code - a[1].code || a[0].localeCompare(b[0]));
        const sum: Totals = { files: 0, code: 0, comment: 0, blank: 0 };
        for (const [, t] of rows) {
          sum.files += t.files;
          sum.code += t.code;
          sum.comment += t.comment;
          sum.blank += t.blank;
        }
        const details = {
          files: sum.files,
          code: sum.code,
          comment: sum.comment,
          blank: sum.blank,
          languages: Object.fromEntries(rows.map(([id, t]) => [languageById(id).name, { ...t }])),
          skipped: { ...skipped, policy: policySkips },
          capped,
        };

        const header = lang === 'en' ? ['Language', 'Files', 'Code', 'Comments', 'Blank'] : ['언어', '파일', '코드', '주석', '빈 줄'];
        const totalLabel = lang === 'en' ? 'Total' : '합계';
        const lines: string[] = [];
        if (rows.length === 0) {
          lines.push(
            pick(
              text(
                `'${shown}'에서 셀 수 있는 소스 코드를 찾지 못했습니다. 폴더 안 파일은 filesystem.list로 보세요.`,
                `No source code to count in '${shown}'. See what the folder holds with filesystem.list.`,
              ),
              lang,
            ),
          );
        } else {
          lines.push(
            pick(text(`'${shown}' 코드 통계: 파일 ${number(sum.files)}개, 코드 ${number(sum.code)}줄`, `Code in '${shown}': ${number(sum.files)} files, ${number(sum.code)} lines of code`), lang),
            ...table([
              header,
              ...rows.map(([id, t]) => [languageById(id).name, number(t.files), number(t.code), number(t.comment), number(t.blank)]),
              ...(rows.length > 1 ? [[totalLabel, number(sum.files), number(sum.code), number(sum.comment), number(sum.blank)]] : []),
            ]),
          );
        }
        if (capped !== null) {
          const limit = capped === 'files' ? pick(text(`파일 ${number(limits.maxFiles)}개`, `${number(limits.maxFiles)} files`), lang) : humanSize(limits.maxTotalBytes);
          lines.push(
            pick(
              text(
                `[한도(${limit})에 닿아 여기서 멈췄습니다: 위 숫자는 앞부분만 센 것입니다. 하위 폴더를 path로 하나씩 세세요.]`,
                `[Stopped at the limit (${limit}): the numbers above cover only part of the folder. Count its subfolders one by one with path.]`,
              ),
              lang,
            ),
          );
        }
        const note = skippedNote(skipped, policySkips, limits.maxFileBytes, lang);
        if (note) lines.push(note);
        if (signal.aborted) {
          return {
            outcome: 'cancelled',
            text: [pick(text(`중지했습니다 (그때까지 파일 ${number(sum.files)}개를 셈).`, `Stopped (${number(sum.files)} files counted by then).`), lang), ...lines].join('\n'),
            details,
          };
        }
        return ok(lines.join('\n'), details);
      } catch (e) {
        return fromHostError(lang, e, files);
      }
    },
  });
}

export const codeStats = defineCodeStats(STATS_LIMITS);
