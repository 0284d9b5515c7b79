import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate, type TestGate } from '../../helpers/gate-harness';

/** filesystem.delete (into Baram's trash), filesystem.restore and filesystem.mkdir through the real gate. */

const open = useTestGate();

const exists = async (g: TestGate, rel: string): Promise<boolean> =>
  stat(join(g.workspace, rel)).then(
    () => true,
    () => false,
  );
const trashIdsOf = (details: unknown): string[] =>
  ((details as { trash: { trashId: string }[] }).trash ?? []).map((t) => t.trashId);

describe('filesystem.delete → filesystem.restore', () => {
  it('deletes glob matches into the trash after one approval and restores each by trashId', async () => {
    const g = await open({ files: { '임시/a.log': 'A', '임시/b.log': 'B', '임시/c.log': 'C', '임시/keep.txt': 'K' } });
    const r = await g.call('filesystem.delete', { path: '임시/*.log' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals).toHaveLength(1);
    expect(g.approvals[0]!.risk).toBe('destructive');
    expect(g.approvals[0]!.targets.map((t) => t.path)).toEqual(['임시/a.log', '임시/b.log', '임시/c.log']);
    expect(g.approvals[0]!.summary.en).toBe("Moves 3 files to Baram's trash (can be restored)");
    expect((await readdir(join(g.workspace, '임시'))).sort()).toEqual(['keep.txt']);
    const ids = trashIdsOf(r.details);
    expect(ids).toHaveLength(3);
    // The model sees the ids it needs to undo.
    for (const id of ids) expect(r.text).toContain(`trashId: ${id}`);
    expect(r.text).toContain('filesystem.restore');

    for (const id of ids) {
      const back = await g.call('filesystem.restore', { trashId: id });
      expect(back.outcome).toBe('ok');
    }
    expect(await readFile(join(g.workspace, '임시/b.log'), 'utf8')).toBe('B');
    expect((await readdir(join(g.workspace, '임시'))).sort()).toEqual(['a.log', 'b.log', 'c.log', 'keep.txt']);
  });

  it('deletes and restores a folder with its contents, speaking Korean', async () => {
    const g = await open({ files: { '옛 자료/2019/표.xlsx': 'x' }, lang: 'ko' });
    const r = await g.call('filesystem.delete', { path: '옛 자료' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals[0]!.summary.ko).toBe("'옛 자료'를 Baram 휴지통으로 옮깁니다 — 안에 든 파일 1개 포함, 목록의 항목만 (되돌릴 수 있음)");
    expect(await exists(g, '옛 자료')).toBe(false);
    const [id] = trashIdsOf(r.details);
    const back = await g.call('filesystem.restore', { trashId: id });
    expect(back.outcome).toBe('ok');
    expect(back.text).toBe("'옛 자료'를 되돌렸습니다.");
    expect(await readFile(join(g.workspace, '옛 자료/2019/표.xlsx'), 'utf8')).toBe('x');
  });

  it('refuses an unknown trashId before approval and lists the recent ones', async () => {
    const g = await open({ files: { 'a.txt': 'a' } });
    const del = await g.call('filesystem.delete', { path: 'a.txt' });
    const [id] = trashIdsOf(del.details);
    const approvalsBefore = g.approvals.length;
    const r = await g.call('filesystem.restore', { trashId: 'no-such-id' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain(`${id}: a.txt`);
    expect(g.approvals).toHaveLength(approvalsBefore);
  });

  it('refuses to restore over something that took the original place', async () => {
    const g = await open({ files: { 'a.txt': 'old' } });
    const del = await g.call('filesystem.delete', { path: 'a.txt' });
    await writeFile(join(g.workspace, 'a.txt'), 'new');
    const r = await g.call('filesystem.restore', { trashId: trashIdsOf(del.details)[0] });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('filesystem.move');
    expect(await readFile(join(g.workspace, 'a.txt'), 'utf8')).toBe('new');
  });

  it('reports a file changed after approval and keeps it', async () => {
    const g = await open({
      files: { 'x/1.tmp': '1', 'x/2.tmp': '2' },
      approve: async () => {
        await writeFile(join(g.workspace, 'x/2.tmp'), 'changed!');
        return { choice: 'allow-once', approver: 'test' };
      },
    });
    const r = await g.call('filesystem.delete', { path: 'x/*.tmp' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('changed after approval and were left alone: x/2.tmp');
    expect(await exists(g, 'x/1.tmp')).toBe(false);
    expect(await readFile(join(g.workspace, 'x/2.tmp'), 'utf8')).toBe('changed!');
  });

  it('refuses to delete the workspace itself, and a missing path', async () => {
    const g = await open({ files: { 'a.txt': 'a' } });
    const root = await g.call('filesystem.delete', { path: '.' });
    expect(root.outcome).toBe('refused');
    expect(root.text).toContain('folder/*');
    const missing = await g.call('filesystem.delete', { path: '없음.txt' });
    expect(missing.outcome).toBe('refused');
    expect(missing.text).toContain('filesystem.search');
    expect(g.approvals).toHaveLength(0);
    expect(await exists(g, 'a.txt')).toBe(true);
  });

  it('does nothing when the user declines', async () => {
    const g = await open({ files: { 'a.txt': 'a' }, approve: () => ({ choice: 'deny', approver: 'test' }) });
    const r = await g.call('filesystem.delete', { path: 'a.txt' });
    expect(r.outcome).toBe('denied');
    expect(await exists(g, 'a.txt')).toBe(true);
  });
});

describe('filesystem.mkdir', () => {
  it('creates nested folders after approval', async () => {
    const g = await open({ lang: 'ko' });
    const r = await g.call('filesystem.mkdir', { path: '정리/2024/1분기' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals[0]!.summary.ko).toBe("'정리/2024/1분기' 폴더를 만듭니다");
    expect((await stat(join(g.workspace, '정리/2024/1분기'))).isDirectory()).toBe(true);
  });

  it('refuses an existing folder or file before asking anyone', async () => {
    const g = await open({ files: { '자료/a.txt': 'a' } });
    const folder = await g.call('filesystem.mkdir', { path: '자료' });
    expect(folder.outcome).toBe('refused');
    expect(folder.text).toContain('already exists');
    const file = await g.call('filesystem.mkdir', { path: '자료/a.txt' });
    expect(file.outcome).toBe('refused');
    const wildcard = await g.call('filesystem.mkdir', { path: '자료/*' });
    expect(wildcard.outcome).toBe('refused');
    expect(g.approvals).toHaveLength(0);
  });
});
