import { DocumentParseFailed } from '../../electron/common/document-capability';

/**
 * What the document tools do with a PDF's page texts. The PDF itself is opened and read in the
 * host's parse thread (ctx.documents.openPdf, electron/main/host/documents/pdf-open.ts).
 */

export type PdfOpenError = 'encrypted' | 'damaged';

/** Why a page could not be read, from the capability's rejection. */
export function pdfErrorKind(e: unknown): PdfOpenError {
  return e instanceof DocumentParseFailed && e.failure.reason === 'encrypted' ? 'encrypted' : 'damaged';
}

/**
 * The honesty check on a page's extracted text (document.pdf.read shows it; search.text searches
 * only pages that pass).
 */
export type PageKind = 'text' | 'no-text' | 'unreadable';

/**
 * Share of a page's characters that cannot be text a person wrote, above which the page is called
 * unreadable. A Korean font embedded without a ToUnicode map yields the font's own codes: control
 * characters, private-use code points and U+FFFD, typically for most of the page (the fixture
 * no-tounicode.pdf: 80% control characters). Real text has almost none; 20% leaves room for a
 * page with a few symbols from a picture font.
 */
const UNREADABLE_SHARE = 0.2;

// Controls other than tab and line ends, U+FFFD, and the private-use areas.
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd\ue000-\uf8ff\u{f0000}-\u{10ffff}]/u;

export function classifyPage(pageText: string): PageKind {
  let chars = 0;
  let bad = 0;
  for (const ch of pageText) {
    if (/\s/.test(ch)) continue;
    chars++;
    if (NOT_TEXT.test(ch)) bad++;
  }
  if (chars === 0) return 'no-text';
  return bad / chars > UNREADABLE_SHARE ? 'unreadable' : 'text';
}

/** Text of a readable page as the model sees it: control characters that slipped through dropped. */
export function cleanPageText(pageText: string): string {
  return pageText.replace(new RegExp(NOT_TEXT.source, 'gu'), '').replace(/[ \t]+$/gm, '').trim();
}
