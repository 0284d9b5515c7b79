import type { DocumentCapability, ParsedDocument } from '../../../electron/common/document-capability';
import type { DocumentTextOptions } from '../../../electron/common/file-access';
import type { DocBlock } from '../../kit/document-text';
import { DOCUMENT_TIME_LIMIT_MS, extensionOf, withTimeLimit } from '../../kit/document-files';
import { hwpContainerOf } from '../../kit/hwp-blocks';
import { filesOverBytes } from '../../kit/memory-files';
import { classifyPage, cleanPageText } from '../../kit/pdf-extract';
import { cellText, columnLetters, isEmptyValue } from '../../kit/xlsx-cells';
import { openXlsx, xlsxRows } from '../../kit/xlsx-book';
import { readZipIndex } from '../../kit/zip-index';

/**
 * The text of an office document as search.text searches it: the document readers' own
 * extractors (the xlsx book of excel.read, mammoth's tree of document.word.read, kordoc of
 * document.hwp.read, pdf.js of document.pdf.read; the last three in the host's parse thread,
 * ctx.documents), each unit of text with where it stands (sheet
 * and cell, page, paragraph, table row). Made by the host's call of `extract` on a cache miss
 * (ReadTreeOptions.documents) from bytes in memory, and kept by the host as the JSON below.
 */

/** Bump when the units change: the cache keeps texts of each extractor version apart. */
export const EXTRACTOR = 'search.text/documents@1';

export const DOCUMENT_EXTENSIONS = ['xlsx', 'xlsm', 'docx', 'docm', 'pdf', 'hwp', 'hwpx'] as const;

/**
 * Documents above this are not opened for a search (each reader has its own, larger cap for one
 * file asked for by name): a search reads a whole folder, and 50 MB is the host's read limit.
 */
export const MAX_SEARCH_DOCUMENT_BYTES = 50 * 1024 * 1024;
/** Declared unpacked size of a docx/hwpx: its XML is parsed whole, so this bounds the memory. */
const MAX_UNPACKED_BYTES = 100 * 1024 * 1024;
/** A sheet's XML streamed for a search; larger sheets are left out (excel.read pages through them). */
const MAX_SHEET_XML_BYTES = 256 * 1024 * 1024;
/**
 * Characters of text kept per document: a 1,000-page report has ~2 M. A file made to explode on
 * extraction (a sheet of millions of repeated shared strings) stops here and is marked cut.
 */
export const MAX_TEXT_CHARS = 8_000_000;

/** Where a unit of text stands. Cells: sheet position and A1 name; tables: table and row, 1-based. */
export type Unit =
  | readonly [kind: 'cell', sheet: number, cell: string, text: string]
  | readonly [kind: 'page', page: number, text: string]
  | readonly [kind: 'para', paragraph: number, text: string]
  | readonly [kind: 'row', table: number, row: number, text: string];

export type DocumentProblem = 'damaged' | 'encrypted' | 'drm' | 'too-large';

export interface ExtractedDocument {
  readonly units: readonly Unit[];
  /** Sheet names of a workbook, by position. */
  readonly sheets?: readonly string[];
  readonly problem?: DocumentProblem;
  /** The text reached MAX_TEXT_CHARS (or a sheet was too large): only part was kept. */
  readonly cut?: boolean;
  /** PDF pages without text (scans) or with garbage text (no ToUnicode): nothing of them is searched. */
  readonly pagesWithoutText?: number;
}

/** A parse that did not finish: not cached, so a later search tries again. */
export class ExtractionStopped extends Error {
  override readonly name = 'ExtractionStopped';
  constructor(readonly reason: 'timeout' | 'cancelled') {
    super(`document extraction stopped: ${reason}`);
  }
}

/** Counts the characters kept, and says when the cap is reached. */
class Budget {
  used = 0;
  cut = false;
  take(text: string): boolean {
    if (this.used + text.length > MAX_TEXT_CHARS) {
      this.cut = true;
      return false;
    }
    this.used += text.length;
    return true;
  }
}

function problem(p: DocumentProblem): ExtractedDocument {
  return { units: [], problem: p };
}

