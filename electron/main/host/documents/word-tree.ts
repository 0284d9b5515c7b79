import type { DocBlock, DocCell } from '../../../common/document-capability';

/**
 * mammoth's document tree (docx read into paragraphs, runs, tables) as our blocks. mammoth's own
 * HTML keeps only what its style map names; its tree has the numbering and merge facts Word
 * stored, so headings, lists and merged cells come out as the author made them.
 */

/** The parts of mammoth's element objects read here (mammoth ships no types for its tree). */
export interface WordElement {
  readonly type: string;
  readonly children?: readonly WordElement[];
  readonly value?: string;
  readonly styleId?: string | null;
  readonly styleName?: string | null;
  readonly numbering?: { readonly level: string | number; readonly isOrdered: boolean } | null;
  readonly breakType?: string;
  readonly colSpan?: number;
  readonly rowSpan?: number;
}

/** Word stores built-in style names in English ("heading 1") whatever the UI language. */
function headingLevel(p: WordElement): number | undefined {
  const name = `${p.styleName ?? ''} ${p.styleId ?? ''}`;
  const m = /(?:heading|제목)\s*([1-6])/i.exec(name);
  if (m) return Number(m[1]);
  if (/\btitle\b/i.test(p.styleName ?? '') || /^title$/i.test(p.styleId ?? '')) return 1;
  return undefined;
}

/** The text of an element and everything in it; tabs and line breaks kept. */
export function textOf(e: WordElement): string {
  switch (e.type) {
    case 'text':
      return e.value ?? '';
    case 'tab':
      return '\t';
    case 'break':
      return e.breakType === 'line' ? '\n' : '';
    case 'paragraph':
    case 'table':
    case 'tableRow':
      return (e.children ?? []).map(textOf).join(e.type === 'paragraph' ? '' : '\n');
    case 'tableCell':
      return (e.children ?? []).map(textOf).filter((t) => t.trim() !== '').join('\n');
    default:
      return (e.children ?? []).map(textOf).join('');
  }
}

function tableBlock(table: WordElement): DocBlock {
  const rows: DocCell[][] = (table.children ?? [])
    .filter((r) => r.type === 'tableRow')
    .map((row) =>
      (row.children ?? [])
        .filter((c) => c.type === 'tableCell')
        .map((cell) => ({ text: textOf(cell), colSpan: cell.colSpan ?? 1, rowSpan: cell.rowSpan ?? 1 })),
    );
  return { kind: 'table', rows };
}

export function wordBlocks(document: WordElement): DocBlock[] {
  const blocks: DocBlock[] = [];
  const visit = (e: WordElement): void => {
    if (e.type === 'table') {
      blocks.push(tableBlock(e));
      return;
    }
    if (e.type !== 'paragraph') {
      // Content controls and the like wrap paragraphs (mammoth itself leaves deleted text out).
      for (const child of e.children ?? []) visit(child);
      return;
    }
    const content = textOf(e);
    if (content.trim() === '') return;
    const level = headingLevel(e);
    if (level !== undefined) blocks.push({ kind: 'heading', level, text: content });
    else if (e.numbering) blocks.push({ kind: 'listItem', ordered: e.numbering.isOrdered, depth: Number(e.numbering.level) || 0, text: content });
    else blocks.push({ kind: 'paragraph', text: content });
  };
  for (const child of document.children ?? []) visit(child);
  return blocks;
}

/**
 * mammoth's tree of a .docx in memory. mammoth reads the document XML only: macros and embedded
 * objects are never run, and pictures are not even decoded (the image converter returns nothing).
 */
export async function readWordTree(bytes: Uint8Array): Promise<WordElement | undefined> {
  const mammoth = (await import('mammoth')).default;
  let tree: WordElement | undefined;
  await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    {
      transformDocument: (document: WordElement) => {
        tree = document;
        return document;
      },
      convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
    },
  );
  return tree;
}
