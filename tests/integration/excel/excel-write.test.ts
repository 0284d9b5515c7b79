import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { useTestGate, type TestGate } from '../../helpers/gate-harness';

/** excel.write through the real gate: new files, cell updates with a cell-level diff, refusals. */

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'documents');
const fixture = (name: string): Uint8Array => readFileSync(join(FIXTURES, name));

const open = useTestGate({ files: { 'sales.xlsx': fixture('sales.xlsx'), 'sales-cp949.csv': fixture('sales-cp949.csv') } });

async function workbookAt(g: TestGate, rel: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile(join(g.workspace, rel))) as unknown as ArrayBuffer);
  return wb;
}

describe('excel.write', () => {
  it('creates a new workbook from rows after an approval that previews them', async () => {
    const g = await open({ lang: 'en' });
    const rows = [
      ['거래처', '금액', '날짜'],
      ['가나상사', 1200, '2024-01-05'],
    ];
    const r = await g.call('excel.write', { path: '요약.xlsx', sheet: '요약', rows });
    expect(r.outcome).toBe('ok');
    expect(g.approvals).toHaveLength(1);
    expect(g.approvals[0]!.preview).toContain('| 2 | 가나상사 | 1200 | 2024-01-05 |');
    expect(g.approvals[0]!.summary.en).toContain("Creates the new file '요약.xlsx' (2 rows)");
    const ws = (await workbookAt(g, '요약.xlsx')).getWorksheet('요약')!;
    expect(ws.getCell('A2').value).toBe('가나상사');
    expect(ws.getCell('B2').value).toBe(1200);
    expect(ws.getCell('C2').value).toEqual(new Date(Date.UTC(2024, 0, 5)));
    // And excel.read reads back what was written.
    const back = await g.call('excel.read', { path: '요약.xlsx' });
    expect(back.text).toContain('| 2 | 가나상사 | 1200 | 2024-01-05 |');
  });

  it('changes cells of a LibreOffice workbook, showing each change in the approval, keeping the rest', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.write', { path: 'sales.xlsx', sheet: '1분기 매출', cells: [{ ref: 'C3', value: 1300000 }, { ref: 'D4', value: '완납' }, { ref: 'B5', value: '다라물산' }] });
    expect(r.outcome).toBe('ok');
    const preview = g.approvals[0]!.preview!;
    expect(preview).toContain("sheet '1분기 매출': 2 cell(s) changed");
    expect(preview).toContain('C3: 1200000 → 1300000');
    expect(preview).toContain('D4: (empty) → "완납"');
    expect(preview).not.toContain('B5'); // unchanged value: not a change
    const wb = await workbookAt(g, 'sales.xlsx');
    expect(wb.getWorksheet('1분기 매출')!.getCell('C3').value).toBe(1300000);
    expect(wb.getWorksheet('숨은 설정')!.state).toBe('hidden');
    const back = await g.call('excel.read', { path: 'sales.xlsx' });
    expect(back.text).toContain('| 3 | 2024-01-05 | 가나상사 | 1300000 |');
    expect(back.text).toContain('[1] 2024년 1분기 매출 보고서');
  });

  it('adds a sheet to an existing workbook', async () => {
    const g = await open({ lang: 'ko' });
    const r = await g.call('excel.write', { path: 'sales.xlsx', sheet: '2분기', rows: [['월', '금액'], ['4월', 10]] });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain("시트 '2분기'을(를) 더했습니다");
    const wb = await workbookAt(g, 'sales.xlsx');
    expect(wb.worksheets.map((w) => w.name)).toEqual(['1분기 매출', '숨은 설정', '부서별', '2분기']);
  });

  it('refuses rows over an existing file without overwrite, before asking anyone', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.write', { path: 'sales.xlsx', rows: [['x']] });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('overwrite: true');
    expect(g.approvals).toHaveLength(0);
  });

  it('refuses macro-enabled formats and old .xls before approval', async () => {
    const g = await open({ lang: 'en' });
    for (const path of ['매크로.xlsm', 'a.xltm', 'a.xlam']) {
      const r = await g.call('excel.write', { path, rows: [['x']] });
      expect(r.outcome, path).not.toBe('ok');
      expect(r.text, path).toContain('.xlsx');
    }
    const xls = await g.call('excel.write', { path: 'old.xls', rows: [['x']] });
    expect(xls.outcome).not.toBe('ok');
    expect(g.approvals).toHaveLength(0);
  });

  it('keeps a CP949 CSV in CP949 when cells change', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.write', { path: 'sales-cp949.csv', cells: [{ ref: 'C5', value: 90000 }] });
    expect(r.outcome).toBe('ok');
    expect(g.approvals[0]!.preview).toContain('C5: "80000" → 90000');
    const text = iconv.decode(await readFile(join(g.workspace, 'sales-cp949.csv')), 'cp949');
    expect(text).toContain('2024-03-31,다라물산,90000,잔금');
    expect(text).toContain('똠방각하㈜');
  });

  it('refuses CSV fields that Excel would run as formulas', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.write', { path: 'new.csv', rows: [['=cmd|\' /C calc\'!A0']] });
    expect(r.outcome).not.toBe('ok');
    expect(r.text).toContain('formulas');
  });

  it('refuses a cell address that is not one, naming the form', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.write', { path: 'sales.xlsx', cells: [{ ref: 'row 3', value: 1 }] });
    expect(r.outcome).not.toBe('ok');
    expect(r.text).toContain('"B3"');
  });

  it('replaces a sheet with overwrite: true, listing the cells that go', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('excel.write', { path: 'sales.xlsx', sheet: '부서별', rows: [['부서', '이름']], overwrite: true });
    expect(r.outcome).toBe('ok');
    const preview = g.approvals[0]!.preview!;
    expect(preview).toContain('B2: "김철수" → (empty)');
    expect(preview).not.toContain('A1:');
    const ws = (await workbookAt(g, 'sales.xlsx')).getWorksheet('부서별')!;
    expect(ws.getCell('B2').value).toBeNull();
    expect(ws.getCell('B1').value).toBe('이름');
  });

  it('refuses to rewrite a workbook whose drawings or images exceljs would drop, pointing to a new file', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('표지');
    ws.getCell('A1').value = '로고';
    // A 1×1 PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    ws.addImage(wb.addImage({ buffer: png as unknown as ExcelJS.Buffer, extension: 'png' }), 'B2:C3');
    const bytes = new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
    const g = await open({ lang: 'en', files: { 'logo.xlsx': bytes } });
    const r = await g.call('excel.write', { path: 'logo.xlsx', cells: [{ ref: 'A1', value: '새 로고' }] });
    expect(r.outcome).not.toBe('ok');
    expect(r.text).toContain('which rewriting it would lose');
    expect(r.text).toContain('new .xlsx file');
    expect(g.approvals).toHaveLength(0);
    expect(new Uint8Array(await readFile(join(g.workspace, 'logo.xlsx')))).toEqual(bytes);
  });
});
