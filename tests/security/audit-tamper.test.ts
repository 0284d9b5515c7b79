import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteLedger, verifyLedger } from '../../electron/main/audit';
import { computeEntryHash } from '../../electron/main/audit/ledger/chain';
import { IDENTITY, tempLedgerFile } from '../unit/audit/ledger-helpers';

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

async function ledgerWithRows(count: number): Promise<{ file: string; dir: string }> {
  const temp = tempLedgerFile();
  cleanups.push(temp.cleanup);
  const ledger = SqliteLedger.open(temp.file, IDENTITY);
  for (let i = 1; i <= count; i += 1) await ledger.append({ type: 'request', data: { prompt: `질문 ${i}` } });
  await ledger.close();
  expect(verifyLedger(temp.file)).toEqual({ ok: true, rows: count });
  return temp;
}

/** As an attacker with write access would: a separate connection that drops the triggers first. */
function tamper(file: string, action: (db: Database.Database) => void): void {
  const db = new Database(file);
  try {
    db.exec('DROP TRIGGER entries_no_update; DROP TRIGGER entries_no_delete;');
    action(db);
  } finally {
    db.close();
  }
}

function row(db: Database.Database, seq: number): { body: string; prev_hash: string; entry_hash: string } {
  const found = db
    .prepare<[number], { body: string; prev_hash: string; entry_hash: string }>(
      'SELECT body, prev_hash, entry_hash FROM entries WHERE seq = ?',
    )
    .get(seq);
  if (!found) throw new Error(`test setup: no row ${seq}`);
  return found;
}

describe('audit ledger tamper evidence', () => {
  it('an edited body is reported at its seq as edited', async () => {
    const { file } = await ledgerWithRows(5);
    tamper(file, (db) => {
      const edited = row(db, 3).body.replace('질문 3', '질문 X');
      db.prepare('UPDATE entries SET body = ? WHERE seq = 3').run(edited);
    });
    expect(verifyLedger(file)).toEqual({ ok: false, firstBadSeq: 3, reason: 'edited' });
  });

  it('a deleted middle row is reported as missing at the deleted seq', async () => {
    const { file } = await ledgerWithRows(5);
    tamper(file, (db) => db.prepare('DELETE FROM entries WHERE seq = 3').run());
    expect(verifyLedger(file)).toEqual({ ok: false, firstBadSeq: 3, reason: 'missing' });
  });

  it('two rows with swapped bodies are reported at the first of them as reordered', async () => {
    const { file } = await ledgerWithRows(5);
    tamper(file, (db) => {
      const second = row(db, 2).body;
      const fourth = row(db, 4).body;
      db.prepare('UPDATE entries SET body = ? WHERE seq = 2').run(fourth);
      db.prepare('UPDATE entries SET body = ? WHERE seq = 4').run(second);
    });
    expect(verifyLedger(file)).toEqual({ ok: false, firstBadSeq: 2, reason: 'reordered' });
  });

  it('an edit whose entry_hash was recomputed breaks the link to the next row', async () => {
    const { file } = await ledgerWithRows(5);
    tamper(file, (db) => {
      const original = row(db, 3);
      const edited = original.body.replace('질문 3', '질문 X');
      db.prepare('UPDATE entries SET body = ?, entry_hash = ? WHERE seq = 3').run(
        edited,
        computeEntryHash(3, original.prev_hash, edited),
      );
    });
    expect(verifyLedger(file)).toEqual({ ok: false, firstBadSeq: 4, reason: 'bad-link' });
  });

  it('verification leaves the database file byte for byte unchanged', async () => {
    const { file } = await ledgerWithRows(2);
    const before = readFileSync(file);
    expect(verifyLedger(file)).toEqual({ ok: true, rows: 2 });
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  // Root ignores file modes, so as root the child runs as nobody; that needs a checkout nobody can
  // read (a clone under /root is not), otherwise there is no way to make the file read-only here.
  it.skipIf(!canRunChildWithReadOnlyFile())('a read-only database file makes append reject, and nothing is half-written', async () => {
    const { file, dir } = await ledgerWithRows(2);
    chmodSync(file, 0o444);
    // The directory stays writable so SQLite can open the file and create its -wal/-shm: the
    // failure must come from the write itself, at append time.
    chmodSync(dir, 0o777);
    const child = spawnSync(process.execPath, ['--import', 'tsx', APPEND_ONCE, file], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 20_000,
      ...unprivilegedIfRoot(),
    });
    expect(child.stderr).toBe('');
    const result = JSON.parse(child.stdout.trim()) as { stage: string; error?: string };
    expect(result.stage).toBe('rejected');
    expect(result.error).toMatch(/readonly database/);
    chmodSync(file, 0o644);
    expect(verifyLedger(file)).toEqual({ ok: true, rows: 2 });
    expect(existsSync(file)).toBe(true);
  });

  it('a full disk makes append reject, and the rows already written still verify', async () => {
    const temp = tempLedgerFile();
    cleanups.push(temp.cleanup);
    // Runs as any user, root included: SQLite's page cap fails writes with SQLITE_FULL, the same
    // error a full disk gives.
    const ledger = SqliteLedger.open(temp.file, IDENTITY, { maxPages: 16 });
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
    expect(verifyLedger(temp.file)).toEqual({ ok: true, rows: written });
  });
});
