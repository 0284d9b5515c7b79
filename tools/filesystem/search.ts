import { Type } from '@sinclair/typebox';
import { pick, text, type Lang } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type PrecheckContext } from '../kit/define-tool';
import { dateRange, DATE_FIELDS_DESCRIPTION, inRange, shortLocalTime } from '../kit/dates';
import { fail, fromHostError, ok, patternOrNone } from '../kit/results';
import { humanSize, LIST_CAP } from '../kit/format';
import { namePatternGlob } from '../kit/paths';
import { attempt, displayOf, globForListing, MAX_COUNTED_MATCHES, refusal } from '../kit/targets';

/**
 * Files a pattern-less search walks before it stops: bounds the time of one call. A workspace
 * bigger than that needs a narrower `path`, and the result says so.
 */
const MAX_SCANNED_FILES = 200_000;

const input = Type.Object(
  {
    path: Type.Optional(Type.String({ description: 'Folder to search in, relative to the workspace (default: the whole workspace).' })),
    namePattern: Type.Optional(
      Type.String({
        description: 'Glob for names, e.g. "*.xlsx", "보고서*", "2024/*.csv". A plain word matches names containing it. Empty or absent = all files.',
      }),
    ),
    // filesystem.list calls it pattern; a model that mixes the two is understood either way.
    pattern: Type.Optional(Type.String({ description: 'Same as namePattern.' })),
    modifiedAfter: Type.Optional(Type.String({ description: DATE_FIELDS_DESCRIPTION.after })),
    modifiedBefore: Type.Optional(Type.String({ description: DATE_FIELDS_DESCRIPTION.before })),
  },
  { additionalProperties: false },
);

async function checkFolder(path: string, ctx: PrecheckContext): Promise<Failure | null> {
  const info = await attempt(ctx.files, () => ctx.files.stat(path));
  if (info === null) return refusal('NOT_FOUND', path, ctx.files);
  if ('failure' in info) return info;
  if (info.type !== 'directory') {
    return failure(
      text(
        `'${path}'은(는) 파일입니다. filesystem.search의 path에는 찾을 폴더를 주세요 (파일 내용은 filesystem.read).`,
        `'${path}' is a file. Give filesystem.search a folder as path (read a file with filesystem.read).`,
      ),
    );
  }
  return null;
}

/** An omitted or empty path means the whole (first) workspace root, as for the permission subject. */
function folderOf(path: string | undefined): string {
  return path === undefined || path.trim() === '' ? '.' : path;
}

