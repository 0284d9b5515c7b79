import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditEventInput, AuditSink } from '../../common/audit-events';

/** Who and where, recorded on every line (NIST AU-3: identity, time, origin). */
export interface AuditIdentity {
  readonly sessionId: string;
  readonly osUser: string;
  readonly appUser: string;
  readonly hostId: string;
}

/**
 * Interim ledger: one JSON object per line, fsync'd per event so an intent row is on disk before the
 * tool runs. It is NOT tamper-evident; the hash-chained SQLite ledger (issue #3) replaces it behind
 * the same AuditSink interface.
 */
export class JsonlAuditSink implements AuditSink {
  private fd: number;
  private seq: number;

  private constructor(
    readonly file: string,
    private readonly identity: AuditIdentity,
  ) {
    this.seq = lastSeq(file);
    this.fd = openSync(file, 'a', 0o600);
  }

  static open(dir: string, identity: AuditIdentity): JsonlAuditSink {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return new JsonlAuditSink(join(dir, 'audit.jsonl'), identity);
  }

  async append(event: AuditEventInput): Promise<number> {
    const now = new Date();
    const seq = this.seq + 1;
    const line = JSON.stringify({
      seq,
      time: now.toISOString(),
      tzOffsetMinutes: -now.getTimezoneOffset(),
      ...this.identity,
      ...event,
    });
    writeSync(this.fd, `${line}\n`);
    fsyncSync(this.fd);
    this.seq = seq;
    return seq;
  }

  async close(): Promise<void> {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

function lastSeq(file: string): number {
  if (!existsSync(file)) return 0;
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const last = lines[lines.length - 1];
  if (!last) return 0;
  try {
    const parsed = JSON.parse(last) as { seq?: unknown };
    return typeof parsed.seq === 'number' ? parsed.seq : 0;
  } catch {
    throw new Error(`Audit log ${file} ends in an unreadable line; refusing to append after it.`);
  }
}
