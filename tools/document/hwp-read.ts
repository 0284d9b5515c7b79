import { Type } from '@sinclair/typebox';
import type { DocumentFailure } from '../../electron/common/document-capability';
import { text, type Text } from '../../electron/common/i18n';
import { defineTool, isFailure } from '../kit/define-tool';
import { fail } from '../kit/results';
import { blocksToLines } from '../kit/document-text';
import { DEFAULT_LINE_LIMIT, MAX_LINE_LIMIT, documentLinesResult } from '../kit/document-window';
import { DOCUMENT_TIME_LIMIT_MS, checkDocument, checkZipContainer, damagedText, encryptedText, loadDocument, notFinished, outOfMemoryText, withTimeLimit } from '../kit/document-files';
import { hwpContainerOf } from '../kit/hwp-blocks';

/** HWP files above this are refused before reading (a long report with photos is ~30 MB). */
const MAX_BYTES = 100 * 1024 * 1024;
/** Declared unpacked size of an HWPX's parts. */
const MAX_UNPACKED_BYTES = 300 * 1024 * 1024;
const EXTENSIONS = ['hwp', 'hwpx'];

const input = Type.Object(
  {
    path: Type.String({ description: 'HWP or HWPX file, relative to the workspace (e.g. "공문/기안문.hwp").' }),
    offset: Type.Optional(Type.Integer({ description: 'First line of the text to return, 1-based (default 1).' })),
    limit: Type.Optional(Type.Integer({ description: `Number of lines to return (default ${DEFAULT_LINE_LIMIT}, at most ${MAX_LINE_LIMIT}).` })),
  },
  { additionalProperties: false },
);

function wrongKind(shown: string): Text {
  return text(
    `'${shown}'은(는) 한글 문서(.hwp, .hwpx)가 아닙니다. Word는 document.word.read, PDF는 document.pdf.read, 텍스트는 filesystem.read로 읽으세요.`,
    `'${shown}' is not an HWP document (.hwp, .hwpx). Read Word with document.word.read, PDF with document.pdf.read, text with filesystem.read.`,
  );
}

function drmText(shown: string): Text {
  return text(
    `'${shown}'은(는) 문서 보안(DRM)이 걸린 한글 문서라 읽을 수 없습니다. 사용자에게 보안을 해제한 사본을 저장해 달라고 하세요.`,
    `'${shown}' is an HWP document under document security (DRM) and cannot be read. Ask the user to save a copy without it.`,
  );
}

function failureText(result: DocumentFailure, shown: string): Text {
  if (result.reason === 'memory') return outOfMemoryText(shown, result.limitMb);
  switch (result.reason === 'refused' ? result.code : undefined) {
    case 'ENCRYPTED':
      return encryptedText(shown);
    case 'DRM_PROTECTED':
      return drmText(shown);
    default:
      // Damaged, cut off, or a structure the parser does not know: the same way on for the person.
      return damagedText(shown);
  }
}

export const documentHwpRead = defineTool({
  name: 'document.hwp.read',
  description: {
    ko: '한글 문서(.hwp, .hwpx)의 글과 표를 읽습니다. 표는 Markdown 표로 보입니다. 긴 문서는 offset(시작 줄)과 limit으로 나눠 읽습니다.',
    en: 'Read an HWP or HWPX (Hangul) document: text, and tables as Markdown tables. For long documents use offset (first line) and limit.',
  },
  keywords: ['한글', '한글 문서', '아래아한글', '공문', '기안문', 'hwp', 'hwpx', 'hangul'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files', 'documents'],

  precheck: (args, ctx) => checkDocument(args.path, ctx, EXTENSIONS, MAX_BYTES, wrongKind),

  summarize: (args) => text(`한글 문서 '${args.path}'을(를) 읽습니다`, `Reads the HWP document '${args.path}'`),

  async execute(args, ctx) {
    const { lang } = ctx;
    const doc = await loadDocument(args.path, ctx, EXTENSIONS, MAX_BYTES, wrongKind);
    if (isFailure(doc)) return fail(lang, doc.failure);
    const container = hwpContainerOf(doc.bytes);
    if (!container) return fail(lang, damagedText(doc.shown), { damaged: true });
    if (container === 'hwpx') {
      const zip = await checkZipContainer(ctx.files, args.path, doc.size, doc.shown, MAX_UNPACKED_BYTES);
      if (isFailure(zip)) return fail(lang, zip.failure);
    }

    // kordoc runs in the host's parse thread: the time limit and Stop end the thread itself.
    const parsed = await withTimeLimit((signal) => ctx.documents.parse({ kind: container, bytes: doc.bytes, signal }), DOCUMENT_TIME_LIMIT_MS, ctx.signal).catch(() => null);
    if (parsed === null) return fail(lang, damagedText(doc.shown), { damaged: true });
    if (!parsed.ok) return notFinished(parsed.reason, doc.shown, lang);
    const result = parsed.value;
    if (!result.ok && result.reason === 'damaged') return fail(lang, damagedText(doc.shown), { damaged: true });
    if (!result.ok) return fail(lang, failureText(result, doc.shown), result.reason === 'refused' ? { format: container, code: result.code } : { format: container, outOfMemory: true });

    const lines = blocksToLines(result.blocks);
    return documentLinesResult(lines, args, ctx, doc.shown, { format: container, bytes: doc.size }, text(`'${doc.shown}'에는 글자가 없습니다 (그림만 있는 문서일 수 있습니다).`, `'${doc.shown}' contains no text (it may hold only pictures).`));
  },
});
