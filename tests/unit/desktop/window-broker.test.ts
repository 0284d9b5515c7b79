import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../electron/common/approval';
import type { IpcEventName } from '../../../electron/common/ipc-contract';
import { WindowBroker } from '../../../electron/main/desktop/window-broker';

const request = (callId: string): ApprovalRequest => ({
  callId,
  tool: 'filesystem.move',
  risk: 'write',
  summary: { ko: '파일 2개를 옮깁니다', en: 'Moves 2 files' },
  args: { from: '*.txt', to: 'x' },
  targets: [],
  rule: 'defaults.write',
  ruleSource: 'builtin',
  digest: `digest-${callId}`,
  lang: 'ko',
  timeoutMs: 1000,
});

function setup() {
  const sent: [IpcEventName, unknown][] = [];
  const broker = new WindowBroker((event, payload) => sent.push([event, payload]), 'os:kim');
  return { sent, broker };
}

describe('WindowBroker', () => {
  it('sends the request to the window and resolves with the answer, reason on deny only', async () => {
    const { sent, broker } = setup();
    const pending = broker.request(request('c1'), new AbortController().signal);
    expect(sent).toEqual([['approval:request', request('c1')]]);
    expect(broker.answer({ callId: 'c1', digest: 'digest-c1', choice: 'deny', reason: '  폴더가 틀렸어요 ' })).toBe(true);
    await expect(pending).resolves.toEqual({ callId: 'c1', digest: 'digest-c1', choice: 'deny', approver: 'os:kim', reason: '폴더가 틀렸어요' });
    expect(sent.at(-1)).toEqual(['approval:closed', { callId: 'c1' }]);
    expect(broker.answer({ callId: 'c1', digest: 'digest-c1', choice: 'allow-once' })).toBe(false); // answered already
  });

  it('passes on the digest the page sent, so the gate can refuse one that differs', async () => {
    const { broker } = setup();
    const pending = broker.request(request('c2'), new AbortController().signal);
    broker.answer({ callId: 'c2', digest: 'other', choice: 'allow-once', reason: 'ignored' });
    await expect(pending).resolves.toEqual({ callId: 'c2', digest: 'other', choice: 'allow-once', approver: 'os:kim' });
  });

  it('denies at once when the signal aborts (timeout or Stop) and closes the dialog', async () => {
    const { sent, broker } = setup();
    const controller = new AbortController();
    const pending = broker.request(request('c3'), controller.signal);
    expect(broker.open()).toHaveLength(1);
    controller.abort();
    await expect(pending).resolves.toMatchObject({ callId: 'c3', choice: 'deny' });
    expect(sent.at(-1)).toEqual(['approval:closed', { callId: 'c3' }]);
    expect(broker.open()).toHaveLength(0);
  });
});
