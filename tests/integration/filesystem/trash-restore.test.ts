import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/** Issue 15 item 3: the trash can be seen, and several items come back in one approval, elsewhere too. */
const open = useTestGate();
const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`사진/IMG_${i + 1}.jpg`, `photo ${i + 1}`]));

async function deleteAll(g: Awaited<ReturnType<typeof open>>): Promise<string[]> {
  const r = await g.call('filesystem.delete', { path: '사진/*.jpg' });
  expect(r.outcome).toBe('ok');
  return (r.details as { trash: { trashId: string }[] }).trash.map((t) => t.trashId);
}

describe('the trash', () => {
  it('filesystem.trash lists every entry with its trashId and original place, without approval', async () => {
    const g = await open({ files: six });
    const ids = await deleteAll(g);
    const before = g.approvals.length;
    const r = await g.call('filesystem.trash', {});
    expect(r.outcome).toBe('ok');
    expect(g.approvals.length).toBe(before);
    for (const id of ids) expect(r.text).toContain(id);
    expect(r.text).toContain('사진/IMG_3.jpg');
  });

  it('six items restored in one approval listing them all', async () => {
    const g = await open({ files: six });
    const ids = await deleteAll(g);
    const r = await g.call('filesystem.restore', { trashId: ids });
    expect(r.outcome).toBe('ok');
    expect(g.approvals).toHaveLength(2);
    expect(g.approvals[1]!.targets.map((t) => t.path).sort()).toEqual(Object.keys(six).sort());
    for (const [path, content] of Object.entries(six)) expect(readFileSync(join(g.workspace, path), 'utf8')).toBe(content);
    expect((await g.call('filesystem.trash', {})).text).toContain('empty');
  });

  it('restores under another name, or into another folder, never over an existing file', async () => {
    const g = await open({ files: six });
    const ids = await deleteAll(g);
    const one = await g.call('filesystem.restore', { trashId: ids[0], to: '복원/첫번째.jpg' });
    expect(one.outcome).toBe('ok');
    expect(readFileSync(join(g.workspace, '복원/첫번째.jpg'), 'utf8')).toBe('photo 1');
    const two = await g.call('filesystem.restore', { trashId: ids.slice(1, 3), to: '복원' });
    expect(two.outcome).toBe('ok');
    expect(existsSync(join(g.workspace, '복원/IMG_2.jpg'))).toBe(true);
    expect(existsSync(join(g.workspace, '복원/IMG_3.jpg'))).toBe(true);
    const clash = await g.call('filesystem.restore', { trashId: ids[3], to: '복원/첫번째.jpg' });
    expect(clash.outcome).toBe('refused');
    expect(readFileSync(join(g.workspace, '복원/첫번째.jpg'), 'utf8')).toBe('photo 1');
  });
});
