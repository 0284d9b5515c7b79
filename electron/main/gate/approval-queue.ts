import { answerTo, type ApprovalBroker, type ApprovalChoice, type ApprovalDecision, type ApprovalRequest } from '../../common/approval';

/**
 * The approval broker a window serves (SPEC G-APPROVE): several calls may wait at once (parallel
 * tool calls, two conversations); the window shows them one after another, in arrival order, and
 * each is answered once. A request leaves the queue when it is answered, when the gate's timeout or
 * the user's Stop aborts it, whichever comes first; a late answer finds nothing and changes nothing.
 */
export type AnswerResult = 'answered' | 'unknown' | 'digest-mismatch';

interface Waiting {
  readonly request: ApprovalRequest;
  readonly resolve: (decision: ApprovalDecision) => void;
}

export class ApprovalQueue implements ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>();
  private readonly listeners = new Set<(pending: readonly ApprovalRequest[]) => void>();

  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise((resolve) => {
      if (signal.aborted || this.waiting.has(request.callId)) {
        resolve(answerTo(request, 'deny', 'cancelled'));
        return;
      }
      this.waiting.set(request.callId, { request, resolve });
      signal.addEventListener('abort', () => this.settle(request.callId, answerTo(request, 'deny', 'cancelled')), { once: true });
      this.changed();
    });
  }

  /** The requests waiting, oldest first (the window shows the first; the rest queue behind it). */
  pending(): readonly ApprovalRequest[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  /**
   * Answers one waiting request. The digest must be the one the window showed: an answer for a
   * request that was replaced, or typed into a stale dialog, is refused and the request keeps waiting.
   */
  answer(callId: string, digest: string, choice: ApprovalChoice, approver: string, reason?: string): AnswerResult {
    const waiting = this.waiting.get(callId);
    if (!waiting) return 'unknown';
    if (waiting.request.digest !== digest) return 'digest-mismatch';
    this.settle(callId, answerTo(waiting.request, choice, approver, reason));
    return 'answered';
  }

  /** Called with the pending list whenever it changes; returns the unsubscribe function. */
  subscribe(listener: (pending: readonly ApprovalRequest[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private settle(callId: string, decision: ApprovalDecision): void {
    const waiting = this.waiting.get(callId);
    if (!waiting) return;
    this.waiting.delete(callId);
    waiting.resolve(decision);
    this.changed();
  }

  private changed(): void {
    const pending = this.pending();
    for (const listener of this.listeners) listener(pending);
  }
}
