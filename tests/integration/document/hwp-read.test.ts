import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';
import { documentFiles } from '../../helpers/document-fixtures';

/**
 * document.hwp.read through the real gate, on real HWP 5 files (node-hwp's test folder, made in
 * Hancom Office) and a real HWPX form (kordoc's 기안문 template, Hancom Office Hangul 11).
 */

const open = useTestGate();

describe('document.hwp.read', () => {
  it('reads an HWP 5 견적서 with its headings and tables', async () => {
    const g = await open({ files: documentFiles('estimate.hwp') });
    const r = await g.call('document.hwp.read', { path: 'estimate.hwp' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('# 제작 견적서 세부내역');
    expect(r.text).toContain('| 캘린더커버디자인 |');
    expect(r.details).toMatchObject({ format: 'hwp5' });
    expect(g.approvals).toHaveLength(0);
  });

  it('prints a table with merged cells as a Markdown table, values under their columns', async () => {
    const g = await open({ files: documentFiles('table.hwp') });
    const r = await g.call('document.hwp.read', { path: 'table.hwp' });
    expect(r.outcome).toBe('ok');
    const rows = r.text.split('\n').filter((l) => l.startsWith('|'));
    expect(rows[0]).toBe('|  | 제목 셀 |  | a |  | b |  | c |  | V |');
    expect(rows[1]).toBe('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    // Every row as wide as the header: a pipe table a model can read column by column.
    for (const row of rows) expect(row.split(' | ')).toHaveLength(10);
    expect(r.text).toContain('동해물과 백두산이 마르고 닳도록 하느님이 보우하사 우리나라 만세<br>무궁화 삼천리');
    expect(r.text).not.toContain('<table');
  });

  it('reads an HWPX form', async () => {
    const g = await open({ files: documentFiles('draft.hwpx') });
    const r = await g.call('document.hwp.read', { path: 'draft.hwpx' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('수신자');
    expect(r.text).toContain('기안자 검토자 결재권자');
    expect(r.details).toMatchObject({ format: 'hwpx' });
  });

  it('reads a long document in parts with offset, the marker saying where to go on', async () => {
    const g = await open({ files: documentFiles('estimate.hwp'), lang: 'ko' });
    const first = await g.session.gate.call({ tool: 'document.hwp.read', args: { path: 'estimate.hwp' }, outputBudget: 800 });
    expect(first.outcome).toBe('ok');
    const next = /offset=(\d+)로 이어 읽으세요/.exec(first.text);
    expect(next).not.toBeNull();
    const second = await g.call('document.hwp.read', { path: 'estimate.hwp', offset: Number(next![1]), limit: 5 });
    expect(second.outcome).toBe('ok');
    expect(second.text).toContain(`[줄 ${next![1]}–${Number(next![1]) + 4} / 전체`);
  });

  it('says clearly that a password-protected HWP cannot be read', async () => {
    const g = await open({ files: documentFiles('encrypted.hwp') });
    const r = await g.call('document.hwp.read', { path: 'encrypted.hwp' });
    expect(r.outcome).toBe('error');
    expect(r.text).toContain('password-protected');
    expect(r.details).toMatchObject({ code: 'ENCRYPTED' });
  });

  it('says clearly that damaged HWP and HWPX files cannot be read', async () => {
    const g = await open({ files: documentFiles('damaged.hwp', 'damaged.hwpx', ['korean.pdf', 'not-really.hwp']) });
    for (const path of ['damaged.hwp', 'damaged.hwpx', 'not-really.hwp']) {
      const r = await g.call('document.hwp.read', { path });
      expect({ path, outcome: r.outcome }).toEqual({ path, outcome: 'error' });
      expect(r.text).toContain('damaged or cut off');
    }
  });
});
