import { parentPort } from 'node:worker_threads';
import type { DocumentFailure, DocumentKind, ParsedDocument } from '../../../common/document-capability';
import { hwpBlocks, parseHwpBytes } from './hwp-parse';
import { openPdf, pdfErrorKind, type PdfPages } from './pdf-open';
import { readWordTree, wordBlocks } from './word-tree';

/**
 * The parse thread (docs/2026-12-03-document-parse-worker.md): mammoth, kordoc and pdf.js run
 * here, never on the thread that hosts the gate and the window's IPC. It gets the file's bytes
 * (a transferred ArrayBuffer) and answers plain data only (blocks, page counts, page texts), so no
 * library object crosses back. One request at a time: the host gives a thread to one document
 * and ends the thread to stop it (a synchronous parse cannot be interrupted any other way).
 */

export type ParseRequest =
  | { readonly id: number; readonly op: 'parse'; readonly kind: DocumentKind; readonly bytes: ArrayBuffer }
  | { readonly id: number; readonly op: 'pdf-open'; readonly bytes: ArrayBuffer }
  | { readonly id: number; readonly op: 'pdf-page'; readonly page: number }
  | { readonly id: number; readonly op: 'pdf-close' };

export type ParseReply =
  | { readonly id: number; readonly op: 'parse'; readonly result: ParsedDocument }
  | { readonly id: number; readonly op: 'pdf-open'; readonly result: { readonly pages: number } | 'encrypted' | 'damaged' }
  | { readonly id: number; readonly op: 'pdf-page'; readonly text: string }
  | { readonly id: number; readonly op: 'pdf-page'; readonly failed: 'encrypted' | 'damaged' }
  | { readonly id: number; readonly op: 'pdf-close' };

/**
 * A library's console output must not reach the CLI's stdout (the result JSON) or the app's log;
 * silenced here rather than piped (the parent's end of a piped stdout would keep a CLI process
 * alive while a finished thread waits for the next document).
 */
for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir'] as const) console[method] = () => undefined;
process.stdout.write = () => true;
process.stderr.write = () => true;

const damaged: DocumentFailure = { reason: 'damaged' };

async function parse(kind: DocumentKind, buffer: ArrayBuffer): Promise<ParsedDocument> {
  try {
    if (kind === 'docx') {
      const tree = await readWordTree(new Uint8Array(buffer));
      return tree === undefined ? { ok: false, ...damaged } : { ok: true, blocks: wordBlocks(tree) };
    }
    const result = await parseHwpBytes(buffer, kind);
    if (!result.success) return { ok: false, reason: 'refused', code: result.code ?? 'PARSE_ERROR' };
    return { ok: true, blocks: hwpBlocks(result.blocks) };
  } catch {
    // Damaged, cut off, or a structure the parser does not know.
    return { ok: false, ...damaged };
  }
}

/** The PDF this thread holds open, between a pdf-open and its pdf-close. */
let pdf: PdfPages | null = null;

async function answer(request: ParseRequest): Promise<ParseReply> {
  switch (request.op) {
    case 'parse':
      return { id: request.id, op: 'parse', result: await parse(request.kind, request.bytes) };
    case 'pdf-open': {
      await pdf?.close();
      pdf = null;
      const opened = await openPdf(new Uint8Array(request.bytes)).catch(() => 'damaged' as const);
      if (typeof opened === 'string') return { id: request.id, op: 'pdf-open', result: opened };
      pdf = opened;
      return { id: request.id, op: 'pdf-open', result: { pages: opened.pages } };
    }
    case 'pdf-page': {
      if (pdf === null) return { id: request.id, op: 'pdf-page', failed: 'damaged' };
      try {
        return { id: request.id, op: 'pdf-page', text: await pdf.pageText(request.page) };
      } catch (e) {
        return { id: request.id, op: 'pdf-page', failed: pdfErrorKind(e) };
      }
    }
    case 'pdf-close':
      await pdf?.close();
      pdf = null;
      return { id: request.id, op: 'pdf-close' };
  }
}

const port = parentPort;
if (port === null) throw new Error('parse-worker.ts is a worker thread entry; the host starts it (parse-client.ts)');
port.on('message', (request: ParseRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});
