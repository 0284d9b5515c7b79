import { describe, expect, it } from 'vitest';
import { cellText, columnLetters, columnNumber, parseCellRef, parseRange, plainValue } from '../../../tools/excel/book/cells';
import { detectDelimiter, parseRows } from '../../../tools/excel/book/csv';
import { editsFromCells, formulaLike, storedValue } from '../../../tools/excel/book/edits';
import { detectHeader } from '../../../tools/excel/book/table';
import { CsvGrid } from '../../../tools/excel/book/write-csv';

describe('A1 references', () => {
  it('converts column letters both ways', () => {
    expect([1, 26, 27, 52, 703, 16384].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'AAA', 'XFD']);
    expect(['A', 'z', 'AA', 'XFD'].map(columnNumber)).toEqual([1, 26, 27, 16384]);
  });

  it('parses cells and the range forms excel.read takes; refuses what is beyond Excel', () => {
    expect(parseCellRef('$B$3')).toEqual({ row: 3, col: 2 });
    expect(parseCellRef('XFE1')).toBeNull();
    expect(parseRange('A1:F50')).toEqual({ top: 1, left: 1, bottom: 50, right: 6 });
    expect(parseRange('B:D')).toEqual({ top: 1, left: 2, bottom: undefined, right: 4 });
    expect(parseRange('10:200')).toEqual({ top: 10, left: 1, bottom: 200, right: undefined });
    expect(parseRange('C7')).toEqual({ top: 7, left: 3, bottom: 7, right: 3 });
    expect(parseRange('D1:A5')).toBeNull();
    expect(parseRange('A1-B2')).toBeNull();
  });
});

describe('cell values', () => {
  it('shows formulas as their cached result, rich text as text, dates as ISO dates', () => {
    expect(plainValue({ formula: 'SUM(A1:A3)', result: 6 })).toBe(6);
    expect(plainValue({ richText: [{ text: '가' }, { text: '나' }] })).toBe('가나');
    expect(plainValue({ error: '#DIV/0!' })).toBe('#DIV/0!');
    expect(cellText(new Date(Date.UTC(2024, 0, 5)))).toBe('2024-01-05');
    expect(cellText(new Date(Date.UTC(2024, 0, 5, 9, 30)))).toBe('2024-01-05 09:30');
    expect(cellText(0.1 + 0.2)).toBe('0.3');
  });
});

describe('CSV', () => {
  it('detects the delimiter from the lines, not from commas inside quotes', () => {
    expect(detectDelimiter('a;b;c\n"1,5";2;3\n4;5;6\n')).toBe(';');
    expect(detectDelimiter('이름\t금액\n가\t1\n')).toBe('\t');
    expect(detectDelimiter('이름,금액\n"가, 나",1\n')).toBe(',');
    expect(detectDelimiter('one column\nonly\n', true)).toBe('\t');
  });

  it('parses quotes, doubled quotes and line breaks inside quotes', () => {
    expect([...parseRows('a,"b ""c""","줄\n바꿈"\r\nx,,\n', ',')]).toEqual([
      ['a', 'b "c"', '줄\n바꿈'],
      ['x', '', ''],
    ]);
  });

  it('writes back what it parses', () => {
    const grid = CsvGrid.parse('a,"b, c"\n1,2\n', ',');
    grid.apply([{ ref: { row: 2, col: 2 }, value: '새 "값"' }]);
    expect(grid.serialize(',', false)).toBe('a,"b, c"\n1,"새 ""값"""\n');
  });
});

describe('excel.write values', () => {
  it('stores ISO dates as dates and everything else as given', () => {
    expect(storedValue('2024-02-29')).toEqual(new Date(Date.UTC(2024, 1, 29)));
    expect(storedValue('2023-02-29')).toBe('2023-02-29');
    expect(storedValue('=SUM(A1)')).toBe('=SUM(A1)');
  });

  it('knows which CSV fields Excel would run as formulas', () => {
    expect(['=1+1', '@SUM(A1)', '+cmd', '-cmd'].every(formulaLike)).toBe(true);
    expect(['+82-10-1234-5678', '-5', '- 항목', '일반'].some(formulaLike)).toBe(false);
  });

  it('refuses a ref that is not a cell, keeps the last value for a repeated one', () => {
    expect(editsFromCells([{ ref: '3행', value: 1 }])).toHaveProperty('failure');
    expect(editsFromCells([{ ref: 'b2', value: 1 }, { ref: 'B2', value: 2 }])).toEqual([{ ref: { row: 2, col: 2 }, value: 2 }]);
  });
});

describe('header detection', () => {
  const row = (index: number, cells: (string | number | null)[]) => ({ index, cells });
  it('skips a one-cell title and takes the first row of labels', () => {
    expect(detectHeader([row(1, ['2024년 매출']), row(2, ['날짜', '금액']), row(3, ['2024-01-01', 5])])?.index).toBe(2);
  });
  it('sees no header when the first filled row holds numbers', () => {
    expect(detectHeader([row(1, [1, 2]), row(2, [3, 4])])).toBeUndefined();
    expect(detectHeader([row(1, ['2023', '2024']), row(2, ['1', '2'])])).toBeUndefined();
  });
});
