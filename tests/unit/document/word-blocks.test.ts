import { describe, expect, it } from 'vitest';
import { hwpBlocks } from '../../../electron/main/host/documents/hwp-parse';
import { wordBlocks, type WordElement } from '../../../electron/main/host/documents/word-tree';

const run = (value: string): WordElement => ({ type: 'run', children: [{ type: 'text', value }] });
const para = (props: Partial<WordElement>, ...children: WordElement[]): WordElement => ({ type: 'paragraph', children, ...props });

describe('word blocks (mammoth tree → blocks)', () => {
  it('finds headings by style name or id, in English or Korean', () => {
    const blocks = wordBlocks({
      type: 'document',
      children: [
        para({ styleName: 'heading 2' }, run('개요')),
        para({ styleName: '제목 3' }, run('세부')),
        para({ styleId: 'Heading1', styleName: null }, run('첫 장')),
        para({ styleName: 'Title' }, run('보고서')),
      ],
    });
    expect(blocks.map((b) => (b.kind === 'heading' ? b.level : b.kind))).toEqual([2, 3, 1, 1]);
  });

  it('keeps tabs and line breaks, drops empty paragraphs', () => {
    const blocks = wordBlocks({
      type: 'document',
      children: [
        para({}, run('이름'), { type: 'tab' }, run('김철수'), { type: 'break', breakType: 'line' }, run('부서')),
        para({}, run('   ')),
        para({ numbering: { level: '1', isOrdered: true } }, run('둘째 수준')),
      ],
    });
    expect(blocks).toEqual([
      { kind: 'paragraph', text: '이름\t김철수\n부서' },
      { kind: 'listItem', ordered: true, depth: 1, text: '둘째 수준' },
    ]);
  });

  it('takes merged cells from the tree', () => {
    const cell = (text: string, colSpan = 1, rowSpan = 1): WordElement => ({ type: 'tableCell', colSpan, rowSpan, children: [para({}, run(text))] });
    const [table] = wordBlocks({ type: 'document', children: [{ type: 'table', children: [{ type: 'tableRow', children: [cell('합계', 2), cell('비고')] }] }] });
    expect(table).toEqual({ kind: 'table', rows: [[{ text: '합계', colSpan: 2, rowSpan: 1 }, { text: '비고', colSpan: 1, rowSpan: 1 }]] });
  });
});

describe('hwp blocks (kordoc IR → blocks)', () => {
  it('nests list children and puts a table caption before its table', () => {
    const blocks = hwpBlocks([
      { type: 'list', listType: 'ordered', text: '추진 배경', children: [{ type: 'list', listType: 'unordered', text: '현황' }] },
      { type: 'table', table: { rows: 1, cols: 2, hasHeader: false, caption: '표 1. 예산', cells: [[{ text: '항목', colSpan: 1, rowSpan: 1 }, { text: '금액', colSpan: 1, rowSpan: 1 }]] } },
      { type: 'image' },
    ]);
    expect(blocks).toEqual([
      { kind: 'listItem', ordered: true, depth: 0, text: '추진 배경' },
      { kind: 'listItem', ordered: false, depth: 1, text: '현황' },
      { kind: 'paragraph', text: '표 1. 예산' },
      { kind: 'table', rows: [[{ text: '항목' }, { text: '금액' }]] },
    ]);
  });
});
