/**
 * Domain vocabulary shared by main, preload and renderer. Pure types and constants only:
 * no node:*, no electron, no DOM.
 */

/** What a tool can do to the machine; drives the built-in default decision and the approval UI. */
export type Risk = 'read' | 'write' | 'destructive' | 'execute' | 'network';
export const RISKS: readonly Risk[] = ['read', 'write', 'destructive', 'execute', 'network'];

/** Permission layer verdict. Ordered by strictness: allow < ask < deny. */
export type Decision = 'allow' | 'ask' | 'deny';
export const DECISION_STRICTNESS: Readonly<Record<Decision, number>> = { allow: 0, ask: 1, deny: 2 };

export function stricter(a: Decision, b: Decision): Decision {
  return DECISION_STRICTNESS[a] >= DECISION_STRICTNESS[b] ? a : b;
}

/** Every way a tool call can end (SPEC G-NOTHROW): a value, never an exception. */
export type Outcome = 'ok' | 'error' | 'denied' | 'invalid' | 'refused' | 'timeout' | 'cancelled';
export const OUTCOMES: readonly Outcome[] = ['ok', 'error', 'denied', 'invalid', 'refused', 'timeout', 'cancelled'];

/** Outcomes where the gate stopped the call before the tool ran (CLI exit code 3). */
export function blockedByGate(outcome: Outcome): boolean {
  return outcome === 'denied' || outcome === 'invalid' || outcome === 'refused';
}

/**
 * What a permission pattern is matched against. The tool declares the kind, because only the tool
 * knows whether `git:*` is a command prefix or `/tmp/**` a path (seed: tool-contract-hardening §4.3).
 */
export type SubjectKind = 'COMMAND' | 'PATH' | 'URL' | 'HOST';
export const SUBJECT_KINDS: readonly SubjectKind[] = ['COMMAND', 'PATH', 'URL', 'HOST'];

export interface PermissionSubject {
  readonly kind: SubjectKind;
  /** Raw values from the arguments (PATH: as the model wrote them; the policy layer resolves them). */
  readonly values: readonly string[];
}

export type Concurrency = 'parallel-safe' | 'exclusive';

/** Where the rule that decided came from (recorded with every decision). */
export type RuleSource = 'admin' | 'user' | 'session' | 'builtin';

/** Korean audit action classes (개인정보의 안전성 확보조치 기준 §8). */
export type ActionClass = '조회' | '입력' | '수정' | '삭제' | '실행' | '전송';

/** The action class a tool call is recorded under, from its risk. */
export const ACTION_CLASS_OF_RISK: Readonly<Record<Risk, ActionClass>> = {
  read: '조회',
  write: '수정',
  destructive: '삭제',
  execute: '실행',
  network: '전송',
};

export type SchemaMode = 'off' | 'warn' | 'enforce';
