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
  /**
   * A line the gate appends AFTER cutting `text` to the model's budget (SPEC S-SHELL: `[exit code:
   * N]`, `[timed out after N ms]`), so a long output can never cut the marker away.
   */
  readonly marker?: string;
  /** Structured facts for the audit record and the UI (exit code, files touched, bytes, trash ids …). */
  readonly details?: Readonly<Record<string, unknown>>;
}