export const filesystemSearch = defineTool({
  name: 'filesystem.search',
  description: {
    ko: '파일을 이름으로 찾습니다(하위 폴더 포함). namePattern은 글롭(예: *.xlsx, 보고서*). 내용 검색은 search.text.',
    en: 'Find files by name in a folder and its subfolders. namePattern is a glob (e.g. *.xlsx, report*). For content use search.text.',
  },
  keywords: ['찾기', '파일 찾기', '검색', '이름', 'find', 'search', 'locate', 'glob', 'file name'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files'],

  precheck: (args, ctx) => checkFolder(folderOf(args.path), ctx),

  summarize: (args) =>
    text(`'${folderOf(args.path)}'에서 '${args.namePattern ?? args.pattern ?? '*'}' 이름의 파일을 찾습니다`, `Finds files named '${args.namePattern ?? args.pattern ?? '*'}' in '${folderOf(args.path)}'`),

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const where = folderOf(args.path);
    const refused = await checkFolder(where, ctx);
    if (refused) return fail(lang, refused.failure);
    const pattern = patternOrNone(args.namePattern) ?? patternOrNone(args.pattern);
    const range = dateRange(args);
    if (isFailure(range)) return fail(lang, range.failure);
    try {
      // The host returns real paths; the folder's real path makes them relative again.
      const folder = await files.check(where);
      const shownFolder = displayOf(files, folder) || '.';
      const shownPattern = pattern ?? '*';
      const found: string[] = [];
      let total = 0;
      let scanned: number | undefined;
      let scanCut = false;
      if (pattern === undefined) {
        // No pattern: every file (walk honours .gitignore and skips hidden files and .git).
        scanned = 0;
        for await (const entry of files.walk(folder, { maxFiles: MAX_SCANNED_FILES })) {
          if (ctx.signal.aborted) break;
          scanned++;
          const info = range === null && found.length >= LIST_CAP ? undefined : await files.stat(entry.path);
          if (range !== null && (!info || !inRange(info.mtimeMs, range))) continue;
          total++;
          if (found.length < LIST_CAP && info) found.push(`${displayOf(files, entry.path)}  (${humanSize(entry.size)}, ${shortLocalTime(info.mtimeMs)})`);
        }
        scanCut = scanned >= MAX_SCANNED_FILES;
      } else {
        const matched = await globForListing(files, namePatternGlob(folder, pattern, true));
        if (matched.tooMany) {
          return ok(
            pick(
              text(
                `'${shownFolder}' 아래에 '${shownPattern}'에 맞는 항목이 ${MAX_COUNTED_MATCHES}개를 넘습니다. 패턴이나 path를 좁혀 다시 찾으세요.`,
                `More than ${MAX_COUNTED_MATCHES} entries under '${shownFolder}' match '${shownPattern}'. Narrow the pattern or the path.`,
              ),
              lang,
            ),
            { count: MAX_COUNTED_MATCHES, truncated: true },
          );
        }
        total = range === null ? matched.paths.length : 0;
        for (const path of matched.paths) {
          if (ctx.signal.aborted) break;
          if (range === null && found.length >= LIST_CAP) break;
          const info = await files.stat(path);
          if (!info) continue;
          if (range !== null) {
            if (info.type === 'directory' || !inRange(info.mtimeMs, range)) continue;
            total++;
            if (found.length >= LIST_CAP) continue;
          }
          const shown = displayOf(files, info.path);
          found.push(info.type === 'directory' ? `${shown}/` : info.type === 'file' ? `${shown}  (${humanSize(info.size)}, ${shortLocalTime(info.mtimeMs)})` : shown);
        }
      }
      if (ctx.signal.aborted) {
        return { outcome: 'cancelled', text: pick(text('사용자가 검색을 중지했습니다.', 'The search was stopped by the user.'), lang) };
      }
      if (total === 0) {
        const checked = scanned === undefined ? text('', '') : text(` (파일 ${scanned}개 확인)`, ` (${scanned} files checked)`);
        return ok(
          pick(
            text(
              `'${shownFolder}' 아래에 '${shownPattern}'에 맞는 파일이 없습니다${checked.ko}. 이름의 일부만 주거나(예: "보고서") 패턴을 넓혀 보세요. 숨김 파일은 찾지 않습니다.`,
              `No file under '${shownFolder}' matches '${shownPattern}'${checked.en}. Try part of the name (e.g. "report") or a wider pattern. Hidden files are not searched.`,
            ),
            lang,
          ) + policySkipNote(files, lang).map((l) => `\n${l}`).join(''),
          { count: 0 },
        );
      }
      const lines = [
        pick(
          text(`'${shownFolder}' 아래에서 '${shownPattern}'에 맞는 항목 ${total}개:`, `${total} match(es) for '${shownPattern}' under '${shownFolder}':`),
          lang,
        ),
        ...found,
      ];
      if (total > found.length) {
        lines.push(
          pick(
            text(`… 외 ${total - found.length}개 더 있음. 패턴이나 path를 좁혀 다시 찾으세요.`, `… and ${total - found.length} more. Narrow the pattern or the path.`),
            lang,
          ),
        );
      }
      if (scanCut) {
        lines.push(
          pick(
            text(
              `[파일이 너무 많아 앞의 ${MAX_SCANNED_FILES}개만 살펴봤습니다. path로 폴더를 좁히세요.]`,
              `[Too many files: only the first ${MAX_SCANNED_FILES} were checked. Narrow the folder with path.]`,
            ),
            lang,
          ),
        );
      }
      return ok([...lines, ...policySkipNote(files, lang)].join('\n'), { count: total, truncated: total > found.length || scanCut });
    } catch (e) {
      return fromHostError(lang, e, files);
    }
  },
});

/** Issue 14 class 3: entries a deny/ask rule covers were left out of the walk; say how many. */
function policySkipNote(files: { skippedByPolicy?(): number }, lang: Lang): string[] {
  const n = files.skippedByPolicy?.() ?? 0;
  return n === 0 ? [] : [pick(text(`[정책 규칙에 따라 항목 ${n}개를 건너뜀]`, `[${n} items skipped by policy]`), lang)];
}
