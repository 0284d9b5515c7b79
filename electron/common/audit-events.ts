import type { ActionClass, Decision, Outcome, Risk, RuleSource } from './domain';

/**
 * The events the gate emits at every arrow of SPEC §2. The ledger (electron/main/audit) adds seq,
 * time, session, user and host fields and chains them.
 */
export type AuditEventType =
  | 'session.start'
  | 'session.stop'
  | 'request'
  | 'request.finished'
  | 'tool.proposed'
  | 'permission.decided'
  | 'schema.violation'
  | 'precheck.refused'
  | 'precheck.failed'
  | 'plan.refused'
  | 'approval.requested'
  | 'approval.decided'
  | 'execution.started'
  | 'execution.finished'
  | 'gate.error'
  | 'toolset.changed'
  /** An "allow for this session" grant withdrawn in the settings screen. */
  | 'session.grant.revoked'
  // An MCP server's life in a session (issue 19): started, tools listed or rejected, stopped, restarted.
  | 'mcp.server'
  // Written by the ledger itself (electron/main/audit):
  | 'audit.seal'
  | 'audit.checkpoint'
  | 'audit.verify'
  | 'audit.export'
  | 'audit.backup'
  | 'audit.write-failed'
  | 'retention.deleted';

export interface AuditEventInput {
  readonly type: AuditEventType;
  /** Correlates the events of one tool call. */
  readonly callId?: string;
  /** The user request (a `request` event) the call serves, when a conversation made it. */
  readonly requestId?: string;
  readonly tool?: string;
  readonly risk?: Risk;
  readonly actionClass?: ActionClass;
  /** What was acted on: paths, command line, URL, host. */
  readonly target?: readonly string[];
  readonly decision?: Decision;
  readonly rule?: string;
  readonly ruleSource?: RuleSource;
  readonly outcome?: Outcome;
  /** Everything else, event-specific (arguments are redacted by the gate before they get here). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/**
 * Where the gate writes. `append` resolves with the event's sequence number once it is durable, and
 * rejects when it cannot be written: the gate then refuses to run the tool (SPEC A-*).
 */
export interface AuditSink {
  append(event: AuditEventInput): Promise<number>;
  close(): Promise<void>;
}
