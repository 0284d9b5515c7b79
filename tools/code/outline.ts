import { Type } from '@sinclair/typebox';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, failure, type Failure, type PrecheckContext } from '../kit/define-tool';
import { textBudget } from '../kit/document-window';
import { humanSize } from '../kit/format';
import { fail, fromHostError, ok } from '../kit/results';
import { checkExisting, displayOf, refusal } from '../kit/targets';
import { decodeText, looksBinary } from '../kit/text-decoding';
import { binaryFileText } from '../kit/text-file';
import { grammarFor, SUPPORTED_LANGUAGES, unsupportedByName, type GrammarChoice } from './grammars';
import { withSyntaxTree } from './parser';
import { countSymbols, symbolsOf, type CodeSymbol, type SymbolKind } from './symbols';

/**
 * Larger source files are refused: hand-written code is rarely over a few hundred kilobytes, and
 * parsing is synchronous on the main process. Measured here (2 cores, shared): 2 MiB of
 * typescript.js parsed and outlined in ~1.8 s, so 1 MiB holds the worst case near one second.
 */
const MAX_SOURCE_BYTES = 1024 * 1024;

const input = Type.Object(
  {
    path: Type.String({ description: 'Source file, relative to the workspace (e.g. "src/app.ts").' }),
  },
  { additionalProperties: false },
);

const KIND_LABEL: Record<SymbolKind, Text> = {
  namespace: text('네임스페이스', 'namespace'),
  module: text('모듈', 'module'),
  class: text('클래스', 'class'),
  struct: text('구조체', 'struct'),
  interface: text('인터페이스', 'interface'),
  trait: text('트레이트', 'trait'),
  impl: text('impl', 'impl'),
  enum: text('열거형', 'enum'),
  record: text('레코드', 'record'),
  type: text('타입', 'type'),
  function: text('함수', 'function'),
  method: text('메서드', 'method'),
  constructor: text('생성자', 'constructor'),
};

function unsupportedText(shown: string): Text {
  return text(
    `'${shown}'은(는) 구조를 볼 수 있는 언어가 아닙니다. 지원 언어: ${SUPPORTED_LANGUAGES}. 내용은 filesystem.read로 읽고, 언어별 줄 수는 code.stats로 보세요.`,
    `'${shown}' is not in a language code.outline can parse. Supported: ${SUPPORTED_LANGUAGES}. Read the file with filesystem.read instead; code.stats counts lines per language.`,
  );
}

async function checkSource(path: string, ctx: PrecheckContext): Promise<Failure | null> {
  const refused = await checkExisting(path, 'path', ctx, 'file');
  if (refused) return refused;
  return unsupportedByName(path) ? failure(unsupportedText(path)) : null;
}

function lineRange(s: CodeSymbol): string {
  return s.endLine > s.startLine ? `${s.startLine}–${s.endLine}` : `${s.startLine}`;
}

/** One line per symbol, two spaces of indent per nesting level: `  method save  12–30`. */
function outlineLines(symbols: readonly CodeSymbol[], lang: Lang, depth = 0, out: { line: string; start: number }[] = []): { line: string; start: number }[] {
  for (const s of symbols) {
    // TypeScript's constructor is named "constructor": "constructor constructor" says nothing more.
    const label = s.kind === 'constructor' && s.name === 'constructor' ? pick(KIND_LABEL.constructor, lang) : `${pick(KIND_LABEL[s.kind], lang)} ${s.name}`;
    out.push({ line: `${'  '.repeat(depth)}${label}  ${lineRange(s)}`, start: s.startLine });
    outlineLines(s.children, lang, depth + 1, out);
  }
  return out;
}

