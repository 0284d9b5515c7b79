import { describe, expect, it, vi } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTestGate } from '../helpers/gate-harness';

/**
 * Issue 14 class 12: filesystem.search was super-linear in depth (1,000 nested folders ≈ 15 s)
 * because every folder of the walk was re-proven with realpath(3), which resolves the path in user
 * space one component at a time: O(depth) system calls per folder, O(depth²) per search. The bound
 * here counts work, not time: every realpath the process makes is weighed by the components it
 * must walk, through the node:fs seams the host uses.
 */
const work = vi.hoisted(() => ({ realpathComponents: 0, realpathCalls: 0 }));
function weigh(p: unknown): void {
  work.realpathCalls++;
  work.realpathComponents += String(p).split('/').length;
}

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const realpath = ((p: Parameters<typeof actual.realpath>[0], o?: Parameters<typeof actual.realpath>[1]) => {
    weigh(p);
    return actual.realpath(p, o);
  }) as typeof actual.realpath;
  return { ...actual, realpath, default: { ...actual, realpath } };
});
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const wrapNative = ((p: Parameters<typeof actual.realpathSync.native>[0], o?: Parameters<typeof actual.realpathSync.native>[1]) => {
    weigh(p);
    return actual.realpathSync.native(p, o as never);
  }) as typeof actual.realpathSync.native;
  const realpathSync = Object.assign(
    ((p: Parameters<typeof actual.realpathSync>[0], o?: Parameters<typeof actual.realpathSync>[1]) => {
      weigh(p);
      return actual.realpathSync(p, o as never);
    }) as typeof actual.realpathSync,
    { native: wrapNative },
  );
  return { ...actual, realpathSync, default: { ...actual, realpathSync } };
});

const DEPTH = 1500;
const open = useTestGate({});

describe('filesystem.search over 1,500 nested folders does linear work (issue 14 class 12)', () => {
  it('finds the file at the bottom, with or without a pattern, resolving paths O(depth) in total', async () => {
    const g = await open();
    let deepest = join(g.workspace, 'deep');
    for (let i = 0; i < DEPTH; i++) deepest = join(deepest, 'd');
    mkdirSync(deepest, { recursive: true });
    writeFileSync(join(deepest, 'bottom.txt'), 'x');
    writeFileSync(join(g.workspace, 'top.txt'), 'y'); // positive control near the top

    for (const namePattern of ['*.txt', '']) {
      work.realpathCalls = 0;
      work.realpathComponents = 0;
      const started = performance.now();
      const r = await g.call('filesystem.search', { path: 'deep', namePattern });
      console.log(`depth ${DEPTH} namePattern ${JSON.stringify(namePattern)}: ${Math.round(performance.now() - started)} ms, ${work.realpathCalls} realpath calls, ${work.realpathComponents} components`);
      expect(r.outcome).toBe('ok');
      expect(r.text).toContain('bottom.txt');
      // Quadratic would be ≈ DEPTH²/2 ≈ 1.1 million components; linear work stays within a few depths.
      expect(work.realpathComponents).toBeLessThan(20 * DEPTH);
    }
    const top = await g.call('filesystem.search', { namePattern: 'top.txt' });
    expect(top.text).toContain('top.txt');
  }, 120_000);
});