/** The declared sizes of a zip container (docx, hwpx), before anything is inflated. */
async function zipProblem(path: string, bytes: Uint8Array): Promise<DocumentProblem | 'ole' | null> {
  const index = await readZipIndex(filesOverBytes(path, bytes), path, bytes.length);
  if (!index.ok) return index.reason === 'ole' ? 'ole' : index.reason === 'zip64' ? 'too-large' : 'damaged';
  if (index.entries.reduce((sum, e) => sum + e.size, 0) > MAX_UNPACKED_BYTES) return 'too-large';
  if (index.entries.some((e) => (e.flags & 1) === 1)) return 'encrypted';
  return null;
}

/** Headings, paragraphs and list items are numbered paragraphs; each table row is a unit of its own. */
function blockUnits(blocks: readonly DocBlock[], budget: Budget): Unit[] {
  const units: Unit[] = [];
  let paragraph = 0;
  let table = 0;
  for (const block of blocks) {
    if (block.kind === 'table') {
      table++;
      block.rows.forEach((row, r) => {
        const line = row.map((c) => c.text.trim().replace(/\s*\r?\n\s*/g, ' ')).filter((t) => t !== '').join(' | ');
        if (line !== '' && budget.take(line)) units.push(['row', table, r + 1, line]);
      });
      continue;
    }
    paragraph++;
    if (block.text.trim() !== '' && budget.take(block.text)) units.push(['para', paragraph, block.text]);
  }
  return units;
}

/** A parse that gave no blocks, as a search reports it; a stop is not a result (nothing is cached). */
function parseProblem(parsed: Extract<ParsedDocument, { ok: false }>, signal: AbortSignal): ExtractedDocument {
  if (parsed.reason === 'stopped') throw new ExtractionStopped(signal.reason === 'cancelled' ? 'cancelled' : 'timeout');
  if (parsed.reason === 'memory') return problem('too-large');
  if (parsed.reason === 'refused') return problem(parsed.code === 'ENCRYPTED' ? 'encrypted' : parsed.code === 'DRM_PROTECTED' ? 'drm' : 'damaged');
  return problem('damaged');
}

async function extractWord(path: string, bytes: Uint8Array, documents: DocumentCapability, signal: AbortSignal): Promise<ExtractedDocument> {
  const zip = await zipProblem(path, bytes);
  // A password-protected .docx is an OLE container holding the encrypted package.
  if (zip === 'ole') return problem('encrypted');
  if (zip !== null) return problem(zip);
  const parsed = await documents.parse({ kind: 'docx', bytes, signal });
  if (!parsed.ok) return parseProblem(parsed, signal);
  const budget = new Budget();
  return { units: blockUnits(parsed.blocks, budget), cut: budget.cut };
}

async function extractHwp(path: string, bytes: Uint8Array, documents: DocumentCapability, signal: AbortSignal): Promise<ExtractedDocument> {
  const container = hwpContainerOf(bytes);
  if (container === undefined) return problem('damaged');
  if (container === 'hwpx') {
    const zip = await zipProblem(path, bytes);
    if (zip !== null) return problem(zip === 'ole' ? 'damaged' : zip);
  }
  const parsed = await documents.parse({ kind: container, bytes, signal });
  if (!parsed.ok) return parseProblem(parsed, signal);
  const budget = new Budget();
  return { units: blockUnits(parsed.blocks, budget), cut: budget.cut };
}

async function extractPdf(bytes: Uint8Array, documents: DocumentCapability, signal: AbortSignal): Promise<ExtractedDocument> {
  if (!new TextDecoder('latin1').decode(bytes.subarray(0, 1024)).includes('%PDF-')) return problem('damaged');
  const pdf = await documents.openPdf({ bytes, signal });
  if (pdf === 'stopped') throw new ExtractionStopped(signal.reason === 'cancelled' ? 'cancelled' : 'timeout');
  if (typeof pdf === 'string') return problem(pdf);
  if ('memoryLimitMb' in pdf) return problem('too-large');
  const budget = new Budget();
  const units: Unit[] = [];
  let pagesWithoutText = 0;
  try {
    for (let page = 1; page <= pdf.pages; page++) {
      if (signal.aborted) throw new ExtractionStopped(signal.reason === 'cancelled' ? 'cancelled' : 'timeout');
      let raw: string;
      try {
        raw = await pdf.pageText(page);
      } catch {
        // A broken page among good ones: the good ones stay searchable.
        pagesWithoutText++;
        continue;
      }
      // Scans and pages whose fonts lack ToUnicode: their "text" is nothing or garbage, never searched.
      if (classifyPage(raw) !== 'text') {
        pagesWithoutText++;
        continue;
      }
      const text = cleanPageText(raw);
      if (!budget.take(text)) break;
      units.push(['page', page, text]);
    }
  } finally {
    await pdf.close();
  }
  return { units, cut: budget.cut, ...(pagesWithoutText > 0 ? { pagesWithoutText } : {}) };
}

