import { Type } from '@sinclair/typebox';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, failure, type Failure, type PrecheckContext } from '../kit/define-tool';
import { asFailure, refusal } from '../kit/targets';
import { fail, fromHostError, ok, patternOrNone } from '../kit/results';
import { globFilter, relativeTo } from './engine/glob-filter';
import { compileQuery, type Query } from './engine/query';
import { searchFiles, type DocumentTrouble, type SearchReport } from './engine/search-files';
import { documentTextOptions } from './engine/document-extract';

const DEFAULT_RESULTS = 200;
const MAX_RESULTS = 2000;
// Longer than any phrase worth searching for; a pasted page is a mistake, and RE2 compiles
// patterns into programs whose size grows with the text.
const MAX_PATTERN_CHARS = 1000;
// Room kept for the summary lines under the matches, within the model's output budget.
const FOOTER_CHARS = 1400;
// Unreadable files listed by name; more are only counted.
const LISTED_PROBLEMS = 5;

const input = Type.Object(
  {
    pattern: Type.String({ description: 'Text or RE2 regex to find in file contents (use fixedString for text with symbols like ( . *).' }),
    path: Type.Optional(Type.String({ description: 'File or folder to search, relative to the workspace (default: the whole workspace).' })),
    glob: Type.Optional(Type.String({ description: 'Only files whose names match, e.g. "*.txt", "*.{md,csv}", "docs/**/*.md". Empty = all files.' })),
    ignoreCase: Type.Optional(Type.Boolean({ description: 'Match upper and lower case alike (default false).' })),
    fixedString: Type.Optional(Type.Boolean({ description: 'Treat pattern as plain text, not a regex (default false).' })),
    maxResults: Type.Optional(Type.Integer({ description: `Maximum matching lines (default ${DEFAULT_RESULTS}, at most ${MAX_RESULTS}).` })),
  },
  { additionalProperties: false },
);

interface Args {
  readonly pattern: string;
  readonly path?: string;
  readonly glob?: string;
  readonly ignoreCase?: boolean;
  readonly fixedString?: boolean;
  readonly maxResults?: number;
}

/** An omitted or empty path means the first workspace root, as for the permission subject. */
function whereOf(path: string | undefined): string {
  return path === undefined || path.trim() === '' ? '.' : path;
}

function clampResults(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return DEFAULT_RESULTS;
  return Math.min(MAX_RESULTS, Math.max(1, Math.trunc(n)));
}

/** The pattern as compiled, or the refusal a model can act on. */
function queryOf(args: Args): Query | Failure {
  const pattern = args.pattern;
  if (pattern === '') {
    return failure(
      text(
        'pattern이 비어 있습니다. 찾을 글자를 pattern에 주세요. 파일 목록은 filesystem.list, 이름으로 찾기는 filesystem.search를 쓰세요.',
        'pattern is empty. Give the text to find as pattern. To list files use filesystem.list; to find files by name use filesystem.search.',
      ),
    );
  }
  if (pattern.length > MAX_PATTERN_CHARS) {
    return failure(
      text(
        `pattern이 너무 깁니다(${pattern.length}자, 최대 ${MAX_PATTERN_CHARS}자). 찾을 글의 특징적인 짧은 부분만 주세요.`,
        `pattern is too long (${pattern.length} characters, at most ${MAX_PATTERN_CHARS}). Give a short, distinctive part of the text.`,
      ),
    );
  }
  const compiled = compileQuery({ pattern, ignoreCase: args.ignoreCase === true, fixedString: args.fixedString === true });
  if (compiled.ok) return compiled.query;
  return failure(
    text(
      `정규식 '${pattern}'을(를) 쓸 수 없습니다: ${compiled.message}. 글자 그대로 찾으려면 fixedString: true를 주세요. RE2 문법이라 전후방 탐색((?=…), (?<=…))과 역참조(\\1)는 없습니다.`,
      `The regex '${pattern}' is invalid: ${compiled.message}. To search for the text literally, pass fixedString: true. The syntax is RE2: no lookaround ((?=…), (?<=…)) and no backreferences (\\1).`,
    ),
  );
}

