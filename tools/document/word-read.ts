import { Type } from '@sinclair/typebox';
import { text, type Text } from '../../electron/common/i18n';
import { defineTool, isFailure } from '../kit/define-tool';
import { fail } from '../kit/results';
import { blocksToLines } from '../kit/document-text';
import { DEFAULT_LINE_LIMIT, MAX_LINE_LIMIT, documentLinesResult } from '../kit/document-window';
import { DOCUMENT_TIME_LIMIT_MS, checkDocument, checkZipContainer, damagedText, encryptedText, loadDocument, notFinished, outOfMemoryText, withTimeLimit } from '../kit/document-files';

/** Word files above this are refused before reading: a 300-page report with pictures is ~20 MB. */
const MAX_BYTES = 50 * 1024 * 1024;
/** Declared unpacked size of all parts: the XML of a very long document stays well below this. */
const MAX_UNPACKED_BYTES = 300 * 1024 * 1024;
/** .docm is read like .docx: its macros are stored code that nothing here runs. */
const EXTENSIONS = ['docx', 'docm'];

const input = Type.Object(
  {
    path: Type.String({ description: 'Word file (.docx), relative to the workspace (e.g. "계약/견적서.docx").' }),
    offset: Type.Optional(Type.Integer({ description: 'First line of the text to return, 1-based (default 1).' })),
    limit: Type.Optional(Type.Integer({ description: `Number of lines to return (default ${DEFAULT_LINE_LIMIT}, at most ${MAX_LINE_LIMIT}).` })),
  },
  { additionalProperties: false },
);

function wrongKind(shown: string, ext: string): Text {
  if (ext === 'doc') {
    return text(
      `'${shown}'은(는) 예전 Word 형식(.doc)이라 읽을 수 없습니다. 사용자에게 Word에서 .docx로 저장해 달라고 한 뒤 document.word.read로 읽으세요.`,
      `'${shown}' is in the old Word format (.doc), which cannot be read. Ask the user to save it as .docx in Word, then read that with document.word.read.`,
    );
  }
  return text(
    `'${shown}'은(는) Word 문서(.docx)가 아닙니다. PDF는 document.pdf.read, 한글 문서는 document.hwp.read, 텍스트는 filesystem.read로 읽으세요.`,
    `'${shown}' is not a Word document (.docx). Read PDF with document.pdf.read, HWP with document.hwp.read, text with filesystem.read.`,
  );
}

export const documentWordRead = defineTool({
  name: 'document.word.read',
  description: {
    ko: 'Word 문서(.docx)의 제목·문단·목록·표를 Markdown 형태의 글로 읽습니다. 긴 문서는 offset(시작 줄)과 limit으로 나눠 읽습니다.',
    en: 'Read a Word document (.docx): headings, paragraphs, lists and tables as Markdown-like text. For long documents use offset (first line) and limit.',
  },
  keywords: ['워드', '문서 읽기', '보고서', '계약서', 'docx', 'word', 'read document'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files', 'documents'],

  precheck: (args, ctx) => checkDocument(args.path, ctx, EXTENSIONS, MAX_BYTES, wrongKind),

  summarize: (args) => text(`Word 문서 '${args.path}'을(를) 읽습니다`, `Reads the Word document '${args.path}'`),

  async execute(args, ctx) {
    const { lang } = ctx;
    const doc = await loadDocument(args.path, ctx, EXTENSIONS, MAX_BYTES, wrongKind);
    if (isFailure(doc)) return fail(lang, doc.failure);
    const zip = await checkZipContainer(ctx.files, args.path, doc.size, doc.shown, MAX_UNPACKED_BYTES);
    if (isFailure(zip)) return fail(lang, zip.failure);
    // A password-protected .docx is an OLE container holding the encrypted package.
    if ('ole' in zip) return fail(lang, encryptedText(doc.shown), { encrypted: true });

    // mammoth runs in the host's parse thread: the time limit and Stop end the thread itself.
    const parsed = await withTimeLimit((signal) => ctx.documents.parse({ kind: 'docx', bytes: doc.bytes, signal }), DOCUMENT_TIME_LIMIT_MS, ctx.signal).catch(() => null);
    if (parsed === null) return fail(lang, damagedText(doc.shown), { damaged: true });
    if (!parsed.ok) return notFinished(parsed.reason, doc.shown, lang);
    const result = parsed.value;
    if (!result.ok && result.reason === 'memory') return fail(lang, outOfMemoryText(doc.shown, result.limitMb), { outOfMemory: true });
    if (!result.ok) return fail(lang, damagedText(doc.shown), { damaged: true });

    const lines = blocksToLines(result.blocks);
    return documentLinesResult(lines, args, ctx, doc.shown, { format: 'docx', bytes: doc.size }, text(`'${doc.shown}'에는 글자가 없습니다 (그림만 있는 문서일 수 있습니다).`, `'${doc.shown}' contains no text (it may hold only pictures).`));
  },
});
