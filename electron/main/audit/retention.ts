import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import type { AuditLedger } from './ledger/audit-ledger';
import { EPOCH_MS, monthEndMs } from './ledger/epochs';
import { schemaVersion } from './ledger/schema';
import { listSegments, openSegmentReader } from './ledger/segments';

export interface DeletedSegment {
  readonly segment: string;
  readonly rows: number;
  readonly firstSeq?: number;
  readonly lastSeq?: number;
}

/**
 * Deletes whole monthly segments older than the retention period (policy `audit.retentionDays`,
 * default 730 — SPEC §3 "2 years"), oldest first and only as an unbroken prefix, never the newest
 * segment. Each deletion is recorded BEFORE the file goes (`retention.deleted` with the segment's
 * seq range and final hash), so the verifier can tell a deletion on record from a deleted file:
 * the first remaining row must link to that final hash. A crash between record and removal just
 * leaves the file for the next run.
 */
export async function enforceRetention(ledger: AuditLedger, retentionDays: number, now: Date): Promise<DeletedSegment[]> {
  const segments = listSegments(ledger.dir);
  const deleted: DeletedSegment[] = [];
  for (const segment of segments.slice(0, -1)) {
    const expiresAt = monthEndMs(segment.month) + retentionDays * EPOCH_MS;
    if (expiresAt > now.getTime()) break;
    const span = segmentSpan(segment.file);
    const record: DeletedSegment = { segment: basename(segment.file), rows: span.rows, ...(span.rows > 0 ? { firstSeq: span.firstSeq, lastSeq: span.lastSeq } : {}) };
    await ledger.append({
      type: 'retention.deleted',
      actionClass: '삭제',
      target: [record.segment],
      outcome: 'ok',
      data: { ...record, month: segment.month, retentionDays, ...(span.rows > 0 ? { finalHash: span.finalHash } : {}) },
    });
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${segment.file}${suffix}`, { force: true });
    deleted.push(record);
  }
  return deleted;
}

function segmentSpan(file: string): { rows: number; firstSeq: number; lastSeq: number; finalHash: string } {
  const db = openSegmentReader(file);
  try {
    if (schemaVersion(db) === 0) return { rows: 0, firstSeq: 0, lastSeq: 0, finalHash: '' };
    const span = db
      .prepare<[], { rows: number; firstSeq: number | null; lastSeq: number | null }>('SELECT count(*) AS rows, min(seq) AS firstSeq, max(seq) AS lastSeq FROM entries')
      .get();
    const last = db.prepare<[], { entry_hash: string }>('SELECT entry_hash FROM entries ORDER BY seq DESC LIMIT 1').get();
    return { rows: span?.rows ?? 0, firstSeq: span?.firstSeq ?? 0, lastSeq: span?.lastSeq ?? 0, finalHash: last?.entry_hash ?? '' };
  } finally {
    db.close();
  }
}
