import type { Decision, Outcome } from '../../../common/domain';
import type { StoredEventBody } from '../ledger/canonical-event';

/**
 * How much an event should catch a security analyst's eye, shared by syslog (severity 3–6) and CEF
 * (1–8) so both forwarders rank an event the same way.
 *
 *   error   – the control itself failed (the gate crashed, the ledger could not write): the tool may
 *             have been stopped or the record may be incomplete, so someone must look.
 *   warning – a call was stopped or failed: denied, refused, invalid, timed out, errored, or an
 *             approver said no. Expected in a working office, but the pattern matters (probing).
 *   notice  – normal but significant: something was written, executed, sent; sessions; approvals.
 *   info    – reads (조회) that went through: the bulk of the volume, least interesting.
 */
export type AuditSeverity = 'error' | 'warning' | 'notice' | 'info';

/** Event types that mean the recording or gating machinery failed (the lead adds audit.write-failed). */
const CONTROL_FAILURE_TYPES: ReadonlySet<string> = new Set(['gate.error', 'audit.write-failed']);

/** Event types that are by themselves a stop before the tool ran, whatever their outcome field says. */
const STOP_TYPES: ReadonlySet<string> = new Set(['schema.violation', 'precheck.refused', 'precheck.failed', 'plan.refused']);

export function auditSeverity(body: StoredEventBody): AuditSeverity {
  if (CONTROL_FAILURE_TYPES.has(body.type)) return 'error';
  if (body.outcome !== undefined && outcomeStopped(body.outcome)) return 'warning';
  if (body.decision !== undefined && decisionStopped(body.decision)) return 'warning';
  if (STOP_TYPES.has(body.type)) return 'warning';
  if (body.type === 'approval.decided' && body.data?.['choice'] === 'deny') return 'warning';
  if (body.actionClass === '조회' || body.risk === 'read') return 'info';
  return 'notice';
}

/**
 * Exhaustive over Outcome, so a new outcome does not compile until it is ranked. A value outside the
 * union (a damaged or foreign row) ranks as a warning instead of throwing: fail towards attention.
 */
function outcomeStopped(outcome: Outcome): boolean {
  switch (outcome) {
    case 'ok':
    case 'cancelled':
      return false;
    case 'error':
    case 'denied':
    case 'invalid':
    case 'refused':
    case 'timeout':
      return true;
    default: {
      const unranked: never = outcome;
      void unranked;
      return true;
    }
  }
}

/** Exhaustive over Decision; an unknown value ranks as a warning, as above. */
function decisionStopped(decision: Decision): boolean {
  switch (decision) {
    case 'allow':
    case 'ask':
      return false;
    case 'deny':
      return true;
    default: {
      const unranked: never = decision;
      void unranked;
      return true;
    }
  }
}
