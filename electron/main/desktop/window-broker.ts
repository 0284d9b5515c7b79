import { answerTo, type ApprovalBroker, type ApprovalChoice, type ApprovalDecision, type ApprovalRequest } from '../../common/approval';
import type { EmitEvent } from './emit';

/**
 * The approval broker of the window (SPEC G-APPROVE): each request becomes an `approval:request`
 * event and waits for the page's `approval:answer`. Timeout and Stop (the signal) settle it as deny
 * at once and close the dialog. The answer carries the digest the page was shown; the gate refuses
 * one that does not match, so the page cannot approve a plan it did not see.
 */
interface Pending {
  readonly request: ApprovalRequest;
  readonly settle: (decision: ApprovalDecision) => void;
}

export interface WindowAnswer {
  readonly callId: string;
  readonly digest: string;
  readonly choice: ApprovalChoice;
  readonly reason?: string;
}

export class WindowBroker implements ApprovalBroker {
  readonly #pending = new Map<string, Pending>();

  constructor(
    private readonly emit: EmitEvent,
    /** Who answers in this window ("os:kim"), recorded with every decision. */
    private readonly approver: string,
  ) {}

  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise((resolve) => {
      const deny = () => answerTo(request, 'deny', `${this.approver} (${signal.aborted ? 'stopped or timed out' : 'closed'})`);
      if (signal.aborted) return resolve(deny());
      const onAbort = () => settle(deny());
      const settle = (decision: ApprovalDecision) => {
        if (this.#pending.get(request.callId)?.request !== request) return;
        this.#pending.delete(request.callId);
        signal.removeEventListener('abort', onAbort);
        this.emit('approval:closed', { callId: request.callId });
        resolve(decision);
      };
      this.#pending.set(request.callId, { request, settle });
      signal.addEventListener('abort', onAbort, { once: true });
      this.emit('approval:request', request);
    });
  }

  /** False when no approval with that id is open (answered already, timed out, stopped). */
  answer(a: WindowAnswer): boolean {
    const pending = this.#pending.get(a.callId);
    if (!pending) return false;
    const reason = a.choice === 'deny' ? a.reason?.trim() : undefined;
    pending.settle(answerTo({ callId: a.callId, digest: a.digest }, a.choice, this.approver, reason));
    return true;
  }

  /** Open requests, oldest first (a page that reloads asks for them again). */
  open(): readonly ApprovalRequest[] {
    return [...this.#pending.values()].map((p) => p.request);
  }
}
