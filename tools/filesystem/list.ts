import type { ReadOnlyFileAccess } from '../kit/define-tool';
import { Type } from '@sinclair/typebox';
import type { FileInfo } from '../../electron/common/file-access';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type PrecheckContext } from '../kit/define-tool';
import { dateRange, DATE_FIELDS_DESCRIPTION, inRange, shortLocalTime } from '../kit/dates';
import { fail, fromHostError, ok, patternOrNone } from '../kit/results';
import { countNoun, humanSize, LIST_CAP } from '../kit/format';
import { namePatternGlob, relativeTo } from '../kit/paths';
import { attempt, displayOf, emptyPathText, globForListing, MAX_COUNTED_MATCHES, refusal } from '../kit/targets';

const input = Type.Object(
  {
    path: Type.String({ description: 'Folder to list, relative to the workspace ("." for the workspace itself).' }),
    recursive: Type.Optional(Type.Boolean({ description: 'Include subfolders (default false).' })),
    pattern: Type.Optional(Type.String({ description: 'Only names matching this glob, e.g. "*.xlsx". Empty = everything.' })),
    // filesystem.search calls it namePattern; a model that mixes the two is understood either way.
    namePattern: Type.Optional(Type.String({ description: 'Same as pattern.' })),
    modifiedAfter: Type.Optional(Type.String({ description: DATE_FIELDS_DESCRIPTION.after })),
    modifiedBefore: Type.Optional(Type.String({ description: DATE_FIELDS_DESCRIPTION.before })),
  },
  { additionalProperties: false },
);

async function checkFolder(path: string, ctx: PrecheckContext): Promise<Failure | null> {
  if (path.trim() === '') return failure(emptyPathText('path'));
  const info = await attempt(ctx.files, () => ctx.files.stat(path));
  if (info === null) return refusal('NOT_FOUND', path, ctx.files);
  if ('failure' in info) return info;
  if (info.type !== 'directory') return refusal('NOT_DIRECTORY', path);
  return null;
}

function entryLine(entry: FileInfo, rel: string): string {
  switch (entry.type) {
    case 'directory':
      return `${rel}/  (${shortLocalTime(entry.mtimeMs)})`;
    case 'file':
      return `${rel}  (${humanSize(entry.size)}, ${shortLocalTime(entry.mtimeMs)})`;
    case 'symlink':
      return `${rel}@`;
    case 'other':
      return rel;
  }
}

