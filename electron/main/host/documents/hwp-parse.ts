import type { IRBlock, ParseResult } from 'kordoc';
import type { DocBlock, DocumentKind } from '../../../common/document-capability';

/**
 * kordoc's intermediate blocks as ours. kordoc gives a table as its full grid (rows × cols, the
 * positions a merged cell covers filled with empty cells), so its cells go over one to one without
 * spans; its own Markdown would print merged tables as HTML, which a small model reads badly.
 */
export function hwpBlocks(blocks: readonly IRBlock[]): DocBlock[] {
  const out: DocBlock[] = [];
  const visit = (b: IRBlock, depth: number): void => {
    const content = (b.text ?? '').trim();
    switch (b.type) {
      case 'heading':
        if (content) out.push({ kind: 'heading', level: b.level ?? 1, text: content });
        break;
      case 'paragraph':
        if (content) out.push({ kind: 'paragraph', text: content });
        break;
      case 'list':
        if (content) out.push({ kind: 'listItem', ordered: b.listType === 'ordered', depth, text: content });
        for (const child of b.children ?? []) visit(child, depth + 1);
        break;
      case 'table': {
        const table = b.table;
        if (!table) break;
        if (table.caption?.trim()) out.push({ kind: 'paragraph', text: table.caption.trim() });
        out.push({ kind: 'table', rows: table.cells.map((row) => row.map((cell) => ({ text: cell.text ?? '' }))) });
        break;
      }
      case 'image':
      case 'separator':
        break;
    }
  };
  for (const b of blocks) visit(b, 0);
  return out;
}

/**
 * kordoc on bytes in memory (loaded only now). Bytes only, never a path, and no options: with a
 * path kordoc may drive Hancom Office through PowerShell, and OCR options would download models.
 * An HWPX's declared sizes must have been checked (checkZipContainer) before. `buffer` is kordoc's
 * to keep (the parse thread's own copy).
 */
export async function parseHwpBytes(buffer: ArrayBuffer, container: Exclude<DocumentKind, 'docx'>): Promise<ParseResult> {
  const kordoc = await import('kordoc');
  switch (container) {
    case 'hwp5':
      return kordoc.parseHwp(buffer);
    case 'hwpx':
      return kordoc.parseHwpx(buffer);
    case 'hwp3':
      return kordoc.parseHwp3(buffer);
  }
}
