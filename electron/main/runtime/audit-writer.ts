import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { LedgerIdentity } from '../audit';
import { AuditLedger } from '../audit/writer';
import { osUser } from './os-user';
import { hostIdOf } from './session';

/**
 * Opens the ledger's writer for one audit command (verify, export, checkpoint, backup, init record
 * what they did) and closes it afterwards. The CLI gets the writer only for the length of `use`:
 * only runtime/ imports audit/writer (issue 13, dependency rule ledger-writer-only-from-runtime).
 */
export async function withAuditWriter<T>(auditFolder: string, use: (ledger: AuditLedger, who: LedgerIdentity) => Promise<T>): Promise<T> {
  const user = osUser();
  const who: LedgerIdentity = { sessionId: randomUUID(), osUser: user, appUser: user, hostId: hostIdOf(hostname()) };
  const ledger = AuditLedger.open(auditFolder, who);
  try {
    return await use(ledger, who);
  } finally {
    await ledger.close();
  }
}
