/**
 * Office documents parsed off the main thread (docs/2026-12-03-document-parse-worker.md). The
 * host parses .docx (mammoth), HWP/HWPX (kordoc) and PDF (pdf.js) in a worker thread of its own
 * and gives back plain data only: the blocks below, a PDF's page count and page texts. A parse
 * that is stopped (Stop, the tool's time limit) ends with its thread, so a document made to be
 * slow neither freezes Baram nor keeps a core busy afterwards.
 */

/** A table cell; merged cells say how many columns and rows they cover (default 1). */
export interface DocCell {
  readonly text: string;
  readonly colSpan?: number;
  readonly rowSpan?: number;
}

/** The few blocks every document reader turns its format's structure into (tools/kit/document-text.ts renders them). */
export type DocBlock =
  | { readonly kind: 'heading'; readonly level: number; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'listItem'; readonly ordered: boolean; readonly depth: number; readonly text: string }
  | { readonly kind: 'table'; readonly rows: readonly (readonly DocCell[])[] };

/** What the bytes are: a Word document, or one of the three containers kordoc reads. */
export type DocumentKind = 'docx' | 'hwp5' | 'hwpx' | 'hwp3';

/** Why a parse gave no document. */
export type DocumentFailure =
  | { readonly reason: 'damaged' }
  /** The parser's own refusal (kordoc: ENCRYPTED, DRM_PROTECTED, …). */
  | { readonly reason: 'refused'; readonly code: string }
  /** The parse needed more memory than its thread may have; the thread ended, Baram did not. */
  | { readonly reason: 'memory'; readonly limitMb: number }
  /** The signal was aborted (Stop, time limit): the parse's thread was ended. */
  | { readonly reason: 'stopped' };

export type ParsedDocument = ({ readonly ok: true; readonly blocks: readonly DocBlock[] }) | ({ readonly ok: false } & DocumentFailure);

export interface DocumentParseRequest {
  readonly kind: DocumentKind;
  /** The whole file. The host copies it before handing it to the parse thread: the caller's buffer stays usable. */
  readonly bytes: Uint8Array;
  /** Aborting it ends the parse's thread at once. */
  readonly signal: AbortSignal;
}

/** A PDF opened in a parse thread of its own, read one page at a time. */
export interface OpenedPdf {
  readonly pages: number;
  /** Text of page `n` (1-based), lines in reading order. Rejects with DocumentParseFailed. */
  pageText(n: number): Promise<string>;
  /** Gives the thread back (or ends it). Never rejects. */
  close(): Promise<void>;
}

export type PdfOpenFailure = 'encrypted' | 'damaged' | 'stopped' | { readonly memoryLimitMb: number };

/** A page (or a parse) that failed: why, as above, plus a PDF's 'encrypted'. */
export class DocumentParseFailed extends Error {
  override readonly name = 'DocumentParseFailed';
  constructor(readonly failure: DocumentFailure | { readonly reason: 'encrypted' }) {
    super(`document parse failed: ${failure.reason}`);
  }
}

export interface DocumentCapability {
  /** A Word or HWP document as blocks. Never rejects for a bad document: it resolves to a failure. */
  parse(request: DocumentParseRequest): Promise<ParsedDocument>;
  /** A PDF's page count, and a handle to read its pages; aborting `signal` ends the thread. */
  openPdf(request: { readonly bytes: Uint8Array; readonly signal: AbortSignal }): Promise<OpenedPdf | PdfOpenFailure>;
}