export const codeOutline = defineTool({
  name: 'code.outline',
  description: {
    ko: '소스 파일 하나의 구조(클래스·함수·메서드·인터페이스·타입)를 줄 번호와 함께 봅니다. TS/JS, Python, Java, C#, Go, Rust, C/C++ 등.',
    en: 'Outline a source file: classes, functions, methods, interfaces, types, with line numbers and nesting (TS/JS, Python, Java, C#, Go, Rust, C/C++ …).',
  },
  keywords: ['코드', '함수 목록', '함수', '클래스', '메서드', '구조', '개요', '심볼', '소스 파일', 'outline', 'symbols', 'functions', 'classes', 'methods', 'structure', 'code'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files'],

  precheck: (args, ctx) => checkSource(args.path, ctx),

  summarize: (args) => text(`'${args.path}' 파일의 코드 구조를 봅니다`, `Outlines the code in '${args.path}'`),

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const refused = await checkSource(args.path, ctx);
    if (refused) return fail(lang, refused.failure);
    try {
      const info = await files.stat(args.path);
      if (!info) return fail(lang, refusal('NOT_FOUND', args.path, files).failure);
      const shown = displayOf(files, info.path);
      const bytes = await files.readBytes(info.path, { maxBytes: MAX_SOURCE_BYTES + 1 });
      if (bytes.length > MAX_SOURCE_BYTES) {
        return fail(
          lang,
          text(
            `'${shown}'은(는) ${humanSize(MAX_SOURCE_BYTES)}가 넘어 구조를 볼 수 없습니다(생성된 코드일 수 있음). search.text로 함수 이름을 찾거나 filesystem.read로 나눠 읽으세요.`,
            `'${shown}' is larger than ${humanSize(MAX_SOURCE_BYTES)} (perhaps generated code), too large to outline. Find names with search.text, or read parts with filesystem.read.`,
          ),
          { size: bytes.length },
        );
      }
      if (looksBinary(bytes)) return fail(lang, binaryFileText(shown, info.size), { binary: true });
      const source = decodeText(bytes).text;
      const choice: GrammarChoice | null = grammarFor(info.path, source.split('\n', 1)[0] ?? '');
      if (choice === null) return fail(lang, unsupportedText(shown));
      if (ctx.signal.aborted) return { outcome: 'cancelled', text: pick(text('중지했습니다.', 'Stopped.'), lang) };

      const { symbols, hasError } = await withSyntaxTree(choice.grammar, source, (tree) => ({ symbols: symbolsOf(tree, choice.grammar), hasError: tree.rootNode.hasError }));
      const total = countSymbols(symbols);
      const lines = source.length === 0 ? 0 : source.split('\n').length - (source.endsWith('\n') ? 1 : 0);
      const details = { language: choice.language, symbols: total, lines, syntaxErrors: hasError };
      const head = pick(
        text(`'${shown}' (${choice.language}, ${lines}줄): 심볼 ${total}개`, `'${shown}' (${choice.language}, ${lines} lines): ${total} symbol${total === 1 ? '' : 's'}`),
        lang,
      );
      const notes: string[] = [];
      if (hasError) {
        notes.push(pick(text('[구문 오류가 있는 부분은 빠졌을 수 있습니다.]', '[The file has syntax errors; symbols in those parts may be missing.]'), lang));
      }
      if (total === 0) {
        notes.unshift(
          pick(
            text('클래스나 함수 정의가 없습니다. 내용은 filesystem.read로 읽으세요.', 'No class or function definitions found. Read the content with filesystem.read.'),
            lang,
          ),
        );
        return ok([head, ...notes].join('\n'), details);
      }

      // Whole lines while they fit the caller's budget; the note says how many were left out.
      const all = outlineLines(symbols, lang);
      const budget = textBudget(ctx) - head.length - 1;
      const shownLines: string[] = [];
      let used = 0;
      for (const { line } of all) {
        if (used + line.length + 1 > budget) break;
        shownLines.push(line);
        used += line.length + 1;
      }
      if (shownLines.length < all.length) {
        const rest = all.length - shownLines.length;
        const from = all[shownLines.length]?.start ?? 1;
        notes.unshift(
          pick(
            text(
              `[출력 한도 때문에 ${from}번째 줄부터의 심볼 ${rest}개를 생략했습니다. 그 부분은 filesystem.read(offset=${from})로 읽거나 search.text로 이름을 찾으세요.]`,
              `[${rest} more symbols, from line ${from} on, left out to fit the output limit. Read that part with filesystem.read (offset=${from}), or find names with search.text.]`,
            ),
            lang,
          ),
        );
      }
      return ok([head, ...shownLines, ...notes].join('\n'), { ...details, shown: shownLines.length, truncated: shownLines.length < all.length });
    } catch (e) {
      return fromHostError(lang, e, files);
    }
  },
});
