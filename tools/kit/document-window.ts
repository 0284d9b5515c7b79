import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import type { ToolResult } from '../../electron/common/tool-result';
import { fail, ok } from './results';

/**
 * The part of a document's text lines that fits the call's output budget, and the marker that
 * says what was left out and how to read it (issue 18 item 7). Document readers page by line of
 * the rendered text, like filesystem.read does by line of the file: `offset` is the first line,
 * 1-based, so "read the rest" is one more call with a number the marker gives.
 */

/** Characters kept free for the marker line. */
export const MARKER_RESERVE = 400;

export interface LineWindow {
  readonly lines: readonly string[];
  /** 1-based numbers of the first and last line shown. */
  readonly first: number;
  readonly last: number;
  readonly total: number;
  /** The one line shown was longer than the budget and is cut. */
  readonly lineCut: boolean;
}

/** Characters the model may get back from this call, markers excluded. */
export function textBudget(ctx: { readonly outputBudget: number; readonly policy: { readonly maxOutputChars: number } }): number {
  return Math.max(200, Math.min(ctx.outputBudget, ctx.policy.maxOutputChars) - MARKER_RESERVE);
}

/** Whole lines from `offset` while they fit `budget`; a first line longer than the budget is cut. */
export function lineWindow(all: readonly string[], offset: number, limit: number, budget: number): LineWindow {
  const start = Math.max(1, Math.trunc(offset));
  const out: string[] = [];
  let used = 0;
  let lineCut = false;
  for (let i = start - 1; i < all.length && out.length < limit; i++) {
    const line = all[i]!;
    if (used + line.length + 1 > budget) {
      if (out.length === 0) {
        out.push(line.slice(0, budget));
        lineCut = true;
      }
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return { lines: out, first: start, last: start + out.length - 1, total: all.length, lineCut };
}

/** The marker after a window: nothing when the whole document was shown. */
export function windowMarker(w: LineWindow, lang: Lang): string | undefined {
  const more = w.last < w.total;
  if (w.first === 1 && !more && !w.lineCut) return undefined;
  const cut = w.lineCut
    ? text(` ${w.first}번째 줄이 너무 길어 앞부분만 보였습니다.`, ` Line ${w.first} is too long; only its beginning is shown.`)
    : text('', '');
  const next = more
    ? text(` 나머지는 offset=${w.last + 1}로 이어 읽으세요.`, ` Read on with offset=${w.last + 1}.`)
    : text(' (문서 끝)', ' (end of document)');
  return pick(text(`[줄 ${w.first}–${w.last} / 전체 ${w.total}줄.${cut.ko}${next.ko}]`, `[lines ${w.first}–${w.last} of ${w.total}.${cut.en}${next.en}]`), lang);
}

/** Past the end: which offsets exist. */
export function pastEndText(shown: string, total: number): Text {
  return text(
    `'${shown}'의 내용은 ${total}줄뿐입니다. offset을 1부터 ${total} 사이로 주세요.`,
    `The text of '${shown}' has only ${total} lines. Give an offset between 1 and ${total}.`,
  );
}

/** Lines given when the model names no limit; the output budget usually cuts earlier. */
export const DEFAULT_LINE_LIMIT = 2000;
/** limit is clamped to [1, MAX_LINE_LIMIT] (SPEC G-SCHEMA: ranges are the tool's business). */
export const MAX_LINE_LIMIT = 5000;

/**
 * A reader's answer: the window of `lines` from `offset` that fits the budget, the marker after it,
 * and the facts for the audit record.
 */
export function documentLinesResult(
  lines: readonly string[],
  args: { readonly offset?: number | undefined; readonly limit?: number | undefined },
  ctx: { readonly lang: Lang; readonly outputBudget: number; readonly policy: { readonly maxOutputChars: number } },
  shown: string,
  details: Record<string, unknown>,
  emptyText: Text,
): ToolResult {
  if (lines.length === 0) return ok(pick(emptyText, ctx.lang), { ...details, lines: 0 });
  const offset = Math.max(1, Math.trunc(args.offset ?? 1));
  const limit = Math.min(MAX_LINE_LIMIT, Math.max(1, Math.trunc(args.limit ?? DEFAULT_LINE_LIMIT)));
  if (offset > lines.length) return fail(ctx.lang, pastEndText(shown, lines.length), { ...details, lines: lines.length });
  const w = lineWindow(lines, offset, limit, textBudget(ctx));
  const marker = windowMarker(w, ctx.lang);
  const result = ok(w.lines.join('\n'), { ...details, firstLine: w.first, lastLine: w.last, totalLines: w.total });
  return marker ? { ...result, marker } : result;
}
