import type { Risk, RuleSource } from './domain';
import type { Lang, Text } from './i18n';

/**
 * What the human sees before anything happens (SPEC G-APPROVE). The same content is shown in the
 * desktop dialog and in the terminal (`--approve ask`).
 */
export interface ApprovalRequest {
  readonly callId: string;
  readonly tool: string;
  readonly risk: Risk;
  /** Plain language: "파일 158개를 정리/2024로 옮깁니다". */
  readonly summary: Text;
  /** The exact arguments (after null normalisation), as the model sent them. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Every affected item, display paths; globs already expanded. */
  readonly targets: readonly ApprovalTarget[];
  readonly preview?: string;
  /** Host or URL for network tools. */
  readonly destination?: string;
  /** The rule that asked for approval, and its source. */
  readonly rule: string;
  readonly ruleSource: RuleSource;
  /** SHA-256 of the canonical request + expanded targets; the approval binds to it. */
  readonly digest: string;
  readonly lang: Lang;
  readonly timeoutMs: number;
}

export interface ApprovalTarget {
  /** Relative to the workspace root that holds it ("보고서/2024.xlsx"), for compact lists. */
  readonly path: string;
  readonly to?: string;
  /** The absolute paths, which the person sees too ("D:\\정리\\2024\\…"): no doubt about which folder. */
  readonly absolutePath: string;
  readonly absoluteTo?: string;
  /** True when the target exists and would be replaced. */
  readonly exists: boolean;
}

export type ApprovalChoice = 'allow-once' | 'allow-session' | 'deny';

/**
 * A person's (or a standing rule's) answer. It names the request it answers: the gate refuses an
 * answer for another call or another digest (SPEC G-APPROVE: the approval binds to the digest),
 * so an answer meant for one dialog can never approve a different plan.
 */
export interface ApprovalDecision {
  readonly callId: string;
  readonly digest: string;
  readonly choice: ApprovalChoice;
  /** Optional reason on deny; goes back to the model. */
  readonly reason?: string;
  /** Who decided ("os:kim", "cli:--approve all"). */
  readonly approver: string;
}

/** The answer to `request` with the given choice (what every broker returns). */
export function answerTo(request: Pick<ApprovalRequest, 'callId' | 'digest'>, choice: ApprovalChoice, approver: string, reason?: string): ApprovalDecision {
  return { callId: request.callId, digest: request.digest, choice, approver, ...(reason ? { reason } : {}) };
}

/**
 * The one interface through which the app or the CLI supplies approvals. Must honour `signal`
 * (timeout or Stop) by settling promptly; the gate treats a late answer as deny.
 */
export interface ApprovalBroker {
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** Buttons (and terminal input) become active only after this delay, so a stray Enter cannot approve. */
export const APPROVAL_ARM_DELAY_MS = 600;
