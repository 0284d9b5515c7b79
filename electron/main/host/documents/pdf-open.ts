/**
 * pdf.js (through pdf-parse, loaded only when a PDF is read) opened safely on bytes in memory:
 * the text of one page at a time, so a caller can stop between pages (time limit, output budget,
 * Stop). Runs in the parse thread (parse-worker.ts); the benchmark measures it against pdftotext.
 */

export interface PdfPages {
  readonly pages: number;
  /** Text of page `n` (1-based), lines in reading order. */
  pageText(n: number): Promise<string>;
  close(): Promise<void>;
}

export type PdfOpenError = 'encrypted' | 'damaged';

export function pdfErrorKind(e: unknown): PdfOpenError {
  return e instanceof Error && e.name === 'PasswordException' ? 'encrypted' : 'damaged';
}

/** `data` is pdf.js's to keep (it takes over the buffer it is given). */
export async function openPdf(data: Uint8Array): Promise<PdfPages | PdfOpenError> {
  const { PDFParse } = await import('pdf-parse');
  // No scripts: pdf.js runs no PDF JavaScript outside a viewer, and isEvalSupported off keeps it
  // from compiling the PDF's PostScript functions into JavaScript. Nothing is fetched (no URLs are
  // given) and no system fonts are looked up.
  const parser = new PDFParse({
    data,
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
