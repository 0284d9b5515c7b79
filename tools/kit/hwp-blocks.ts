import type { IRBlock, ParseResult } from 'kordoc';
import type { DocBlock } from './document-text';

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

/** The three containers kordoc reads. */
export type HwpContainer = 'hwp5' | 'hwpx' | 'hwp3';

const OLE = [0xd0, 0xcf, 0x11, 0xe0];

/** Which container the bytes are, by their first bytes; undefined: none of them. */
export function hwpContainerOf(bytes: Uint8Array): HwpContainer | undefined {
  if (OLE.every((b, i) => bytes[i] === b)) return 'hwp5';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'hwpx';
  if (new TextDecoder('latin1').decode(bytes.subarray(0, 20)).startsWith('HWP Document File')) return 'hwp3';
  return undefined;
}

/**
 * kordoc on bytes in memory (loaded only now). Bytes only, never a path, and no options: with a
 * path kordoc may drive Hancom Office through PowerShell, and OCR options would download models.
 * An HWPX's declared sizes must have been checked (checkZipContainer) before.
 */
export async function parseHwpBytes(bytes: Uint8Array, container: HwpContainer): Promise<ParseResult> {
  const kordoc = await import('kordoc');
  const buffer = bytes.slice().buffer;
  switch (container) {
    case 'hwp5':
      return kordoc.parseHwp(buffer);
    case 'hwpx':
      return kordoc.parseHwpx(buffer);
    case 'hwp3':
      return kordoc.parseHwp3(buffer);
  }
}