interface Target {
  readonly where: string;
  /** Absolute, checked path of the file or folder searched. */
  readonly absolute: string;
  readonly isFile: boolean;
}

async function targetOf(where: string, ctx: PrecheckContext): Promise<Target | Failure> {
  try {
    const absolute = await ctx.files.check(where);
    const info = await ctx.files.stat(where);
    if (info === null) return refusal('NOT_FOUND', where, ctx.files);
    return { where, absolute, isFile: info.type === 'file' };
  } catch (e) {
    return asFailure(e, ctx.files);
  }
}

function say(lang: Lang, t: Text): string {
  return pick(t, lang);
}

/** Issue 14 class 3: entries a deny/ask rule covers were left out of the walk; say how many. */
function policySkipNote(files: { skippedByPolicy?(): number }, lang: Lang): string[] {
  const n = files.skippedByPolicy?.() ?? 0;
  return n === 0 ? [] : [pick(text(`[정책 규칙에 따라 항목 ${n}개를 건너뜀]`, `[${n} items skipped by policy]`), lang)];
}

function notes(report: SearchReport, lang: Lang, maxResults: number): string[] {
  const out: string[] = [];
  if (report.stopped === 'maxResults') {
    out.push(
      say(
        lang,
        text(
          `[결과가 ${maxResults}줄에서 잘렸습니다. glob(예: "*.txt")이나 path로 범위를 좁히거나 pattern을 더 구체적으로 주세요${maxResults < MAX_RESULTS ? ` (maxResults는 최대 ${MAX_RESULTS})` : ''}.]`,
          `[Results capped at ${maxResults} lines. Narrow the search with glob (e.g. "*.txt") or path, or make the pattern more specific${maxResults < MAX_RESULTS ? ` (maxResults goes up to ${MAX_RESULTS})` : ''}.]`,
        ),
      ),
    );
  } else if (report.stopped === 'maxChars') {
    out.push(
      say(
        lang,
        text(
          `[출력 한도에 닿아 ${report.lines.length}줄에서 멈췄습니다. glob이나 path로 범위를 좁히거나 pattern을 더 구체적으로 주세요.]`,
          `[Stopped at ${report.lines.length} lines: the output limit was reached. Narrow the search with glob or path, or make the pattern more specific.]`,
        ),
      ),
    );
  }
  if (report.binarySkipped > 0) {
    out.push(
      say(
        lang,
        text(
          `[바이너리 파일 ${report.binarySkipped}개(그림, 압축 파일, 옛 .xls·.doc 등)는 건너뛰었습니다. 이름으로 찾으려면 filesystem.search를 쓰세요.]`,
          `[${report.binarySkipped} binary file(s) skipped (pictures, archives, old .xls/.doc and the like). To find them by name use filesystem.search.]`,
        ),
      ),
    );
  }
  if (report.partial.length > 0) {
    const names = report.partial.slice(0, LISTED_PROBLEMS).join(', ');
    out.push(
      say(
        lang,
        text(`[앞부분만 검색한 파일: ${names}${report.partial.length > LISTED_PROBLEMS ? ' …' : ''}]`, `[Only the beginning was searched of: ${names}${report.partial.length > LISTED_PROBLEMS ? ' …' : ''}]`),
      ),
    );
  }
  out.push(...documentNotes(report, lang));
  if (report.unreadable.length > 0) {
    const names = report.unreadable
      .slice(0, LISTED_PROBLEMS)
      .map((u) => u.path)
      .join(', ');
    out.push(
      say(
        lang,
        text(
          `[읽지 못한 파일 ${report.unreadable.length}개: ${names}${report.unreadable.length > LISTED_PROBLEMS ? ' …' : ''}]`,
          `[${report.unreadable.length} file(s) could not be read: ${names}${report.unreadable.length > LISTED_PROBLEMS ? ' …' : ''}]`,
        ),
      ),
    );
  }
  return out;
}

