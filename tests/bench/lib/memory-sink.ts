import type { AuditEventInput, AuditSink } from '../../../electron/common/audit-events';

/**
 * An audit sink in memory, for benchmarks that measure the gate or the agent without the ledger's
 * durability (the ledger's own cost is measured by the audit benchmarks). Keeps only the last
 * call's execution duration; the gate awaits it like a real ledger.
 */
export class MemorySink implements AuditSink {
  private seq = 0;
  lastDurationMs = 0;
  async append(e: AuditEventInput): Promise<number> {
    if (e.type === 'execution.finished' && typeof e.data?.durationMs === 'number') this.lastDurationMs = e.data.durationMs;
    return ++this.seq;
  }
  async close(): Promise<void> {}
}
