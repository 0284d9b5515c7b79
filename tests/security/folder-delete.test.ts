import { existsSync, readFileSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate, type TestAnswer } from '../helpers/gate-harness';

/**
 * Issue 14 class 6 (and issue 15 item 3): a folder delete lists every file inside it in the
 * approval, and removes only what was listed and is still as approved.
 */
const open = useTestGate();
const files = { 'proj/a.txt': 'a', 'proj/sub/b.txt': 'b', 'proj/sub/c.txt': 'c', 'other.txt': 'o' };
const approveAfter = (change: () => Promise<void>) => async (): Promise<TestAnswer> => {
  await change();
  return { choice: 'allow-once', approver: 'test' };
};

describe('filesystem.delete of a folder', () => {
  it('lists and counts the files inside it in the approval; unchanged, the folder goes whole and comes back whole', async () => {
    const g = await open({ files });
    const r = await g.call('filesystem.delete', { path: 'proj' });
    expect(r.outcome).toBe('ok');
    const shown = g.approvals[0]!.targets.map((t) => t.path);
    expect(shown).toEqual(expect.arrayContaining(['proj/a.txt', 'proj/sub/b.txt', 'proj/sub/c.txt', 'proj/sub', 'proj']));
    expect(g.approvals[0]!.summary.en).toContain('including the 3 files inside');
    expect(existsSync(join(g.workspace, 'proj'))).toBe(false);
    const trash = (r.details as { trash: { trashId: string }[] }).trash;
    expect(trash).toHaveLength(1);
    const back = await g.call('filesystem.restore', { trashId: trash[0]!.trashId });
    expect(back.outcome).toBe('ok');
    expect(readFileSync(join(g.workspace, 'proj/sub/c.txt'), 'utf8')).toBe('c');
  });

  it('a file that appears inside the folder after approval is not deleted', async () => {
    const g = await open({ files, approve: approveAfter(() => writeFile(join(g.workspace, 'proj/sub/late.txt'), 'late')) });
    const r = await g.call('filesystem.delete', { path: 'proj' });
    expect(r.outcome).toBe('ok');
    expect(readFileSync(join(g.workspace, 'proj/sub/late.txt'), 'utf8')).toBe('late');
    expect(existsSync(join(g.workspace, 'proj/sub/b.txt'))).toBe(false);
    expect(existsSync(join(g.workspace, 'proj/a.txt'))).toBe(false);
    expect(existsSync(join(g.workspace, 'other.txt'))).toBe(true);
    // The ledger: the approval covered the five listed entries; what ran never named the late file.
    const events = await g.auditEvents();
    expect(events.find((e) => e.type === 'approval.requested')?.data).toMatchObject({ targetCount: 5 });
    const started = events.find((e) => e.type === 'execution.started');
    expect(JSON.stringify(started?.target)).not.toContain('late.txt');
    expect(started?.data).toMatchObject({ changedAfterApproval: [join(g.workspace, 'proj/sub')] });
  });

  it('a listed file edited after approval stays; the rest of the folder goes', async () => {
    const g = await open({ files, approve: approveAfter(() => appendFile(join(g.workspace, 'proj/sub/b.txt'), ' edited')) });
    const r = await g.call('filesystem.delete', { path: 'proj' });
    expect(r.outcome).toBe('ok');
    expect(readFileSync(join(g.workspace, 'proj/sub/b.txt'), 'utf8')).toBe('b edited');
    expect(existsSync(join(g.workspace, 'proj/sub/c.txt'))).toBe(false);
    expect(existsSync(join(g.workspace, 'proj/a.txt'))).toBe(false);
    expect(r.text).toContain('left alone: proj/sub/b.txt');
  });
});