function troubleLabel(problem: DocumentTrouble['problem']): Text {
  switch (problem) {
    case 'encrypted':
      return text('암호', 'password');
    case 'drm':
      return text('문서 보안', 'DRM');
    case 'damaged':
      return text('손상', 'damaged');
    case 'too-large':
    case 'TOO_LARGE':
      return text('너무 큼', 'too large');
    case 'timeout':
      return text('시간 초과', 'timed out');
    default:
      return text('읽기 실패', 'unreadable');
  }
}

/** What the model should know about the documents of this search, and how to go on. */
function documentNotes(report: SearchReport, lang: Lang): string[] {
  const out: string[] = [];
  if (report.documentsWithMatches > 0) {
    out.push(
      say(
        lang,
        text(
          '[문서 안에서 찾은 곳은 줄 번호 대신 위치(시트!셀, 쪽, 문단, 표 행)로 보입니다. 앞뒤 내용은 excel.read(sheet, range), document.pdf.read(pages), document.word.read, document.hwp.read로 읽으세요.]',
          '[Matches inside documents show the place (sheet!cell, page, paragraph, table row) instead of a line number. Read around them with excel.read (sheet, range), document.pdf.read (pages), document.word.read or document.hwp.read.]',
        ),
      ),
    );
  }
  if (report.documentTrouble.length > 0) {
    const listed = report.documentTrouble.slice(0, LISTED_PROBLEMS);
    const names = (l: Lang) => listed.map((t) => `${t.path} (${pick(troubleLabel(t.problem), l)})`).join(', ') + (report.documentTrouble.length > LISTED_PROBLEMS ? ' …' : '');
    out.push(
      say(
        lang,
        text(
          `[내용을 검색하지 못한 문서 ${report.documentTrouble.length}개: ${names('ko')}. 암호·손상된 문서는 사용자에게 풀거나 다시 저장한 사본을 달라고 하세요.]`,
          `[${report.documentTrouble.length} document(s) could not be searched: ${names('en')}. For password-protected or damaged ones, ask the user for an unlocked or re-saved copy.]`,
        ),
      ),
    );
  }
  if (report.documentsPending > 0) {
    out.push(
      say(
        lang,
        text(
          `[처음 보는 문서가 많아 시간 한도 안에 ${report.documentsPending}개를 읽지 못했습니다. 같은 검색을 한 번 더 하면 이어서 읽습니다 (읽은 문서는 기억해 둡니다). path나 glob으로 좁혀도 됩니다.]`,
          `[${report.documentsPending} document(s) were not read within this search's time limit (many documents seen for the first time). Run the same search again to continue (documents already read are remembered), or narrow it with path or glob.]`,
        ),
      ),
    );
  }
  return out;
}

function noMatches(report: SearchReport, args: Args, shown: string, lang: Lang): string {
  const glob = patternOrNone(args.glob);
  if (report.filesSearched === 0) {
    return say(
      lang,
      text(
        `'${shown}' 아래에 검색할 텍스트 파일이나 문서가 없습니다${glob ? ` (glob '${glob}'에 맞는 파일 없음)` : ''}. 숨김 파일과 .gitignore 대상은 검색하지 않습니다. 파일 이름은 filesystem.search로 찾으세요.`,
        `No text files or documents to search under '${shown}'${glob ? ` (none match glob '${glob}')` : ''}. Hidden files and .gitignore'd files are not searched. Find files by name with filesystem.search.`,
      ),
    );
  }
  const regexHint = args.fixedString !== true && /[\\.*+?()[\]{}|^$]/.test(args.pattern);
  return say(
    lang,
    text(
      `'${shown}'에서 '${args.pattern}'을(를) 찾지 못했습니다 (파일 ${report.filesSearched}개 검색). ` +
        `${args.ignoreCase === true ? '' : 'ignoreCase: true로 대소문자를 무시하거나, '}더 짧은 pattern을 써 보세요` +
        `${regexHint ? '. 기호를 글자 그대로 찾으려면 fixedString: true' : ''}. 파일 이름으로 찾으려면 filesystem.search를 쓰세요.`,
      `No match for '${args.pattern}' in '${shown}' (${report.filesSearched} files searched). ` +
        `Try ${args.ignoreCase === true ? '' : 'ignoreCase: true or '}a shorter pattern` +
        `${regexHint ? '; to match the symbols literally pass fixedString: true' : ''}. To find files by name use filesystem.search.`,
    ),
  );
}

