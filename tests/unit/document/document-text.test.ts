import { describe, expect, it } from 'vitest';
import { blocksToLines, markdownTable, markdownToBlocks, tableGrid } from '../../../tools/kit/document-text';
import { classifyPage, cleanPageText, pageList, parsePages } from '../../../tools/document/pdf-pages';

describe('document text (blocks ⇄ Markdown-like lines)', () => {
  it('puts a merged cell in its top-left position and keeps every row as wide as the table', () => {
    const grid = tableGrid([
      [{ text: '구분', rowSpan: 2 }, { text: '금액', colSpan: 2 }],
      [{ text: '상반기' }, { text: '하반기' }],
    ]);
    expect(grid).toEqual([
      ['구분', '금액', ''],
      ['', '상반기', '하반기'],
    ]);
  });

  it('escapes pipes and line breaks inside cells', () => {
    expect(markdownTable([[{ text: 'a|b' }, { text: '첫 줄\n둘째 줄' }]])).toEqual(['| a\\|b | 첫 줄<br>둘째 줄 |', '| --- | --- |']);
  });

  it('leaves out table rows without any text (spacer rows of forms)', () => {
    expect(markdownTable([[{ text: '항목' }, { text: '금액' }], [{ text: '' }, { text: ' ' }], [{ text: '의자' }, { text: '10' }]])).toEqual(['| 항목 | 금액 |', '| --- | --- |', '| 의자 | 10 |']);
  });

  it('numbers ordered lists per level and starts again after a bulleted list', () => {
    const lines = blocksToLines([
      { kind: 'heading', level: 2, text: '조건' },
      { kind: 'listItem', ordered: false, depth: 0, text: '의자' },
      { kind: 'listItem', ordered: true, depth: 0, text: '첫째' },
      { kind: 'listItem', ordered: true, depth: 1, text: '세부' },
      { kind: 'listItem', ordered: true, depth: 0, text: '둘째' },
    ]);
    expect(lines).toEqual(['## 조건', '', '- 의자', '1. 첫째', '  1. 세부', '2. 둘째']);
  });

  it('reads back what it renders (the input of document.word.write)', () => {
    const blocks = markdownToBlocks('# 견적서\n거래처: 바람상사\n\n- 의자\n  - 팔걸이\n1. 납기\n| 품명 | 수량 |\n| --- | ---: |\n| 의자 | 10 |\n');
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: '견적서' },
      { kind: 'paragraph', text: '거래처: 바람상사' },
      { kind: 'listItem', ordered: false, depth: 0, text: '의자' },
      { kind: 'listItem', ordered: false, depth: 1, text: '팔걸이' },
      { kind: 'listItem', ordered: true, depth: 0, text: '납기' },
      { kind: 'table', rows: [[{ text: '품명' }, { text: '수량' }], [{ text: '의자' }, { text: '10' }]] },
    ]);
    expect(markdownToBlocks(blocksToLines(blocks).join('\n'))).toEqual(blocks);
  });
});

describe('pdf pages', () => {
  it('understands the ranges people write', () => {
    expect(parsePages('2-4', 10)).toEqual([2, 3, 4]);
    expect(parsePages('1, 3,5-6', 10)).toEqual([1, 3, 5, 6]);
    expect(parsePages('8-', 10)).toEqual([8, 9, 10]);
    expect(parsePages('', 3)).toEqual([1, 2, 3]);
    expect(parsePages('9-12', 10)).toEqual([9, 10]);
  });

  it('refuses what names no page, saying how many there are', () => {
    expect(parsePages('12', 10)).toMatchObject({ en: expect.stringContaining('10 pages') });
    expect(parsePages('abc', 10)).toMatchObject({ en: expect.stringContaining('"2-5"') });
    expect(parsePages('5-2', 10)).toMatchObject({ en: expect.stringContaining('low to high') });
  });

  it('writes page lists compactly', () => {
    expect(pageList([1, 2, 3, 5, 7, 8])).toBe('1-3,5,7-8');
  });

  it('tells text from a font without ToUnicode and from a page without text', () => {
    expect(classifyPage('견적서\n거래처: 바람상사 귀하.')).toBe('text');
    expect(classifyPage('\u0001\u0002\u0003\n\u0004\u0005 "#$')).toBe('unreadable');
    expect(classifyPage('\ue001\ue002\ue003 가')).toBe('unreadable');
    expect(classifyPage('\ufffd\ufffd\ufffd\ufffd 보고')).toBe('unreadable');
    expect(classifyPage('  \n ')).toBe('no-text');
    expect(cleanPageText('합계\u0002 1,000원  \n')).toBe('합계 1,000원');
  });
});
