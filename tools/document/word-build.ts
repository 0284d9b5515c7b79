import type { DocBlock } from '../kit/document-text';
import { tableGrid } from '../kit/document-text';

/**
 * A new .docx from blocks, with the docx library (loaded only here, when a write runs). The file
 * holds only document XML: no macros, no fields that update themselves, no external links.
 */

/** Korean Word's default font, so Hangul looks as people expect in Word and in Hancom Office. */
const FONT = '맑은 고딕';
const NUMBERING = 'baram-numbered';
const LEVELS = 6;

/** `**bold**` spans of a line as runs. */
function runsOf(docx: typeof import('docx'), line: string, bold = false) {
  return line.split(/(\*\*[^*]+\*\*)/).filter((part) => part !== '').map((part) => {
    const strong = part.startsWith('**') && part.endsWith('**') && part.length > 4;
    return new docx.TextRun({ text: strong ? part.slice(2, -2) : part, bold: bold || strong });
  });
}

/** Paragraphs of a cell: one per line of its text. */
function cellParagraphs(docx: typeof import('docx'), cell: string, header: boolean) {
  const lines = cell === '' ? [''] : cell.split('\n');
  return lines.map((l) => new docx.Paragraph({ children: runsOf(docx, l, header) }));
}

export async function buildDocx(blocks: readonly DocBlock[]): Promise<Uint8Array> {
  const docx = await import('docx');
  const children: (InstanceType<typeof docx.Paragraph> | InstanceType<typeof docx.Table>)[] = [];
  // Each ordered list starts again at 1: a new numbering instance per run of list items.
  let instance = 0;
  let previous: DocBlock['kind'] | undefined;
  for (const block of blocks) {
    switch (block.kind) {
      case 'heading': {
        const headings = [docx.HeadingLevel.HEADING_1, docx.HeadingLevel.HEADING_2, docx.HeadingLevel.HEADING_3, docx.HeadingLevel.HEADING_4, docx.HeadingLevel.HEADING_5, docx.HeadingLevel.HEADING_6];
        children.push(new docx.Paragraph({ heading: headings[Math.min(6, Math.max(1, block.level)) - 1]!, children: runsOf(docx, block.text) }));
        break;
      }
      case 'paragraph':
        children.push(new docx.Paragraph({ children: runsOf(docx, block.text) }));
        break;
      case 'listItem': {
        if (previous !== 'listItem') instance++;
        const level = Math.min(LEVELS - 1, block.depth);
        children.push(
          block.ordered
            ? new docx.Paragraph({ numbering: { reference: NUMBERING, level, instance }, children: runsOf(docx, block.text) })
            : new docx.Paragraph({ bullet: { level }, children: runsOf(docx, block.text) }),
        );
        break;
      }
      case 'table': {
        const grid = tableGrid(block.rows);
        if (grid.length === 0) break;
        children.push(
          new docx.Table({
            width: { size: 100, type: docx.WidthType.PERCENTAGE },
            rows: grid.map(
              (row, r) =>
                new docx.TableRow({
                  tableHeader: r === 0,
                  children: row.map((cell) => new docx.TableCell({ children: cellParagraphs(docx, cell.replace(/<br>/g, '\n').replace(/\\\|/g, '|'), r === 0) })),
                }),
            ),
          }),
        );
        break;
      }
    }
    previous = block.kind;
  }
  const document = new docx.Document({
    creator: 'Baram',
    styles: { default: { document: { run: { font: FONT } } } },
    numbering: {
      config: [
        {
          reference: NUMBERING,
          levels: Array.from({ length: LEVELS }, (_, level) => ({
            level,
            format: docx.LevelFormat.DECIMAL,
            text: `%${level + 1}.`,
            alignment: docx.AlignmentType.START,
            style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
          })),
        },
      ],
    },
    sections: [{ children }],
  });
  return new Uint8Array(await docx.Packer.toBuffer(document));
}
