import type { Outcome } from './domain';

/**
 * What a tool's execute returns. `denied` and `invalid` are decided by the gate only, so a tool
 * cannot claim them. `text` is what the model will see (already in the session language);
 * the gate caps it and appends markers.
 */
export type ToolOutcome = Exclude<Outcome, 'denied' | 'invalid'>;

export interface ToolResult {
  readonly outcome: ToolOutcome;
  readonly text: string;
  /** Structured facts for the audit record and the UI (exit code, files touched, bytes, trash ids …). */
  readonly details?: Readonly<Record<string, unknown>>;
}
