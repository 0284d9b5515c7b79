import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../electron/common/approval';
import { ApprovalQueue } from '../../../electron/main/gate/approval-queue';
import { ToolScheduler } from '../../../electron/main/gate/scheduler';

/** A promise with its resolve handle: lets a test hold a call "running" until it says so. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('ToolScheduler', () => {
  it('runs parallel-safe calls together and an exclusive one alone, in arrival order', async () => {
    const s = new ToolScheduler();
    const log: string[] = [];
    const hold = (name: string, until: Promise<void>) => async () => {
      log.push(`${name}+`);
      await until;
      log.push(`${name}-`);
    };
    const readGate = gate();
    const writeGate = gate();
    const r1 = s.run('parallel-safe', hold('r1', readGate.opened));
    const r2 = s.run('parallel-safe', hold('r2', readGate.opened));
    const w = s.run('exclusive', hold('w', writeGate.opened));
    const r3 = s.run('parallel-safe', hold('r3', Promise.resolve()));
    await Promise.resolve();
    // Both reads started; the write waits for them; the later read waits behind the write.
    expect(log).toEqual(['r1+', 'r2+']);
    readGate.open();
    await Promise.all([r1, r2]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['r1+', 'r2+', 'r1-', 'r2-', 'w+']);
    writeGate.open();
    await Promise.all([w, r3]);
    expect(log).toEqual(['r1+', 'r2+', 'r1-', 'r2-', 'w+', 'w-', 'r3+', 'r3-']);
  });

  it('releases its turn when the work throws', async () => {
    const s = new ToolScheduler();
    await expect(s.run('exclusive', async () => { throw new Error('bug'); })).rejects.toThrow('bug');
    await expect(s.run('exclusive', async () => 'next')).resolves.toBe('next');
  });
});

function requestFor(callId: string, digest = `d-${callId}`): ApprovalRequest {
  return {
    callId,
    digest,
    tool: 'filesystem.move',
    risk: 'write',
    summary: { ko: '옮깁니다', en: 'Moves' },
    args: {},
    targets: [],
    rule: 'defaults.write',
    ruleSource: 'builtin',
    lang: 'ko',
    timeoutMs: 300_000,
  };
}

describe('ApprovalQueue', () => {
  it('keeps several requests pending in arrival order and answers each once', async () => {
    const q = new ApprovalQueue();
    const seen: string[][] = [];
    q.subscribe((pending) => seen.push(pending.map((p) => p.callId)));
    const a = q.request(requestFor('a'), new AbortController().signal);
    const b = q.request(requestFor('b'), new AbortController().signal);
    expect(q.pending().map((p) => p.callId)).toEqual(['a', 'b']);
    expect(q.answer('b', 'd-b', 'deny', 'os:kim', '폴더가 틀렸어요')).toBe('answered');
    expect(q.answer('b', 'd-b', 'allow-once', 'os:kim')).toBe('unknown');
    await expect(b).resolves.toEqual({ callId: 'b', digest: 'd-b', choice: 'deny', approver: 'os:kim', reason: '폴더가 틀렸어요' });
    expect(q.answer('a', 'd-a', 'allow-session', 'os:kim')).toBe('answered');
    await expect(a).resolves.toMatchObject({ callId: 'a', choice: 'allow-session' });
    expect(seen).toEqual([['a'], ['a', 'b'], ['a'], []]);
  });

  it('refuses an answer with another digest and keeps the request waiting', () => {
    const q = new ApprovalQueue();
    void q.request(requestFor('a'), new AbortController().signal);
    expect(q.answer('a', 'stale', 'allow-once', 'os:kim')).toBe('digest-mismatch');
    expect(q.pending()).toHaveLength(1);
  });

  it('drops a request whose wait was aborted (timeout or Stop); a late answer finds nothing', async () => {
    const q = new ApprovalQueue();
    const stop = new AbortController();
    const a = q.request(requestFor('a'), stop.signal);
    stop.abort();
    await expect(a).resolves.toMatchObject({ choice: 'deny', approver: 'cancelled' });
    expect(q.pending()).toEqual([]);
    expect(q.answer('a', 'd-a', 'allow-once', 'os:kim')).toBe('unknown');
  });
});
