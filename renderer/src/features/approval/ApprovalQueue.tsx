import { useEffect, useState } from 'react';
import type { ApprovalRequest } from '../../../../electron/common/approval';
import type { Lang } from '../../../../electron/common/i18n';
import type { BaramApi } from '../../../../electron/common/ipc-contract';
import { ApprovalDialog, type ApprovalAnswer } from './ApprovalDialog';

/**
 * Pending approvals in arrival order: one dialog at a time, the rest counted. A request leaves the
 * queue when main says it closed (answered, timed out, stopped), not when the page answers, so the
 * page never shows a request main no longer holds open.
 */
export function ApprovalQueue({ bridge, lang }: { readonly bridge: BaramApi; readonly lang: Lang }) {
  const [queue, setQueue] = useState<readonly ApprovalRequest[]>([]);

  useEffect(() => {
    let current = true;
    // Requests opened before this page listened (a reload, a slow start) are shown too.
    bridge['approval:pending']({}).then(
      (r) => {
        if (current && r.ok) setQueue((q) => [...r.value.filter((p) => !q.some((x) => x.callId === p.callId)), ...q]);
      },
      () => undefined,
    );
    const offRequest = bridge.on('approval:request', (request) => setQueue((q) => [...q.filter((r) => r.callId !== request.callId), request]));
    const offClosed = bridge.on('approval:closed', ({ callId }) => setQueue((q) => q.filter((r) => r.callId !== callId)));
    return () => {
      current = false;
      offRequest();
      offClosed();
    };
  }, [bridge]);

  const current = queue[0];
  if (!current) return null;
  const onAnswer = (a: ApprovalAnswer) => {
    void bridge['approval:answer']({ callId: current.callId, digest: current.digest, ...a });
  };
  return <ApprovalDialog key={current.callId} request={current} queued={queue.length - 1} lang={lang} onAnswer={onAnswer} />;
}
