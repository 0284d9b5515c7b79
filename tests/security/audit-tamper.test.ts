import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointsDir, readLedgerRows, sealKeyPath, verifyLedger, type Checkpoint } from '../../electron/main/audit';
import { AuditLedger } from '../../electron/main/audit/writer';
import { computeEntryHash } from '../../electron/main/audit/ledger/chain';
import type { SealKey } from '../../electron/main/audit/ledger/seal-key';
import { listSegments } from '../../electron/main/audit/ledger/segments';
import { currentKey, FIVE_DAYS, forgedCheckpoint, hasSeq, rechain, rowsOf, seqOf, tamper, truncateAndResume, writeLedger } from '../helpers/tampered-ledgers';
import { IDENTITY, tempLedgerDir } from '../unit/audit/ledger-helpers';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const APPEND_ONCE = join(REPO, 'tests', 'fixtures', 'audit', 'append-once.ts');
const NOBODY = 65534;

function unprivilegedIfRoot(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
}

function canRunChildWithReadOnlyFile(): boolean {
  if (process.platform === 'win32') return false;
  const probe = spawnSync(process.execPath, ['-e', 'require("node:fs").accessSync(process.argv[1], require("node:fs").constants.R_OK)', APPEND_ONCE], {
    cwd: REPO,
    ...unprivilegedIfRoot(),
  });
  return probe.status === 0;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface Built {
  readonly dir: string;
  readonly k0: SealKey;
  /** Takes a checkpoint now, as security staff would keep it. */
  readonly checkpoint: () => Promise<{ readonly parsed: Checkpoint; readonly text: string }>;
}

/**
 * A ledger written over several days and months, like a real office's: one `request` row per
 * time, plus the seal rows the day changes add. Row seqs are looked up by prompt (`seqOf`).
 */
async function ledgerWritten(times: readonly string[]): Promise<Built> {
  const temp = tempLedgerDir();
  cleanups.push(temp.cleanup);
  const { key: k0, checkpoint } = await writeLedger(temp.dir, times);
  expect(verifyLedger(temp.dir, { key: k0 })).toMatchObject({ ok: true, macChecked: true });
  return { dir: temp.dir, k0, checkpoint };
}

function segmentOf(dir: string, seq: number): string {
  for (const segment of listSegments(dir)) {
    const db = new Database(segment.file, { readonly: true });
    const has = hasSeq(db, seq);
    db.close();
    if (has) return segment.file;
  }
  throw new Error(`test setup: no segment holds seq ${seq}`);
}

describe('audit ledger tamper evidence (attacker with a separate SQLite connection)', () => {
  it('an edited body is reported at its seq as edited', async () => {
    const { dir } = await ledgerWritten(FIVE_DAYS);
    const seq = seqOf(dir, '질문 3');
    tamper(dir, (db) => db.prepare("UPDATE entries SET body = replace(body, '질문 3', '질문 X') WHERE seq = ?").run(seq));
    expect(verifyLedger(dir)).toMatchObject({ ok: false, firstBadSeq: seq, reason: 'edited' });
  });

  it('a deleted middle row is reported as missing at the deleted seq', async () => {
    const { dir } = await ledgerWritten(FIVE_DAYS);
    tamper(dir, (db) => db.prepare('DELETE FROM entries WHERE seq = 3').run());
    expect(verifyLedger(dir)).toMatchObject({ ok: false, firstBadSeq: 3, reason: 'missing' });
  });

  it('two rows with swapped bodies are reported at the first of them as reordered', async () => {
    const { dir } = await ledgerWritten(FIVE_DAYS);
    tamper(dir, (db) => {
      const [, second, , fourth] = rowsOf(db);
      db.prepare('UPDATE entries SET body = ? WHERE seq = 2').run(fourth?.body);
      db.prepare('UPDATE entries SET body = ? WHERE seq = 4').run(second?.body);
    });
    expect(verifyLedger(dir)).toMatchObject({ ok: false, firstBadSeq: 2, reason: 'reordered' });
  });

  it('an edit whose own entry_hash was recomputed breaks the link to the next row', async () => {
    const { dir } = await ledgerWritten(FIVE_DAYS);
    const seq = seqOf(dir, '질문 3');
    tamper(dir, (db) => {
      const original = rowsOf(db).find((r) => r.seq === seq);
      if (!original) throw new Error('test setup');
      const edited = original.body.replace('질문 3', '질문 X');
      db.prepare('UPDATE entries SET body = ?, entry_hash = ? WHERE seq = ?').run(edited, computeEntryHash(seq, original.prev_hash, edited), seq);
    });
    expect(verifyLedger(dir)).toMatchObject({ ok: false, firstBadSeq: seq + 1, reason: 'bad-link' });
  });

  it('recomputing the whole unkeyed chain after an edit passes the chain check but not the seals', async () => {
    const { dir, k0 } = await ledgerWritten(FIVE_DAYS);
    const seq = seqOf(dir, '질문 3');
    rechain(dir, seq, (body) => body.replace('질문 3', '질문 X'));
    // Without the key the chain is self-consistent: that is exactly why the seals exist.
    expect(verifyLedger(dir)).toMatchObject({ ok: true, macChecked: false });
    expect(verifyLedger(dir, { key: k0 })).toMatchObject({ ok: false, firstBadSeq: seq, reason: 'bad-mac' });
  });

  it('an attacker holding the machine\'s current key cannot re-seal earlier days: caught at the first changed row', async () => {
    const { dir, k0 } = await ledgerWritten(FIVE_DAYS);
    const current = currentKey(dir); // everything on disk is theirs
    const seq = seqOf(dir, '질문 3'); // written on an earlier day
    rechain(dir, seq, (body) => body.replace('질문 3', '질문 X'), current);
    expect(verifyLedger(dir)).toMatchObject({ ok: true, macChecked: false });
    expect(verifyLedger(dir, { key: k0 })).toMatchObject({ ok: false, firstBadSeq: seq, reason: 'bad-mac' });
  });

  it('truncating into an earlier day and resuming with the current key is caught (journald CVE-2023-31438)', async () => {
    const { dir, k0 } = await ledgerWritten(FIVE_DAYS);
    const cut = seqOf(dir, '질문 4');
    truncateAndResume(dir, cut, currentKey(dir));
    expect(verifyLedger(dir)).toMatchObject({ ok: true });
    expect(verifyLedger(dir, { key: k0 })).toMatchObject({ ok: false, firstBadSeq: cut, reason: 'bad-mac' });
  });

  it('a truncated tail is detected against a checkpoint taken before, at the first missing seq', async () => {
    const { dir, k0, checkpoint } = await ledgerWritten(FIVE_DAYS);
    const kept = (await checkpoint()).parsed;
    const cut = seqOf(dir, '질문 6');
    tamper(dir, (db) => db.prepare('DELETE FROM entries WHERE seq >= ?').run(cut));
    // The checkpoint file left in the folder shows it without being given (issue 13 bug a)…
    expect(verifyLedger(dir)).toMatchObject({ ok: false, firstBadSeq: cut, reason: 'truncated' });
    // …but whoever cut the rows can delete that too, and then the chain alone cannot see a clean cut…
    rmSync(checkpointsDir(dir), { recursive: true });
    expect(verifyLedger(dir)).toMatchObject({ ok: true, lastSeq: cut - 1 });
    // …while the checkpoint security staff kept can, with or without the key.
    expect(verifyLedger(dir, { checkpoints: [kept] })).toMatchObject({ ok: false, firstBadSeq: cut, reason: 'truncated' });
    expect(verifyLedger(dir, { checkpoints: [kept], key: k0 })).toMatchObject({ ok: false, firstBadSeq: cut, reason: 'truncated' });
  });

  it('a re-computed chain is detected against a checkpoint even without the key', async () => {
    const { dir, checkpoint } = await ledgerWritten(FIVE_DAYS);
    const kept = (await checkpoint()).parsed;
    rechain(dir, seqOf(dir, '질문 2'), (body) => body.replace('질문 2', '질문 X'));
    expect(verifyLedger(dir, { checkpoints: [kept] })).toMatchObject({ ok: false, firstBadSeq: kept.size, reason: 'rewritten' });
  });

  it('a forged checkpoint (made to match a rewritten ledger) fails its signature under the key', async () => {
    const { dir, k0, checkpoint } = await ledgerWritten(FIVE_DAYS);
    const forged = forgedCheckpoint(dir, (await checkpoint()).text, 3);
    expect(verifyLedger(dir, { checkpoints: [forged] })).toMatchObject({ ok: true });
    expect(verifyLedger(dir, { checkpoints: [forged], key: k0 })).toMatchObject({ ok: false, firstBadSeq: 3, reason: 'bad-checkpoint' });
  });

  it('a deleted segment file is detected at its first seq (oldest and middle)', async () => {
    const months = ['2026-09-10T09:00:00Z', '2026-09-11T09:00:00Z', '2026-10-10T09:00:00Z', '2026-10-11T09:00:00Z', '2026-11-10T09:00:00Z', '2026-11-11T09:00:00Z'];
    const middle = await ledgerWritten(months);
    const octoberFirst = [...readLedgerRows(middle.dir)].find((r) => r.startsSegment)?.seq ?? 0;
    const october = segmentOf(middle.dir, octoberFirst);
    rmSync(october);
    expect(verifyLedger(middle.dir)).toMatchObject({ ok: false, firstBadSeq: octoberFirst, reason: 'segment-link' });

    const oldest = await ledgerWritten(months);
    rmSync(segmentOf(oldest.dir, 1));
    expect(verifyLedger(oldest.dir)).toMatchObject({ ok: false, firstBadSeq: 1, reason: 'segment-link' });
  });

  it('verification leaves every ledger file byte for byte unchanged', async () => {
    const { dir, k0 } = await ledgerWritten(FIVE_DAYS);
    const snapshot = () => readdirSync(dir).filter((n) => n.endsWith('.sqlite3') || n === 'seal.key').map((n) => readFileSync(join(dir, n)));
    const before = snapshot();
    expect(verifyLedger(dir, { key: k0 })).toMatchObject({ ok: true });
    expect(snapshot()).toEqual(before);
  });

  // Root ignores file modes, so as root the child runs as nobody; that needs a checkout nobody can
  // read (a clone under /root is not), otherwise there is no way to make the file read-only here.
  it.skipIf(!canRunChildWithReadOnlyFile())('a read-only segment file makes append reject, and nothing is half-written', async () => {
    const { dir } = await ledgerWritten(FIVE_DAYS.slice(0, 2));
    const segment = segmentOf(dir, 1);
    chmodSync(segment, 0o444);
    // The folders stay reachable and writable so SQLite can open the file and create its -wal/-shm,
    // and the key stays readable: the failure must come from the write itself, at append time.
    chmodSync(dirname(dir), 0o777);
    chmodSync(dir, 0o777);
    chmodSync(sealKeyPath(dir), 0o644);
    const child = spawnSync(process.execPath, ['--import', 'tsx', APPEND_ONCE, dir, '2026-11-02T11:00:00Z'], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 20_000,
      ...unprivilegedIfRoot(),
    });
    expect(child.stderr).toBe('');
    const result = JSON.parse(child.stdout.trim()) as { stage: string; error?: string };
    expect(result.stage).toBe('rejected');
    expect(result.error).toMatch(/readonly database/);
    chmodSync(segment, 0o644);
    expect(verifyLedger(dir)).toMatchObject({ ok: true, rows: 2 });
  });

  it('a full disk makes append reject, and the rows already written still verify', async () => {
    const temp = tempLedgerDir();
    cleanups.push(temp.cleanup);
    // Runs as any user, root included: SQLite's page cap fails writes with SQLITE_FULL, the same
    // error a full disk gives.
    const ledger = AuditLedger.open(temp.dir, IDENTITY, { maxPages: 16 });
    let written = 0;
    let failure: unknown;
    try {
      for (; written < 10_000; written++) await ledger.append({ type: 'request', data: { prompt: '가'.repeat(500) } });
    } catch (e) {
      failure = e;
    }
    expect(String(failure)).toMatch(/full/i);
    expect(written).toBeGreaterThan(0);
    await expect(ledger.append({ type: 'request', data: { prompt: '가'.repeat(500) } })).rejects.toThrow(/full/i);
    await ledger.close();
    expect(verifyLedger(temp.dir)).toMatchObject({ ok: true, rows: written });
  });
});
