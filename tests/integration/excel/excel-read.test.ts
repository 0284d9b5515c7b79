import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/**
 * excel.sheets and excel.read through the real gate, on files LibreOffice Calc wrote
 * (scripts/make-document-fixtures.sh), a CP949 CSV as Korean Windows saves it, and damaged files.
 */

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'documents');
const fixture = (name: string): Uint8Array => readFileSync(join(FIXTURES, name));

const open = useTestGate({
  files: {
    'sales.xlsx': fixture('sales.xlsx'),
    'sales-utf8.csv': fixture('sales-utf8.csv'),
    'sales-cp949.csv': fixture('sales-cp949.csv'),
    'sales-semicolon-bom.csv': fixture('sales-semicolon-bom.csv'),
    'damaged-truncated.xlsx': fixture('damaged-truncated.xlsx'),
    'damaged-sheet.xlsx': fixture('damaged-sheet.xlsx'),
    'memo.txt': 'not a workbook',
  },
});

async function bigWorkbook(rows: number): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('거래');
  ws.addRow(['번호', '거래처', '금액', '메모']);
  for (let i = 1; i <= rows; i++) ws.addRow([i, `거래처${i}`, i * 1000, '가'.repeat(30)]);
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

describe('excel.sheets', () => {
  it('lists the sheets of a LibreOffice workbook with used ranges, headers and the hidden one marked', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.sheets', { path: 'sales.xlsx' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain("'sales.xlsx': 3 sheet(s)");
    expect(r.text).toContain("1. '1분기 매출' — A1:D6 (6 rows × 4 columns); header: A 날짜, B 거래처, C 금액, D 비고");
    expect(r.text).toContain("2. '숨은 설정' (hidden)");
    expect(r.text).toContain("3. '부서별' — A1:C3");
    expect(g.approvals).toHaveLength(0); // a read inside the workspace needs no approval
  });

  it('describes a CP949 CSV with its encoding and delimiter', async () => {
    const g = await open({ lang: 'ko' });
    const r = await g.call('excel.sheets', { path: 'sales-cp949.csv' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('CP949');
    expect(r.text).toContain('구분자 ,');
    expect(r.text).toContain('A1:D6');
  });
});

describe('excel.read', () => {
  it('reads the first sheet as a table: title row, header, dates, formula results, merged cells', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.read', { path: 'sales.xlsx' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain("'sales.xlsx' › sheet '1분기 매출', used range A1:D6");
    expect(r.text).toContain('[1] 2024년 1분기 매출 보고서');
    expect(r.text).toContain('| # | A 날짜 | B 거래처 | C 금액 | D 비고 |');
    expect(r.text).toContain('| 3 | 2024-01-05 | 가나상사 | 1200000 | 선금, "긴급" |');
    expect(r.text).toContain('| 4 | 2024-02-14 | 똠방각하㈜ | 350000.5 |  |');
    // The SUM formula as the value LibreOffice saved, not as "=SUM(...)".
    expect(r.text).toContain('| 6 | 합계 |  | 1630000.5 |  |');
    expect(r.text).toContain('[merged cells: A1:D1');
    expect(r.text).toContain('(end)');
    expect(r.details).toMatchObject({ headerRow: 2, totalRows: 6 });
  });

  it('reads a hidden sheet by name and marks it; a vertical merge is listed', async () => {
    const g = await open({ lang: 'ko' });
    const hidden = await g.call('excel.read', { path: 'sales.xlsx', sheet: '숨은 설정' });
    expect(hidden.text).toContain('(숨김 시트)');
    expect(hidden.text).toContain('부가세율');
    const merged = await g.call('excel.read', { path: 'sales.xlsx', sheet: '부서별' });
    // LibreOffice saved the FODS booleans as plain numbers (no boolean format): shown as saved.
    expect(merged.text).toContain('| 2 | 영업부 | 김철수 | 1 |');
    expect(merged.text).toContain('| 3 |  | 이영희 | 0 |');
    expect(merged.text).toContain('[병합된 셀: A2:A3');
  });

  it('refuses an unknown sheet with the names that exist', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.read', { path: 'sales.xlsx', sheet: '2분기' });
    expect(r.outcome).toBe('error');
    expect(r.text).toContain("'1분기 매출', '숨은 설정', '부서별'");
    expect(r.text).toContain('excel.sheets');
  });

  it('reads a range and one whole cell', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.read', { path: 'sales.xlsx', range: 'B3:C4' });
    expect(r.text).toContain('| # | B | C |');
    expect(r.text).toContain('| 3 | 가나상사 | 1200000 |');
    expect(r.text).not.toContain('2024-01-05');
    const one = await g.call('excel.read', { path: 'sales.xlsx', range: 'D3' });
    expect(one.text).toContain('D3:\n선금, "긴급"');
  });

  it('refuses a malformed range before reading', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.read', { path: 'sales.xlsx', range: 'A1-B2' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('"A1:F50"');
  });

  it('reads CSV in UTF-8, CP949 and semicolon-with-BOM alike', async () => {
    const g = await open({ lang: 'en' });
    for (const name of ['sales-utf8.csv', 'sales-cp949.csv', 'sales-semicolon-bom.csv']) {
      const r = await g.call('excel.read', { path: name });
      expect(r.outcome, name).toBe('ok');
      expect(r.text, name).toContain('| 4 | 2024-02-14 | 똠방각하㈜ | 350000.5 |  |');
      expect(r.text, name).toContain('선금, "긴급"');
    }
    expect((await g.call('excel.read', { path: 'sales-cp949.csv' })).text).toContain('CSV, CP949, delimiter ,');
    expect((await g.call('excel.read', { path: 'sales-semicolon-bom.csv' })).text).toContain('UTF-8 (BOM), delimiter ;');
  });

  it('pages a long sheet within the output budget and says how to read on', async () => {
    const g = await open({ lang: 'en', files: { 'big.xlsx': await bigWorkbook(3000) } });
    const r = await g.call('excel.read', { path: 'big.xlsx', limit: 5000 });
    expect(r.outcome).toBe('ok');
    expect(r.text.length).toBeLessThanOrEqual(30_000);
    const next = Number(/offset=(\d+)/.exec(r.text)?.[1]);
    expect(next).toBeGreaterThan(10);
    expect(r.text).toContain(' of 3001.');
    const page = await g.call('excel.read', { path: 'big.xlsx', offset: next, limit: 3 });
    // The header stays on every page, so columns keep their names.
    expect(page.text).toContain('| # | A 번호 | B 거래처 | C 금액 | D 메모 |');
    expect(page.text).toContain(`| ${next} | ${next - 1} | 거래처${next - 1} |`);
    expect(page.text).toContain(`Read on with offset=${next + 3}.`);
  });

  it('reports damaged workbooks and non-workbooks with a way on, never mojibake', async () => {
    const g = await open({ lang: 'en' });
    for (const name of ['damaged-truncated.xlsx', 'damaged-sheet.xlsx']) {
      const r = await g.call('excel.read', { path: name });
      expect(r.outcome, name).toBe('error');
      expect(r.text, name).toContain('is damaged or not an Excel (.xlsx) file');
    }
    const txt = await g.call('excel.read', { path: 'memo.txt' });
    expect(txt.text).toContain('filesystem.read');
  });

  it('stops when the user presses Stop, with a cancelled outcome', async () => {
    const g = await open({ lang: 'en', files: { 'big.xlsx': await bigWorkbook(20_000) } });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const started = Date.now();
    const r = await g.call('excel.read', { path: 'big.xlsx', offset: 19_990 }, stop.signal);
    expect(r.outcome).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