export const searchText = defineTool({
  name: 'search.text',
  description: {
    ko: '파일 내용에서 글자·정규식(RE2)을 찾습니다(grep). 엑셀·워드·PDF·한글 문서 안도 찾습니다. 결과: 경로:줄:내용(문서는 시트!셀·쪽·문단). 이름은 filesystem.search.',
    en: 'Search file contents for text or an RE2 regex (grep), also inside Excel, Word, PDF and HWP documents. Output: path:line:text (documents: sheet!cell, page, paragraph). Narrow with glob (e.g. *.pdf). By name: filesystem.search.',
  },
  keywords: ['내용 검색', '찾기', '검색', '글자 찾기', '문자열', '포함된 파일', '정규식', 'grep', 'rg', 'search', 'find text', 'contents', 'regex', 'contains'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files', 'documents'],

  async precheck(args, ctx) {
    const query = queryOf(args);
    if ('failure' in query) return query;
    const target = await targetOf(whereOf(args.path), ctx);
    return 'failure' in target ? target : null;
  },

  summarize: (args) => text(`'${whereOf(args.path)}'에서 '${args.pattern}'을(를) 찾습니다`, `Searches '${whereOf(args.path)}' for '${args.pattern}'`),

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const query = queryOf(args);
    if ('failure' in query) return fail(lang, query.failure);
    const target = await targetOf(whereOf(args.path), ctx);
    if ('failure' in target) return fail(lang, target.failure);
    const maxResults = clampResults(args.maxResults);
    const glob = patternOrNone(args.glob);
    // A file named explicitly is searched whatever the glob says (as ripgrep does).
    const matchesGlob = glob === undefined || target.isFile ? null : globFilter(glob);
    const include = matchesGlob === null ? null : (abs: string) => matchesGlob(relativeTo(target.absolute, abs));

    let report: SearchReport;
    try {
      report = await searchFiles(files, {
        path: target.where,
        query,
        include,
        maxResults,
        maxChars: Math.max(1000, ctx.policy.maxOutputChars - FOOTER_CHARS),
        signal: ctx.signal,
        documents: documentTextOptions(ctx.documents),
        lang,
      });
    } catch (e) {
      return fromHostError(lang, e);
    }
    const details = {
      matches: report.lines.length,
      filesWithMatches: report.filesWithMatches,
      filesSearched: report.filesSearched,
      binarySkipped: report.binarySkipped,
      unreadable: report.unreadable.length,
      capped: report.stopped !== null,
      documentsSearched: report.documentsSearched,
      documentsFromCache: report.documentsFromCache,
      documentsNotSearched: report.documentTrouble.length + report.documentsPending,
    };
    if (report.cancelled) {
      return {
        outcome: 'cancelled',
        text: say(lang, text(`검색을 중지했습니다 (그때까지 ${report.lines.length}줄 찾음).`, `The search was stopped (${report.lines.length} lines found by then).`)),
        details,
      };
    }
    const shown = files.display(target.absolute) || '.';
    if (report.lines.length === 0) return ok([noMatches(report, args, shown, lang), ...notes(report, lang, maxResults), ...policySkipNote(files, lang)].join('\n'), details);
    const summary = say(
      lang,
      text(
        `[${report.filesWithMatches}개 파일에서 ${report.lines.length}줄 찾음, 파일 ${report.filesSearched}개 검색]`,
        `[${report.lines.length} matching line(s) in ${report.filesWithMatches} file(s); ${report.filesSearched} files searched]`,
      ),
    );
    return ok([...report.lines, summary, ...notes(report, lang, maxResults), ...policySkipNote(files, lang)].join('\n'), details);
  },
});
