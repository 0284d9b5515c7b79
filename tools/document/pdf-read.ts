import { Type } from '@sinclair/typebox';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, isFailure } from '../kit/define-tool';
import { fail, ok } from '../kit/results';
import { textBudget } from '../kit/document-window';
import type { OpenedPdf } from '../../electron/common/document-capability';
import { DOCUMENT_TIME_LIMIT_MS, checkDocument, damagedText, encryptedText, loadDocument, notFinished, outOfMemoryText, withTimeLimit } from '../kit/document-files';
import { pdfErrorKind, type PdfOpenError } from './pdf-extract';
import { classifyPage, cleanPageText, pageList, parsePages, type PageKind } from './pdf-pages';

/** PDFs above this are refused before reading (a scanned 300-page binder is ~150 MB). */
const MAX_BYTES = 200 * 1024 * 1024;
const EXTENSIONS = ['pdf'];

const input = Type.Object(
  {
    path: Type.String({ description: 'PDF file, relative to the workspace (e.g. "보고서/2024.pdf").' }),
    pages: Type.Optional(Type.String({ maxLength: 100, description: 'Pages to read: "3", "2-5", "1,3,5-7" or "4-" (default: from page 1).' })),
  },
  { additionalProperties: false },
);

function wrongKind(shown: string): Text {
  return text(
    `'${shown}'은(는) PDF가 아닙니다. Word는 document.word.read, 한글 문서는 document.hwp.read, 텍스트는 filesystem.read로 읽으세요.`,
    `'${shown}' is not a PDF. Read Word with document.word.read, HWP with document.hwp.read, text with filesystem.read.`,
  );
}

interface ReadPage {
  readonly page: number;
  readonly kind: PageKind;
  readonly text: string;
}

function pageNote(p: ReadPage, lang: Lang): string {
  switch (p.kind) {
    case 'text':
      return '';
    case 'no-text':
      return pick(
        text(
          `[${p.page}쪽에는 글자 층이 없습니다. 스캔한 이미지(또는 빈 쪽)로 보여 글자를 읽을 수 없습니다. 사용자에게 원본 파일이나 글자 인식(OCR)한 사본을 달라고 하세요.]`,
          `[page ${p.page} has no text layer: it looks like a scanned image (or a blank page), so there is no text to read. Ask the user for the original file or an OCR'd copy.]`,
        ),
        lang,
      );
    case 'unreadable':
      return pick(
        text(
          `[${p.page}쪽의 글꼴에는 글자 대응표(ToUnicode)가 없어 추출한 글자가 깨집니다. 깨진 글자를 보여 주지 않습니다. 사용자에게 원본(한글·Word) 파일이나 다시 만든 PDF를 달라고 하세요.]`,
          `[page ${p.page} uses fonts without a character map (ToUnicode), so its extracted text is garbage and is not shown. Ask the user for the original (HWP, Word) file or a newly made PDF.]`,
        ),
        lang,
      );
  }
}

function pageBlock(p: ReadPage, lang: Lang): string {
  const head = pick(text(`--- ${p.page}쪽 ---`, `--- page ${p.page} ---`), lang);
  return `${head}\n${p.kind === 'text' ? p.text : pageNote(p, lang)}`;
}

interface ReadState {
  total: number;
  requested: number[];
  read: ReadPage[];
  /** The one page shown was longer than the budget and is cut. */
  cut: boolean;
  failed?: PdfOpenError | Text;
}

/** Pages of `spec`, one at a time, while they fit `budget` (whole pages only) and nobody stopped. */
async function readPages(pdf: OpenedPdf, spec: string | undefined, budget: number, lang: Lang, signal: AbortSignal, state: ReadState): Promise<void> {
  state.total = pdf.pages;
  const pages = parsePages(spec, pdf.pages);
  if (!Array.isArray(pages)) {
    state.failed = pages;
    return;
  }
  state.requested = pages;
  let used = 0;
  for (const page of pages) {
    if (signal.aborted) return;
    let raw: string;
    try {
      raw = await pdf.pageText(page);
    } catch (e) {
      // Stopped (the parse thread ended): the caller reports the stop, not a damaged file.
      if (signal.aborted) return;
      // A broken page after good ones: show the good ones (the marker names the rest).
      if (state.read.length === 0) state.failed = pdfErrorKind(e);
      return;
    }
    const kind = classifyPage(raw);
    const one: ReadPage = { page, kind, text: kind === 'text' ? cleanPageText(raw) : '' };
    const block = pageBlock(one, lang);
    if (used + block.length + 2 > budget) {
      // A first page longer than the whole budget is cut rather than left out.
      if (state.read.length === 0) {
        state.read.push({ ...one, text: one.text.slice(0, Math.max(0, budget - 40)) });
        state.cut = true;
      }
      return;
    }
    state.read.push(one);
    used += block.length + 2;
  }
}

