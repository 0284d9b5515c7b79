/**
 * pdf.js (through pdf-parse, loaded only when a PDF is read) opened safely on bytes in memory:
 * the text of one page at a time, so a caller can stop between pages (time limit, output budget,
 * Stop). The benchmark measures exactly this against pdftotext.
 */

export interface OpenedPdf {
  readonly pages: number;
  /** Text of page `n` (1-based), lines in reading order. */
  pageText(n: number): Promise<string>;
  close(): Promise<void>;
}

export type PdfOpenError = 'encrypted' | 'damaged';

export function pdfErrorKind(e: unknown): PdfOpenError {
  return e instanceof Error && e.name === 'PasswordException' ? 'encrypted' : 'damaged';
}

export async function openPdf(bytes: Uint8Array): Promise<OpenedPdf | PdfOpenError> {
  const { PDFParse } = await import('pdf-parse');
  // No scripts: pdf.js runs no PDF JavaScript outside a viewer, and isEvalSupported off keeps it
  // from compiling the PDF's PostScript functions into JavaScript. Nothing is fetched (no URLs are
  // given) and no system fonts are looked up. pdf.js takes over the buffer it is given: a copy.
  const parser = new PDFParse({
    data: bytes.slice(),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let pages: number;
  try {
    pages = (await parser.getInfo()).total;
  } catch (e) {
    await parser.destroy().catch(() => undefined);
    return pdfErrorKind(e);
  }
  return {
    pages,
    pageText: async (n) => (await parser.getText({ partial: [n] })).pages[0]?.text ?? '',
    close: () => parser.destroy().catch(() => undefined),
  };
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
