import { statfs } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/** system.info through the real gate: what a model would otherwise ask `df`, `free` or `uname` for. */
const open = useTestGate();

describe('system.info', () => {
  it('reports OS, CPU, memory and the free space of each workspace disk, without approval', async () => {
    const g = await open({ approve: 'none', lang: 'ko' });
    const r = await g.call('system.info', {});
    expect(r.outcome).toBe('ok');
    expect(g.approvals).toHaveLength(0);
    expect(r.text).toMatch(/^운영체제: /m);
    expect(r.text).toContain(`코어 ${cpus().length}개`);
    expect(r.text).toMatch(new RegExp(`작업 폴더 디스크 ${g.workspace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 전체 `));
    const fs = await statfs(g.workspace);
    const disk = (r.details as { disks: { root: string; availableBytes: number; totalBytes: number }[] }).disks[0];
    expect(disk?.root).toBe(g.workspace);
    expect(disk?.totalBytes).toBe(fs.blocks * fs.bsize);
    // Free space moves while other processes write; within 1 GiB of a statfs taken now.
    expect(Math.abs((disk?.availableBytes ?? 0) - fs.bavail * fs.bsize)).toBeLessThan(1024 ** 3);
    expect((r.details as { memoryFreeBytes: number }).memoryFreeBytes).toBeLessThanOrEqual(totalmem());
  });

  it('speaks English in an English session and takes no arguments', async () => {
    const g = await open({ lang: 'en' });
    const r = await g.call('system.info', {});
    expect(r.text).toMatch(/^Operating system: .*\nComputer name: /);
    const bad = await g.call('system.info', { path: '/' });
    expect(bad.outcome).toBe('invalid');
  });

  it('is recorded like every call, with no target', async () => {
    const g = await open();
    await g.call('system.info', {});
    const finished = (await g.auditEvents()).find((e) => e.type === 'execution.finished' && e.tool === 'system.info');
    expect(finished).toMatchObject({ outcome: 'ok', actionClass: '조회' });
  });
});
