import { join } from 'node:path';
import { AuditLedger } from '../../electron/main/audit/writer';
import { auditEventStream } from '../bench/audit-query-corpus';
import { writeSegment, type SegmentEvent } from '../helpers/audit-segments';

/**
 * A data folder whose audit ledger already holds `count` events of last month (the audit-viewer
 * benchmark's office corpus: 20 users, 35 tools, Korean paths), written the way
 * tests/bench/audit-query-ledger.ts builds its corpus (plain INSERTs in one transaction, the chain
 * and viewer_rows as the ledger makes them) — 100k rows in seconds instead of 100k fsyncs. The
 * sealing key is created first by the real writer, so the session opens on it as on any folder
 * and appends this month's rows after them. The seeded rows carry no seals (MACs): fine for
 * paging and filtering, not a folder to check seals on.
 */
export function seedAuditLedger(dataDir: string, count: number, now = new Date()): { readonly lastSeq: number } {
  const dir = join(dataDir, 'audit');
  const identity = { sessionId: 'seed', osUser: 'seed', appUser: 'seed', hostId: 'seed' };
  const ledger = AuditLedger.open(dir, identity);
  ledger.takeInitialKey();
  void ledger.close();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1, 0, 0, 0));
  const month = start.toISOString().slice(0, 7);
  const events: SegmentEvent[] = [];
  for (const e of auditEventStream(count, start, 20)) {
    if (e.time.toISOString().slice(0, 7) !== month) throw new Error(`seeded event outside ${month}: ${e.time.toISOString()}`);
    events.push(e);
  }
  const written = writeSegment(join(dir, `ledger-${month}.sqlite3`), events, { firstSeq: 1, fast: true });
  return { lastSeq: written.lastSeq };
}
