import type { IRBlock } from 'kordoc';
import type { DocBlock } from '../kit/document-text';

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
