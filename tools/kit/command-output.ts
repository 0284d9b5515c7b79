import type { ToolResult } from '../../electron/common/tool-result';

/**
 * How a command's end reads to the model (SPEC S-SHELL), shared by shell.execute and ssh.execute:
 * the merged output is the body; the gate cuts it to the budget and appends the marker after the
 * cut — nothing on success, `[exit code: N]` on failure, `[timed out after N ms]` on timeout with
 * the partial output kept. A non-zero exit is a value (outcome ok with the marker), not an error.
 */
export type CommandEnd =
  | { readonly kind: 'exited'; readonly exitCode: number | null; readonly signal?: string | null }
  | { readonly kind: 'timed-out'; readonly timeoutMs: number }
  | { readonly kind: 'cancelled' };

export function commandResult(output: string, end: CommandEnd, details: Readonly<Record<string, unknown>>): ToolResult {
  switch (end.kind) {
    case 'exited': {
      if (end.exitCode === 0) return { outcome: 'ok', text: output, details };
      const marker = end.exitCode === null ? `[killed by signal ${end.signal ?? 'unknown'}]` : `[exit code: ${end.exitCode}]`;
      return { outcome: 'ok', text: output, marker, details };
    }
    case 'timed-out':
      return { outcome: 'timeout', text: output, marker: `[timed out after ${end.timeoutMs} ms]`, details };
    case 'cancelled':
      return { outcome: 'cancelled', text: output, marker: '[cancelled]', details };
  }
}

/** Timeouts from the model are clamped to [1 s, the policy's maximum] (SPEC S-SHELL). */
export function clampTimeout(requested: number | undefined, policy: { readonly defaultTimeoutMs: number; readonly maxTimeoutMs: number }): number {
  const wanted = requested ?? policy.defaultTimeoutMs;
  return Math.min(Math.max(Math.round(wanted), 1_000), policy.maxTimeoutMs);
}