async function extractXlsx(path: string, bytes: Uint8Array, signal: AbortSignal): Promise<ExtractedDocument> {
  const files = filesOverBytes(path, bytes);
  const book = await openXlsx(files, path, bytes.length);
  if ('problem' in book) {
    return problem(book.problem === 'ole' || book.problem === 'encrypted' ? 'encrypted' : book.problem === 'too-large' ? 'too-large' : 'damaged');
  }
  const budget = new Budget();
  const units: Unit[] = [];
  // Hidden sheets too: a word in a hidden sheet is still in the file the user asks about.
  for (const [position, sheet] of book.sheets.entries()) {
    if (sheet.entry.size > MAX_SHEET_XML_BYTES) {
      budget.cut = true;
      continue;
    }
    for await (const row of xlsxRows(files, book, sheet, signal)) {
      row.cells.forEach((value, c) => {
        if (isEmptyValue(value ?? null)) return;
        const text = cellText(value ?? null);
        if (budget.take(text)) units.push(['cell', position, `${columnLetters(c + 1)}${row.index}`, text]);
      });
      if (budget.cut) break;
    }
    if (budget.cut) break;
  }
  return { units, sheets: book.sheets.map((s) => s.name), cut: budget.cut };
}

/** The extraction of one document by its extension, without a time limit (extractDocument adds it). */
async function extractBy(path: string, bytes: Uint8Array, documents: DocumentCapability, signal: AbortSignal): Promise<ExtractedDocument> {
  if (bytes.length === 0) return problem('damaged');
  switch (extensionOf(path)) {
    case 'xlsx':
    case 'xlsm':
      return extractXlsx(path, bytes, signal);
    case 'docx':
    case 'docm':
      return extractWord(path, bytes, documents, signal);
    case 'pdf':
      return extractPdf(bytes, documents, signal);
    case 'hwp':
    case 'hwpx':
      return extractHwp(path, bytes, documents, signal);
    default:
      return problem('damaged');
  }
}

/**
 * The document's text as the JSON the host caches. A parser that throws means a damaged file (a
 * result, cached like any other: the same file fails the same way next time); one that runs past
 * the documents' time limit, or is stopped, rejects, and nothing is cached.
 */
export async function extractDocument(document: { readonly path: string; readonly bytes: Uint8Array }, documents: DocumentCapability, signal: AbortSignal, limitMs = DOCUMENT_TIME_LIMIT_MS): Promise<string> {
  const run = await withTimeLimit((inner) => extractBy(document.path, document.bytes, documents, inner), limitMs, signal).catch((e: unknown) => {
    if (e instanceof ExtractionStopped) throw e;
    return { ok: true as const, value: problem('damaged') };
  });
  if (!run.ok) throw new ExtractionStopped(run.reason);
  return JSON.stringify(run.value);
}

/** What search.text hands the host's readTree; the parses run in the host's parse thread (`documents`). */
export function documentTextOptions(documents: DocumentCapability, limitMs = DOCUMENT_TIME_LIMIT_MS): DocumentTextOptions {
  return {
    extractor: EXTRACTOR,
    extensions: DOCUMENT_EXTENSIONS,
    maxBytes: MAX_SEARCH_DOCUMENT_BYTES,
    extract: (document, signal) => extractDocument(document, documents, signal, limitMs),
  };
}

/** The cached JSON back as units; null when it is not what this version writes (then it is treated as damaged). */
export function parseExtracted(json: string): ExtractedDocument | null {
  try {
    const value = JSON.parse(json) as ExtractedDocument;
    return Array.isArray(value.units) ? value : null;
  } catch {
    return null;
  }
}