export const documentPdfRead = defineTool({
  name: 'document.pdf.read',
  description: {
    ko: 'PDF의 글자를 쪽 번호와 함께 읽습니다. pages로 쪽 범위("2-5")를 고릅니다. 스캔한 쪽과 글꼴이 깨진 쪽은 그렇다고 알려 줍니다.',
    en: 'Read the text of a PDF with page numbers; pages picks a range ("2-5"). Scanned pages and pages with broken fonts are reported as such.',
  },
  keywords: ['피디에프', '문서 읽기', '보고서', '쪽', 'pdf', 'read pdf', 'page'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files', 'documents'],

  precheck: (args, ctx) => checkDocument(args.path, ctx, EXTENSIONS, MAX_BYTES, wrongKind),

  summarize: (args) =>
    args.pages
      ? text(`PDF '${args.path}'의 ${args.pages}쪽을 읽습니다`, `Reads pages ${args.pages} of the PDF '${args.path}'`)
      : text(`PDF '${args.path}'을(를) 읽습니다`, `Reads the PDF '${args.path}'`),

  async execute(args, ctx) {
    const { lang } = ctx;
    const doc = await loadDocument(args.path, ctx, EXTENSIONS, MAX_BYTES, wrongKind);
    if (isFailure(doc)) return fail(lang, doc.failure);
    // The header may follow up to 1 KB of junk (readers accept that); anything else is not a PDF.
    if (!new TextDecoder('latin1').decode(doc.bytes.subarray(0, 1024)).includes('%PDF-')) return fail(lang, damagedText(doc.shown), { damaged: true });

    const state: ReadState = { total: 0, requested: [], read: [], cut: false };
    const run = await withTimeLimit(async (signal) => {
      // pdf.js runs in the host's parse thread: the time limit and Stop end the thread itself.
      const opened = await ctx.documents.openPdf({ bytes: doc.bytes, signal });
      if (opened === 'stopped') return;
      if (typeof opened === 'string') {
        state.failed = opened;
        return;
      }
      if ('memoryLimitMb' in opened) {
        state.failed = outOfMemoryText(doc.shown, opened.memoryLimitMb);
        return;
      }
      try {
        await readPages(opened, args.pages, textBudget(ctx), lang, signal, state);
      } finally {
        // Also after the time limit: the loop notices the abort at the next page and closes here.
        await opened.close();
      }
    }, DOCUMENT_TIME_LIMIT_MS, ctx.signal);

    const { read, total } = state;
    if (state.failed === 'encrypted') return fail(lang, encryptedText(doc.shown), { encrypted: true });
    if (state.failed === 'damaged') return fail(lang, damagedText(doc.shown), { damaged: true });
    if (state.failed) return fail(lang, state.failed, { pages: total });
    if (!run.ok && read.length === 0) return notFinished(run.reason, doc.shown, lang);

    const details = {
      format: 'pdf',
      pages: total,
      shown: read.map((p) => p.page),
      noTextPages: read.filter((p) => p.kind === 'no-text').map((p) => p.page),
      unreadablePages: read.filter((p) => p.kind === 'unreadable').map((p) => p.page),
    };
    const body = read.map((p) => pageBlock(p, lang)).join('\n\n');
    if (read.length > 0 && read.every((p) => p.kind !== 'text')) {
      // Nothing readable: an error, so the model does not take the notes for the document's content.
      return fail(lang, text(body, body), details);
    }
    // Without pages the request is the whole PDF, even past the pages one call reads.
    const requested = args.pages?.trim() ? state.requested : Array.from({ length: total }, (_, i) => i + 1);
    const marker = pdfMarker(read, requested, total, state.cut, run.ok ? undefined : run.reason, lang);
    const result = ok(body, details);
    return marker ? { ...result, marker } : result;
  },
});

/** What was shown, and how to read on (issue 18 item 7); nothing when the whole PDF was shown. */
function pdfMarker(read: readonly ReadPage[], requested: readonly number[], total: number, cut: boolean, stopped: 'timeout' | 'cancelled' | undefined, lang: Lang): string | undefined {
  const shown = read.map((p) => p.page);
  const last = shown[shown.length - 1] ?? 0;
  // A cut page is not finished: reading on starts after it all the same (the rest of one page
  // longer than the whole budget is for search.text to find).
  // pageList names a run as a range: the rest of a 600-page PDF is "7-600".
  const remaining = requested.filter((p) => p > last);
  const notes: string[] = [];
  if (cut) notes.push(pick(text(`${last}쪽이 너무 길어 앞부분만 보였습니다.`, `Page ${last} is too long; only its beginning is shown.`), lang));
  if (stopped === 'timeout') notes.push(pick(text(`시간 한도 ${DOCUMENT_TIME_LIMIT_MS / 1000}초에 멈췄습니다.`, `Stopped at the ${DOCUMENT_TIME_LIMIT_MS / 1000}-second time limit.`), lang));
  if (stopped === 'cancelled') notes.push(pick(text('사용자가 중지했습니다.', 'Stopped by the user.'), lang));
  if (shown.length === total && notes.length === 0) return undefined;
  const next = remaining.length > 0 ? pick(text(` 이어서 pages="${pageList(remaining)}"로 읽으세요.`, ` Read on with pages="${pageList(remaining)}".`), lang) : '';
  const head = pick(text(`[${pageList(shown)}쪽 / 전체 ${total}쪽.`, `[pages ${pageList(shown)} of ${total}.`), lang);
  return `${head}${notes.length ? ` ${notes.join(' ')}` : ''}${next}]`;
}