export const filesystemList = defineTool({
  name: 'filesystem.list',
  description: {
    ko: '폴더 목록을 크기·수정 날짜와 함께 봅니다. recursive: 하위 폴더까지, pattern: 이름(*.xlsx), modifiedAfter/Before: 날짜("2022").',
    en: 'List the files and subfolders of a folder with size and modification date. recursive: true includes subfolders; pattern (e.g. *.xlsx) filters names; modifiedAfter/modifiedBefore (e.g. "2022", "2023") filter by date.',
  },
  keywords: ['목록', '폴더', '디렉터리', '파일 목록', 'list', 'folder', 'directory', 'ls', 'dir'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files'],

  precheck: (args, ctx) => checkFolder(args.path, ctx),

  summarize: (args) => text(`'${args.path}' 폴더 목록을 봅니다`, `Lists the folder '${args.path}'`),

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const refused = await checkFolder(args.path, ctx);
    if (refused) return fail(lang, refused.failure);
    const pattern = patternOrNone(args.pattern) ?? patternOrNone(args.namePattern);
    const recursive = args.recursive ?? false;
    const range = dateRange(args);
    if (isFailure(range)) return fail(lang, range.failure);
    try {
      // The host returns real paths; the folder's real path makes them relative again.
      const folder = await files.check(args.path);
      const shownFolder = displayOf(files, folder) || '.';
      let entries: FileInfo[];
      let total: number | undefined; // undefined: the host stopped early, the real count is unknown
      if (pattern === undefined && range === null) {
        entries = await files.list(folder, { recursive, maxEntries: LIST_CAP + 1 });
        total = entries.length > LIST_CAP ? undefined : entries.length;
      } else if (pattern === undefined) {
        // A date filter keeps files only: a folder's own mtime says nothing about its contents.
        const all = await files.list(folder, { recursive, maxEntries: MAX_COUNTED_MATCHES + 1 });
        const dated = all.filter((e) => e.type !== 'directory' && inRange(e.mtimeMs, range));
        entries = dated.slice(0, LIST_CAP + 1);
        total = all.length > MAX_COUNTED_MATCHES ? undefined : dated.length;
      } else {
        const matched = await globForListing(files, namePatternGlob(folder, pattern, recursive));
        if (matched.tooMany) return ok(pick(tooManyText(shownFolder, pattern), lang), { count: MAX_COUNTED_MATCHES, truncated: true });
        entries = [];
        let counted = 0;
        for (const path of matched.paths) {
          if (range === null && entries.length >= LIST_CAP) break;
          const info = await files.stat(path);
          if (!info || (range !== null && (info.type === 'directory' || !inRange(info.mtimeMs, range)))) continue;
          counted++;
          if (entries.length < LIST_CAP) entries.push(info);
        }
        total = range === null ? matched.paths.length : counted;
      }
      const rows = entries
        .slice(0, LIST_CAP)
        .map((e) => ({ entry: e, rel: shownBelow(files, folder, e.path) }))
        .filter((r) => r.rel !== '');

      if (rows.length === 0) {
        const none = range !== null
          ? text(
              `'${shownFolder}'에 그 기간에 수정된 파일이 없습니다. 날짜를 넓히거나(modifiedAfter/modifiedBefore) recursive: true로 하위 폴더까지 보세요.`,
              `No file in '${shownFolder}' was modified in that period. Widen the dates (modifiedAfter/modifiedBefore), or use recursive: true.`,
            )
          : pattern === undefined
            ? text(`'${shownFolder}' 폴더가 비어 있습니다.`, `The folder '${shownFolder}' is empty.`)
            : text(
                `'${shownFolder}'에 '${pattern}'에 맞는 항목이 없습니다. pattern을 비워 전체를 보거나, 하위 폴더까지 찾으려면 recursive: true 또는 filesystem.search를 쓰세요.`,
                `Nothing in '${shownFolder}' matches '${pattern}'. Leave pattern empty to see everything, or use recursive: true or filesystem.search to look in subfolders.`,
              );
        return ok([pick(none, lang), ...policySkipNote(files, lang)].join('\n'), { count: 0 });
      }

      const truncated = total === undefined || total > rows.length;
      const dirs = rows.filter((r) => r.entry.type === 'directory').length;
      const counted = `${pick(countNoun(['directory'], dirs), lang)}, ${pick(countNoun(['file'], rows.length - dirs), lang)}`;
      const headline = pick(
        !truncated
          ? text(`'${shownFolder}' 폴더: ${counted}`, `Folder '${shownFolder}': ${counted}`)
          : total === undefined
            ? text(`'${shownFolder}' 폴더 (${LIST_CAP}개 넘음, 앞부분만):`, `Folder '${shownFolder}' (more than ${LIST_CAP} entries; first part only):`)
            : text(`'${shownFolder}' 폴더: ${total}개 중 앞 ${rows.length}개`, `Folder '${shownFolder}': first ${rows.length} of ${total} entries`),
        lang,
      );
      const lines = rows.map((r) => entryLine(r.entry, r.rel));
      if (truncated) {
        lines.push(pick(text('… pattern으로 이름을 거르거나 하위 폴더를 따로 보세요.', '… Filter names with pattern, or list a subfolder on its own.'), lang));
      }
      return ok([headline, ...lines, ...policySkipNote(files, lang)].join('\n'), { count: total ?? rows.length, truncated });
    } catch (e) {
      return fromHostError(lang, e, files);
    }
  },
});

/** Path below the listed folder; a folder reached through a link lists real paths, shown from the root then. */
function shownBelow(files: ReadOnlyFileAccess, folder: string, path: string): string {
  const rel = relativeTo(folder, path);
  // Composed (NFC) as every displayed path (FileAccess.display), so a name from a Mac reads as typed.
  return rel === path ? displayOf(files, path) : rel.normalize('NFC');
}

function tooManyText(folder: string, pattern: string): Text {
  return text(
    `'${folder}'에서 '${pattern}'에 맞는 항목이 ${MAX_COUNTED_MATCHES}개를 넘습니다. pattern이나 폴더를 좁혀 다시 보세요.`,
    `More than ${MAX_COUNTED_MATCHES} entries in '${folder}' match '${pattern}'. Narrow the pattern or the folder.`,
  );
}

/** Issue 14 class 3: entries a deny/ask rule covers were left out of the walk; say how many. */
function policySkipNote(files: { skippedByPolicy?(): number }, lang: Lang): string[] {
  const n = files.skippedByPolicy?.() ?? 0;
  return n === 0 ? [] : [pick(text(`[정책 규칙에 따라 항목 ${n}개를 건너뜀]`, `[${n} items skipped by policy]`), lang)];
}
