import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../electron/common/approval';
import { useTestGate, type TestGate } from '../../helpers/gate-harness';

/**
 * filesystem.move / filesystem.copy through the real gate. The seed's real case: 158 files moved
 * one by one meant 158 approvals; a glob expanded before approval makes it one (SPEC G-APPROVE).
 */

const open = useTestGate();

function downloads(count: number): Record<string, string> {
  const files: Record<string, string> = { '다운로드/메모.txt': 'memo', '다운로드/견적서.pdf': 'pdf' };
  for (let i = 1; i <= count; i++) files[`다운로드/매출_${String(i).padStart(3, '0')}.xlsx`] = `sheet ${i}`;
  return files;
}
const names = async (g: TestGate, rel: string): Promise<string[]> => (await readdir(join(g.workspace, rel))).sort();
const approveAfter =
  (work: () => Promise<void>) =>
  async (_request: ApprovalRequest): Promise<{ choice: 'allow-once'; approver: string }> => {
    await work();
    return { choice: 'allow-once', approver: 'test' };
  };

describe('filesystem.move with a glob', () => {
  it('moves 150 matches after exactly one approval listing all 150', async () => {
    const g = await open({ files: downloads(150), lang: 'ko' });
    await mkdir(join(g.workspace, '정리/2024'), { recursive: true });
    const r = await g.call('filesystem.move', { from: '다운로드/*.xlsx', to: '정리/2024' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals).toHaveLength(1);
    const request = g.approvals[0]!;
    expect(request.targets).toHaveLength(150);
    expect(request.targets[0]).toMatchObject({ path: '다운로드/매출_001.xlsx', to: '정리/2024/매출_001.xlsx', exists: true });
    expect(request.summary.ko).toBe("파일 150개를 '정리/2024'로 옮깁니다");
    expect(request.summary.en).toBe("Moves 150 files to '정리/2024'");
    expect(await names(g, '정리/2024')).toHaveLength(150);
    expect(await names(g, '다운로드')).toEqual(['견적서.pdf', '메모.txt']);
    expect(await readFile(join(g.workspace, '정리/2024/매출_150.xlsx'), 'utf8')).toBe('sheet 150');
    expect(r.text.split('\n')[0]).toBe("파일 150개를 '정리/2024'로 옮겼습니다.");
    expect(r.details).toMatchObject({ moved: 150 });
  });

  it('creates a missing destination folder, listed in the same approval', async () => {
    const g = await open({ files: downloads(3) });
    const r = await g.call('filesystem.move', { from: '다운로드/*.xlsx', to: '정리/2025' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals).toHaveLength(1);
    expect(g.approvals[0]!.targets[0]).toMatchObject({ path: '정리/2025', exists: false });
    expect(g.approvals[0]!.targets).toHaveLength(4);
    expect(g.approvals[0]!.summary.en).toBe("Moves 3 files to '정리/2025' (creating the folder '정리/2025')");
    expect(await names(g, '정리/2025')).toEqual(['매출_001.xlsx', '매출_002.xlsx', '매출_003.xlsx']);
  });

  it('does not touch a file that appeared after approval', async () => {
    const g = await open({
      files: downloads(3),
      approve: approveAfter(() => writeFile(join(g.workspace, '다운로드/늦게온.xlsx'), 'late')),
    });
    await mkdir(join(g.workspace, '정리'));
    const r = await g.call('filesystem.move', { from: '다운로드/*.xlsx', to: '정리' });
    expect(r.outcome).toBe('ok');
    expect(await names(g, '정리')).toEqual(['매출_001.xlsx', '매출_002.xlsx', '매출_003.xlsx']);
    expect(await names(g, '다운로드')).toContain('늦게온.xlsx');
  });

  it('reports a file that changed after approval, leaves it, and moves the rest', async () => {
    const g = await open({
      files: downloads(3),
      approve: approveAfter(() => appendFile(join(g.workspace, '다운로드/매출_002.xlsx'), ' edited')),
    });
    await mkdir(join(g.workspace, '정리'));
    const r = await g.call('filesystem.move', { from: '다운로드/*.xlsx', to: '정리' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('1 changed after approval and were left alone: 다운로드/매출_002.xlsx');
    expect(await names(g, '정리')).toEqual(['매출_001.xlsx', '매출_003.xlsx']);
    expect(await names(g, '다운로드')).toContain('매출_002.xlsx');
    expect(r.details).toMatchObject({ moved: 2, changedAfterApproval: ['다운로드/매출_002.xlsx'] });
  });

  it('does not overwrite a destination that appeared after approval, and says why', async () => {
    const g = await open({
      files: downloads(3),
      approve: approveAfter(() => writeFile(join(g.workspace, '정리/매출_002.xlsx'), 'theirs')),
    });
    await mkdir(join(g.workspace, '정리'));
    const r = await g.call('filesystem.move', { from: '다운로드/*.xlsx', to: '정리' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain("'정리/매출_002.xlsx' appeared after approval and was not overwritten");
    expect(r.text).not.toContain('overwrite: true');
    expect(await readFile(join(g.workspace, '정리/매출_002.xlsx'), 'utf8')).toBe('theirs');
    expect(await names(g, '다운로드')).toContain('매출_002.xlsx');
  });

  it('refuses before approval when a destination exists: never overwrites', async () => {
    const g = await open({ files: { ...downloads(2), '정리/매출_002.xlsx': 'already here' } });
    const r = await g.call('filesystem.move', { from: '다운로드/*.xlsx', to: '정리' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('정리/매출_002.xlsx: already exists');
    expect(r.text).toContain('filesystem.delete');
    expect(g.approvals).toHaveLength(0);
    expect(await names(g, '다운로드')).toContain('매출_001.xlsx');
    expect(await readFile(join(g.workspace, '정리/매출_002.xlsx'), 'utf8')).toBe('already here');
  });

  it('leaves the destination folder out when the pattern also matches it', async () => {
    const g = await open({ files: { 'a.txt': 'a', 'b.hwp': 'b', '정리/old.txt': 'o' } });
    const r = await g.call('filesystem.move', { from: '*', to: '정리' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals[0]!.targets.map((t) => t.path)).toEqual(['a.txt', 'b.hwp']);
    expect(g.approvals[0]!.preview).toContain("'정리' matches the pattern and is left out");
    expect(await names(g, '정리')).toEqual(['a.txt', 'b.hwp', 'old.txt']);
  });

  it('refuses two matches with the same name going into one folder', async () => {
    const g = await open({ files: { 'a/표.xlsx': '1', 'b/표.xlsx': '2' } });
    const r = await g.call('filesystem.move', { from: '**/*.xlsx', to: '모음' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('same name');
  });

  it('refuses a file as the destination of several matches', async () => {
    const g = await open({ files: { ...downloads(2), 'target.txt': 'x' } });
    const r = await g.call('filesystem.move', { from: '다운로드/*.xlsx', to: 'target.txt' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain("'to' must be a folder");
  });

  it('refuses a pattern as the destination', async () => {
    const g = await open({ files: downloads(2) });
    const r = await g.call('filesystem.move', { from: '다운로드/*.xlsx', to: '정리/*' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('contains * or ?');
    expect(g.approvals).toHaveLength(0);
  });

  it('refuses a pattern without matches, pointing to filesystem.search', async () => {
    const g = await open({ files: downloads(2) });
    const r = await g.call('filesystem.move', { from: '다운로드/*.docx', to: '정리' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('filesystem.search');
    expect(g.approvals).toHaveLength(0);
  });
});

describe('filesystem.move of one entry', () => {
  it('renames a file, with the exact destination in the summary', async () => {
    const g = await open({ files: { '초안.txt': 'x' }, lang: 'ko' });
    const r = await g.call('filesystem.move', { from: '초안.txt', to: '최종.txt' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals[0]!.summary.ko).toBe("'초안.txt'를 '최종.txt'로 옮깁니다");
    expect(await names(g, '.')).toEqual(['최종.txt']);
  });

  it('takes an existing name literally even with glob characters ([최종], (1))', async () => {
    const g = await open({ files: { '[최종] 보고서.xlsx': 'a', '보고서(1).xlsx': 'b', '[최종] 보.xlsx': 'c' } });
    await mkdir(join(g.workspace, '보관'));
    const r = await g.call('filesystem.move', { from: '[최종] 보고서.xlsx', to: '보관' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals[0]!.targets).toMatchObject([{ path: '[최종] 보고서.xlsx', to: '보관/[최종] 보고서.xlsx', exists: true }]);
    expect(await names(g, '보관')).toEqual(['[최종] 보고서.xlsx']);
    const paren = await g.call('filesystem.move', { from: '보고서(1).xlsx', to: '보관/' });
    expect(paren.outcome).toBe('ok');
    expect(await names(g, '보관')).toEqual(['[최종] 보고서.xlsx', '보고서(1).xlsx']);
  });

  it('moves a folder with its contents, but never into itself', async () => {
    const g = await open({ files: { '프로젝트/a.txt': 'a', '프로젝트/sub/b.txt': 'b' } });
    const inside = await g.call('filesystem.move', { from: '프로젝트', to: '프로젝트/sub' });
    expect(inside.outcome).toBe('refused');
    const r = await g.call('filesystem.move', { from: '프로젝트', to: '보관/프로젝트-2024' });
    expect(r.outcome).toBe('ok');
    expect(await readFile(join(g.workspace, '보관/프로젝트-2024/sub/b.txt'), 'utf8')).toBe('b');
  });

  it('refuses a missing source before approval', async () => {
    const g = await open();
    const r = await g.call('filesystem.move', { from: '없음.txt', to: 'b.txt' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('filesystem.search');
    expect(g.approvals).toHaveLength(0);
  });
});

describe('filesystem.copy', () => {
  it('copies glob matches into a folder and keeps the originals', async () => {
    const g = await open({ files: downloads(3) });
    const r = await g.call('filesystem.copy', { from: '다운로드/*.xlsx', to: '백업' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals).toHaveLength(1);
    expect(g.approvals[0]!.summary.en).toBe("Copies 3 files to '백업' (creating the folder '백업')");
    expect(await names(g, '백업')).toEqual(['매출_001.xlsx', '매출_002.xlsx', '매출_003.xlsx']);
    expect((await names(g, '다운로드')).filter((n) => n.endsWith('.xlsx'))).toHaveLength(3);
    expect(r.text.split('\n')[0]).toBe("Copied 3 files to '백업'.");
  });

  it('copies one file to a new name and refuses to overwrite', async () => {
    const g = await open({ files: { 'a.txt': 'A', 'b.txt': 'B' } });
    const r = await g.call('filesystem.copy', { from: 'a.txt', to: 'a-사본.txt' });
    expect(r.outcome).toBe('ok');
    expect(await readFile(join(g.workspace, 'a-사본.txt'), 'utf8')).toBe('A');
    const clash = await g.call('filesystem.copy', { from: 'a.txt', to: 'b.txt' });
    expect(clash.outcome).toBe('refused');
    expect(await readFile(join(g.workspace, 'b.txt'), 'utf8')).toBe('B');
  });
});
