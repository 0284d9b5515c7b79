import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';
import { documentFiles } from '../../helpers/document-fixtures';

/** document.word.read and document.word.write through the real gate. */

const open = useTestGate();

describe('document.word.read', () => {
  it('reads a LibreOffice docx as headings, lists and a table', async () => {
    const g = await open({ files: documentFiles('korean.docx') });
    const r = await g.call('document.word.read', { path: 'korean.docx' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('# 견적서');
    expect(r.text).toContain('## 품목');
    expect(r.text).toContain('- 사무용 의자');
    expect(r.text).toContain('1. 첫째 조건\n2. 둘째 조건');
    expect(r.text).toContain('| 품명 | 수량 | 단가 |\n| --- | --- | --- |\n| 의자 | 10 | 50,000 |');
    expect(g.approvals).toHaveLength(0);
  });

  it('gives clear messages for a damaged and a password-protected (OLE) docx', async () => {
    const g = await open({ files: documentFiles('damaged.docx', ['encrypted.hwp', 'locked.docx']) });
    const damaged = await g.call('document.word.read', { path: 'damaged.docx' });
    expect(damaged.outcome).toBe('error');
    expect(damaged.text).toContain('damaged or cut off');
    const locked = await g.call('document.word.read', { path: 'locked.docx' });
    expect(locked.outcome).toBe('error');
    expect(locked.text).toContain('password-protected');
  });

  it('refuses the old .doc format with the way on', async () => {
    const g = await open({ files: { 'old.doc': new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]) } });
    const r = await g.call('document.word.read', { path: 'old.doc' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('save it as .docx');
  });
});

describe('document.word.write', () => {
  const content = '# 회의록\n일시: 12월 3일\n- 참석: 김 과장\n- 안건\n  - 예산\n1. 결정 사항\n| 항목 | 금액 |\n| --- | --- |\n| 의자 | 500,000 |';

  it('creates a new docx after an approval that previews it, readable by Word tools', async () => {
    const g = await open();
    const r = await g.call('document.word.write', { path: '회의/12월.docx', content });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain("Created the Word document '회의/12월.docx'");
    expect(g.approvals).toHaveLength(1);
    expect(g.approvals[0]!.preview).toContain('+# 회의록');
    const back = await g.call('document.word.read', { path: '회의/12월.docx' });
    expect(back.text).toBe('# 회의록\n\n일시: 12월 3일\n\n- 참석: 김 과장\n- 안건\n  - 예산\n1. 결정 사항\n\n| 항목 | 금액 |\n| --- | --- |\n| 의자 | 500,000 |');
    // A real zip with Word's main part, no macro part.
    const bytes = await readFile(join(g.workspace, '회의/12월.docx'));
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(bytes.includes(Buffer.from('vbaProject'))).toBe(false);
  });

  it('never replaces an existing file without overwrite, and refuses before asking anyone', async () => {
    const g = await open({ files: documentFiles('korean.docx') });
    const r = await g.call('document.word.write', { path: 'korean.docx', content: '# 새 문서' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('overwrite: true');
    expect(g.approvals).toHaveLength(0);
  });

  it('overwrites only with an approval whose preview is the diff of the two texts', async () => {
    const g = await open({ files: documentFiles('korean.docx') });
    const r = await g.call('document.word.write', { path: 'korean.docx', content: '# 견적서\n거래처: 바람상사 귀하. 아래와 같이 견적합니다.\n## 품목\n- 책상', overwrite: true });
    expect(r.outcome).toBe('ok');
    const preview = g.approvals[0]!.preview!;
    expect(preview).toContain(' ## 품목');
    expect(preview).toContain('-- 사무용 의자');
    expect(preview).toContain('-| 의자 | 10 | 50,000 |');
    expect(g.approvals[0]!.targets).toMatchObject([{ path: 'korean.docx', exists: true }]);
  });

  it('does not write a file that changed after it was approved', async () => {
    let workspace = '';
    const g = await open({
      files: documentFiles('korean.docx'),
      approve: async () => {
        await writeFile(join(workspace, 'korean.docx'), 'changed meanwhile');
        return { choice: 'allow-once', approver: 'test' };
      },
    });
    workspace = g.workspace;
    const r = await g.call('document.word.write', { path: 'korean.docx', content: '# 새 문서', overwrite: true });
    expect(r.outcome).not.toBe('ok');
    expect(await readFile(join(g.workspace, 'korean.docx'), 'utf8')).toBe('changed meanwhile');
  });

  it('refuses macro-enabled names (.docm) and other kinds, before asking anyone', async () => {
    const g = await open();
    // The gate denies execution-equivalent destinations by default; the tool refuses them as well.
    const docm = await g.call('document.word.write', { path: 'a.docm', content: '# x' });
    expect(['denied', 'refused']).toContain(docm.outcome);
    expect(docm.text).toContain('.docx');
    const txt = await g.call('document.word.write', { path: 'a.txt', content: '# x' });
    expect(txt.outcome).toBe('refused');
    expect(txt.text).toContain('filesystem.write');
    expect(g.approvals).toHaveLength(0);
  });
});
