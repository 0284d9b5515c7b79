import { enforceRetention, ensureDailyCheckpoint, type AuditLedger } from '../audit';

/** How often a running Baram checks whether the day's checkpoint and seal are due. */
const UPKEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface AuditUpkeep {
  stop(): void;
}

/**
 * The ledger's daily duties (SPEC §3): drop segments past retention (on record), and take the day's
 * checkpoint — which also seals the previous day and moves the key on — even when nobody uses
 * Baram that day. Runs once now (awaited: a ledger that cannot do this cannot log tool calls
 * either) and then hourly while the session lives.
 */
export async function startAuditUpkeep(ledger: AuditLedger, hostId: string, retentionDays: number, clock: () => Date = () => new Date()): Promise<AuditUpkeep> {
  const run = async (): Promise<void> => {
    await enforceRetention(ledger, retentionDays, clock());
    await ensureDailyCheckpoint(ledger, hostId, clock());
  };
  await run();
  const timer = setInterval(() => {
    // A failure here resurfaces on the next append, where the gate refuses to run tools.
    run().catch(() => undefined);
  }, UPKEEP_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
