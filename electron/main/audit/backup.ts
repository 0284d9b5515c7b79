import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { checkpointsDir } from './checkpoint/checkpoint-store';
import type { AuditLedger } from './ledger/audit-ledger';
import { listSegments, openSegmentReader } from './ledger/segments';

/**
 * The note a backup leaves in its folder, so that verify can tell a backup, whose sealing key was
 * left out on purpose, from a data folder whose key was lost (issue 15 item 15). It proves nothing
 * (anyone can write it) and changes no verdict: only the words verify uses about the absent key.
 */
export interface BackupMarker {
  readonly format: 'baram-audit-backup-v1';
  readonly madeAt: string;
  /** The ledger folder the backup was made from. */
  readonly from: string;
}

const BACKUP_MARKER = 'BACKUP.json';

export function backupMarker(dir: string): BackupMarker | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, BACKUP_MARKER), 'utf8')) as Partial<BackupMarker>;
    return parsed.format === 'baram-audit-backup-v1' && typeof parsed.madeAt === 'string' && typeof parsed.from === 'string' ? (parsed as BackupMarker) : undefined;
  } catch {
    return undefined;
  }
}

export interface BackupSummary {
  readonly dir: string;
  readonly segments: readonly string[];
  readonly checkpoints: number;
}

/**
 * Copies the ledger's segments with SQLite's online backup API — never a file copy of a live
 * database, which can capture a half-applied WAL — plus the checkpoint texts, into a new folder.
 * The sealing key is NOT copied: a backup holding today's key would let its reader forge rows from
 * today on; the backup is verifiable with the verification key security staff hold.
 */
export async function backupLedger(ledger: AuditLedger, outDir: string): Promise<BackupSummary> {
  const dir = resolve(outDir);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new Error(`${dir} 폴더가 비어 있지 않습니다. 새 폴더를 주세요. / ${dir} is not empty; give a new or empty folder for the backup.`);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const segments: string[] = [];
  for (const segment of listSegments(ledger.dir)) {
    const source = openSegmentReader(segment.file);
    try {
      await source.backup(join(dir, basename(segment.file)));
    } finally {
      source.close();
    }
    segments.push(basename(segment.file));
  }
  let checkpoints = 0;
  const from = checkpointsDir(ledger.dir);
  if (existsSync(from)) {
    mkdirSync(join(dir, 'checkpoints'), { mode: 0o700 });
    for (const name of readdirSync(from).filter((n) => n.endsWith('.txt'))) {
      copyFileSync(join(from, name), join(dir, 'checkpoints', name));
      checkpoints += 1;
    }
  }
  const marker: BackupMarker = { format: 'baram-audit-backup-v1', madeAt: new Date().toISOString(), from: ledger.dir };
  writeFileSync(join(dir, BACKUP_MARKER), `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o600 });
  await ledger.append({ type: 'audit.backup', actionClass: '전송', target: [dir], outcome: 'ok', data: { segments, checkpoints } });
  return { dir, segments, checkpoints };
}
