import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { enforceRetention, readLedgerRows, sealKeyPath, type Checkpoint } from '../../electron/main/audit';
import { AuditLedger } from '../../electron/main/audit/writer';
import { parseCheckpoint } from '../../electron/main/audit/checkpoint/checkpoint';
import { takeCheckpoint } from '../../electron/main/audit/checkpoint/checkpoint-store';
import { computeEntryHash, LEDGER_DOMAIN } from '../../electron/main/audit/ledger/chain';
import { rowMac, SealKeyFile, type SealKey } from '../../electron/main/audit/ledger/seal-key';
import { listSegments, openSegmentWriter, segmentFile } from '../../electron/main/audit/ledger/segments';
import { IDENTITY, openNewLedger } from '../unit/audit/ledger-helpers';

/**
 * Ledgers an attacker (or a crash, or an old version) left behind, for comparing verifier paths:
 * every tamper of tests/security/audit-tamper.test.ts, the same again at segment boundaries, and
 * stored values no Baram ever writes. Each case builds its ledger in a fresh folder and says what
 * to verify it with; the verdict is whatever the rules make of it. The tamper tools below are the
 * ones tests/security/audit-tamper.test.ts uses too.
 */
export interface TamperedLedger {
  readonly dir: string;
  readonly key: SealKey;
  readonly checkpoints: readonly Checkpoint[];
}

export interface TamperCase {
  readonly name: string;
  readonly make: (dir: string) => Promise<TamperedLedger>;
}

/** A row of a segment's entries table, with its columns as SQLite names them. */
export interface Row {
  seq: number;
  body: string;
  prev_hash: string;
  entry_hash: string;
  epoch: number;
  mac: string;
}

/** Five days in one month: rows of days 1–4 sealed, day 5's the unsealed tail (13 rows with seals). */
export const FIVE_DAYS = ['2026-11-02T09:00:00Z', '2026-11-02T10:00:00Z', '2026-11-03T09:00:00Z', '2026-11-04T09:00:00Z', '2026-11-05T09:00:00Z', '2026-11-06T09:00:00Z', '2026-11-06T10:00:00Z'];

/**
 * Three months, three segments (seqs): September 1–3, October 4–8 (seq 4 is the seal of
 * September 11th, written at the first write of October 10th), November 9–13.
 */
export const THREE_MONTHS = [
  '2026-09-10T09:00:00Z',
  '2026-09-11T09:00:00Z',
  '2026-10-10T09:00:00Z',
  '2026-10-11T09:00:00Z',
  '2026-10-11T10:00:00Z',
  '2026-11-10T09:00:00Z',
  '2026-11-11T09:00:00Z',
  '2026-11-11T10:00:00Z',
];

/**
 * Busy days: 14 rows on October 31st and 14 on November 1st, so two segments and runs of rows in
 * one epoch — the rows the fast path checks (it never checks a row that changes epoch). November's
 * segment starts with the seal of October 31st (seq 15).
 */
export const BUSY_DAYS = [
  ...Array.from({ length: 14 }, (_, i) => `2026-10-31T${String(9 + i).padStart(2, '0')}:00:00Z`),
  ...Array.from({ length: 14 }, (_, i) => `2026-11-01T${String(9 + i).padStart(2, '0')}:00:00Z`),
];

export async function writeLedger(dir: string, times: readonly string[]): Promise<{ key: SealKey; checkpoint: () => Promise<{ readonly parsed: Checkpoint; readonly text: string }> }> {
  const { ledger, clock, k0: key } = openNewLedger(dir, times[0] ?? '2026-11-02T09:00:00Z');
  for (const [index, time] of times.entries()) {
    clock.set(time);
    await ledger.append({ type: 'request', data: { prompt: `질문 ${index + 1}` } });
  }
  await ledger.close();
  const checkpoint = async (): Promise<{ readonly parsed: Checkpoint; readonly text: string }> => {
    const reopened = AuditLedger.open(dir, IDENTITY, { clock: clock.now });
    try {
      const { text } = await takeCheckpoint(reopened, IDENTITY.hostId, clock.now());
      return { parsed: parseCheckpoint(text), text };
    } finally {
      await reopened.close();
    }
  };
  return { key, checkpoint };
}

/** As an attacker with write access would: separate connections that drop the triggers (and checks) first. */
export function tamper(dir: string, action: (db: Database.Database) => void): void {
  for (const segment of listSegments(dir)) {
    const db = new Database(segment.file);
    try {
      db.exec('DROP TRIGGER IF EXISTS entries_no_update; DROP TRIGGER IF EXISTS entries_no_delete;');
      db.pragma('ignore_check_constraints = 1');
      action(db);
    } finally {
      db.close();
    }
  }
}

export function rowsOf(db: Database.Database): Row[] {
  return db.prepare<[], Row>('SELECT seq, body, prev_hash, entry_hash, epoch, mac FROM entries ORDER BY seq').all();
}

export function hasSeq(db: Database.Database, seq: number): boolean {
  return db.prepare('SELECT 1 FROM entries WHERE seq = ?').get(seq) !== undefined;
}

/** The attacker's rewrite: row `fromSeq` edited, its hash and every hash after it recomputed, MACs optionally redone with `key`. */
export function rechain(dir: string, fromSeq: number, edit: (body: string) => string, key?: SealKey): void {
  let prev: string | undefined;
  tamper(dir, (db) => {
    for (const row of rowsOf(db)) {
      if (row.seq < fromSeq) {
        prev = row.entry_hash;
        continue;
      }
      const body = row.seq === fromSeq ? edit(row.body) : row.body;
      const hash = computeEntryHash(row.seq, prev ?? row.prev_hash, body);
      db.prepare('UPDATE entries SET body = ?, prev_hash = ?, entry_hash = ?, epoch = ?, mac = ? WHERE seq = ?').run(
        body,
        prev ?? row.prev_hash,
        hash,
        key ? key.epoch : row.epoch,
        key ? rowMac(key, hash) : row.mac,
        row.seq,
      );
      prev = hash;
    }
  });
}

/**
 * Row `seq` gets a body of raw bytes that are not valid UTF-8, with an entry_hash computed over
 * exactly those bytes, and the chain after it recomputed: a reader that hashed stored bytes as they
 * are would pass it, the verifier hashes the text better-sqlite3 decodes (U+FFFD for bad bytes).
 */
function rawBodyRechained(dir: string, seq: number, raw: Buffer): void {
  tamper(dir, (db) => {
    const row = rowsOf(db).find((r) => r.seq === seq);
    if (!row) return;
    const seqBytes = Buffer.alloc(8);
    seqBytes.writeBigUInt64BE(BigInt(seq));
    const hash = createHash('sha256').update(LEDGER_DOMAIN).update(Buffer.from([0])).update(seqBytes).update(Buffer.from(row.prev_hash, 'hex')).update(raw).digest('hex');
    db.prepare('UPDATE entries SET body = CAST(? AS TEXT), entry_hash = ? WHERE seq = ?').run(raw, hash, seq);
  });
  rechain(dir, seq + 1, (body) => body);
}

/** The seq of the `request` row whose prompt is `prompt` (writeLedger's prompts are 질문 1, 질문 2, …). */
export function seqOf(dir: string, prompt: string): number {
  const found = [...readLedgerRows(dir)].find((r) => r.body.includes(`"prompt":"${prompt}"`));
  if (!found) throw new Error(`test setup: no row with ${prompt}`);
  return found.seq;
}

/** Runs one statement in the segment that holds row `seq`, and in no other. */
function runInSegmentOf(dir: string, seq: number, sql: string, ...params: unknown[]): void {
  tamper(dir, (db) => {
    if (hasSeq(db, seq)) db.prepare(sql).run(...params);
  });
}

function updateRow(dir: string, seq: number, set: string, ...params: unknown[]): void {
  runInSegmentOf(dir, seq, `UPDATE entries SET ${set} WHERE seq = ?`, ...params, seq);
}

function deleteRows(dir: string, where: string, ...params: unknown[]): void {
  tamper(dir, (db) => db.prepare(`DELETE FROM entries WHERE ${where}`).run(...params));
}

function swapBodies(dir: string, a: number, b: number): void {
  const bodies = new Map([...readLedgerRows(dir)].map((r) => [r.seq, r.body]));
  updateRow(dir, a, 'body = ?', bodies.get(b));
  updateRow(dir, b, 'body = ?', bodies.get(a));
}

/** Edits row `seq` and recomputes its own entry_hash (but nothing after it). */
function editWithOwnHash(dir: string, seq: number): void {
  const row = [...readLedgerRows(dir)].find((r) => r.seq === seq);
  if (!row) throw new Error('test setup');
  const body = row.body.replace('질문', '질문X');
  updateRow(dir, seq, 'body = ?, entry_hash = ?', body, computeEntryHash(seq, row.prevHash, body));
}

/** The key the machine holds today: what an attacker with the disk has. */
export function currentKey(dir: string): SealKey {
  return SealKeyFile.read(sealKeyPath(dir)).key;
}

/**
 * Cuts the ledger back to before row `cut` and writes a forged row `cut` after it, chained and
 * sealed with `key`: journald CVE-2023-31438's truncate-and-resume.
 */
export function truncateAndResume(dir: string, cut: number, key: SealKey): void {
  tamper(dir, (db) => {
    db.prepare('DELETE FROM entries WHERE seq >= ?').run(cut);
    const last = rowsOf(db).at(-1);
    if (!last) throw new Error('test setup');
    const body = last.body.replace(/"seq":\d+/, `"seq":${cut}`).replace(/"prompt":"[^"]*"/, '"prompt":"위조"');
    const hash = computeEntryHash(cut, last.entry_hash, body);
    db.prepare('INSERT INTO entries (seq, body, prev_hash, entry_hash, epoch, mac) VALUES (?, ?, ?, ?, ?, ?)').run(cut, body, last.entry_hash, hash, key.epoch, rowMac(key, hash));
  });
}

/** Checkpoint `text` rewritten to claim the ledger ends at row `size` (the signature no longer fits). */
export function forgedCheckpoint(dir: string, text: string, size: number): Checkpoint {
  const lines = text.split('\n');
  const forgedHead = [...readLedgerRows(dir)].find((r) => r.seq === size);
  lines[1] = String(size);
  lines[2] = Buffer.from(forgedHead?.entryHash ?? '', 'hex').toString('base64');
  return parseCheckpoint(lines.join('\n'));
}

const plain = (dir: string, key: SealKey, checkpoints: readonly Checkpoint[] = []): TamperedLedger => ({ dir, key, checkpoints });

/** A ledger written at `times`, a checkpoint kept of it, then `tamperWith` applied. */
function checkpointedThenTampered(name: string, times: readonly string[], tamperWith: (dir: string) => void): TamperCase {
  return {
    name,
    make: async (dir) => {
      const { key, checkpoint } = await writeLedger(dir, times);
      const kept = await checkpoint();
      tamperWith(dir);
      return plain(dir, key, [kept.parsed]);
    },
  };
}

const oneMonth = (name: string, tamperWith: (dir: string) => void): TamperCase => checkpointedThenTampered(name, FIVE_DAYS, tamperWith);
const threeMonths = (name: string, tamperWith: (dir: string) => void): TamperCase => checkpointedThenTampered(name, THREE_MONTHS, tamperWith);
const busyDays = (name: string, tamperWith: (dir: string) => void): TamperCase => checkpointedThenTampered(`busy days: ${name}`, BUSY_DAYS, tamperWith);


/** Replaces the entries table of every segment with a copy that is not STRICT (and may hold anything). */
function recreateLoose(dir: string, edit: (db: Database.Database) => void): void {
  tamper(dir, (db) => {
    db.exec(`
      CREATE TABLE loose (seq INTEGER, body, prev_hash, entry_hash, epoch, mac);
      INSERT INTO loose SELECT seq, body, prev_hash, entry_hash, epoch, mac FROM entries;
      DROP TABLE entries;
      ALTER TABLE loose RENAME TO entries;
    `);
    edit(db);
  });
}

/**
 * Rows of January, February and March 2024 and of February 2026, then retention of 730 days run on
 * 2026-03-01, which deletes the oldest months.
 */
async function writtenThenRetained(dir: string): Promise<SealKey> {
  const { ledger, clock, k0 } = openNewLedger(dir, '2024-01-10T09:00:00Z');
  for (const time of ['2024-01-10T09:00:00Z', '2024-02-10T09:00:00Z', '2024-03-10T09:00:00Z', '2026-02-10T09:00:00Z']) {
    clock.set(time);
    await ledger.append({ type: 'request', data: { prompt: time } });
  }
  clock.set('2026-03-01T12:00:00Z');
  await enforceRetention(ledger, 730, clock.now());
  await ledger.close();
  return k0;
}

export const TAMPER_CASES: readonly TamperCase[] = [
  oneMonth('intact, one segment', () => undefined),
  threeMonths('intact, three segments', () => undefined),

  // tests/security/audit-tamper.test.ts, one by one.
  oneMonth('an edited body', (dir) => updateRow(dir, seqOf(dir, '질문 3'), "body = replace(body, '질문 3', '질문 X')")),
  oneMonth('a deleted middle row', (dir) => deleteRows(dir, 'seq = 3')),
  oneMonth('two rows with swapped bodies', (dir) => swapBodies(dir, 2, 4)),
  oneMonth('an edit whose own entry_hash was recomputed', (dir) => editWithOwnHash(dir, seqOf(dir, '질문 3'))),
  oneMonth('the whole unkeyed chain recomputed after an edit', (dir) => rechain(dir, seqOf(dir, '질문 3'), (b) => b.replace('질문 3', '질문 X'))),
  oneMonth("re-sealed with the machine's current key", (dir) => rechain(dir, seqOf(dir, '질문 3'), (b) => b.replace('질문 3', '질문 X'), currentKey(dir))),
  oneMonth('truncated into an earlier day, resumed with the current key', (dir) => truncateAndResume(dir, seqOf(dir, '질문 4'), currentKey(dir))),
  oneMonth('a truncated tail (a checkpoint was taken before)', (dir) => deleteRows(dir, 'seq >= ?', seqOf(dir, '질문 6'))),
  oneMonth('a recomputed chain (a checkpoint was taken before)', (dir) => rechain(dir, seqOf(dir, '질문 2'), (b) => b.replace('질문 2', '질문 X'))),
  {
    name: 'a forged checkpoint',
    make: async (dir) => {
      const { key, checkpoint } = await writeLedger(dir, FIVE_DAYS);
      return plain(dir, key, [forgedCheckpoint(dir, (await checkpoint()).text, 3)]);
    },
  },
  threeMonths('a deleted middle segment file', (dir) => rmSync(segmentFile(dir, '2026-10'))),
  threeMonths('a deleted oldest segment file', (dir) => rmSync(segmentFile(dir, '2026-09'))),
  threeMonths('a deleted newest segment file (the checkpoint reaches into it)', (dir) => rmSync(segmentFile(dir, '2026-11'))),

  // The same at segment boundaries (October starts at seq 4, November at seq 9).
  threeMonths("an edited body: a segment's first row", (dir) => updateRow(dir, 4, "body = replace(body, 'audit.seal', 'audit.sea1')")),
  threeMonths("an edited body: a segment's last row", (dir) => updateRow(dir, 8, "body = replace(body, '질문 5', '질문 X')")),
  threeMonths('an edited body: the very first row', (dir) => updateRow(dir, 1, "body = replace(body, '질문 1', '질문 X')")),
  threeMonths('an edited body: the very last row', (dir) => updateRow(dir, 13, "body = replace(body, '질문 8', '질문 X')")),
  threeMonths("a deleted row: a segment's first", (dir) => deleteRows(dir, 'seq = 9')),
  threeMonths("a deleted row: a segment's last", (dir) => deleteRows(dir, 'seq = 8')),
  threeMonths('a deleted row: the very first', (dir) => deleteRows(dir, 'seq = 1')),
  threeMonths('swapped bodies across a segment boundary', (dir) => swapBodies(dir, 8, 9)),
  threeMonths("an edit with its own hash recomputed: a segment's last row", (dir) => editWithOwnHash(dir, 8)),
  threeMonths("an edit with its own hash recomputed: a segment's first row", (dir) => editWithOwnHash(dir, 10)),
  threeMonths('the unkeyed chain recomputed across segments', (dir) => rechain(dir, 3, (b) => b.replace('질문 2', '질문 X'))),
  threeMonths('re-sealed with the current key across segments', (dir) => rechain(dir, 5, (b) => b.replace('질문 3', '질문 X'), currentKey(dir))),
  threeMonths('a seal row at a segment boundary renamed and re-chained', (dir) => rechain(dir, 9, (b) => b.replace('audit.seal', 'audit.note'))),
  threeMonths('a seal row at a segment boundary re-chained with the current key', (dir) => rechain(dir, 9, (b) => b.replace('audit.seal', 'audit.note'), currentKey(dir))),
  threeMonths('a row relabelled into the next epoch', (dir) => updateRow(dir, 10, 'epoch = epoch + 1')),
  threeMonths('a row relabelled into an epoch before the key', (dir) => updateRow(dir, 2, 'epoch = epoch - 400')),
  threeMonths('a segment whose rows were renumbered to overlap the one before', (dir) => runInSegmentOf(dir, 9, 'UPDATE entries SET seq = seq - 3')),
  threeMonths('a segment renumbered to leave a gap', (dir) => runInSegmentOf(dir, 9, 'UPDATE entries SET seq = seq + 1000 WHERE seq >= 11')),

  // Stored values Baram never writes.
  threeMonths('an upper-case MAC (the same bytes)', (dir) => updateRow(dir, 6, 'mac = upper(mac)')),
  threeMonths('an upper-case entry_hash', (dir) => updateRow(dir, 6, 'entry_hash = upper(entry_hash)')),
  threeMonths('an upper-case prev_hash', (dir) => updateRow(dir, 8, 'prev_hash = upper(prev_hash)')),
  threeMonths('an empty MAC', (dir) => updateRow(dir, 6, "mac = ''")),
  threeMonths('a MAC of 10 characters', (dir) => updateRow(dir, 6, "mac = substr(mac, 1, 10)")),
  threeMonths('a prev_hash of 65 characters', (dir) => updateRow(dir, 7, "prev_hash = prev_hash || 'a'")),
  threeMonths('a non-hex entry_hash', (dir) => updateRow(dir, 6, "entry_hash = 'zz' || substr(entry_hash, 3)")),
  threeMonths('a body that is not valid UTF-8', (dir) => updateRow(dir, 6, "body = CAST(x'7b2270726f6d7074223a22ffc328227d' AS TEXT)")),
  threeMonths('a body with a NUL byte', (dir) => updateRow(dir, 6, "body = CAST(CAST(body AS BLOB) || x'00' AS TEXT)")),
  threeMonths('a body with a retention record in its text', (dir) => updateRow(dir, 6, "body = replace(body, '\"type\":\"request\"', '\"type\":\"retention.deleted\"')")),
  threeMonths('a seq beyond 15 digits appended', (dir) =>
    runInSegmentOf(dir, 13, 'INSERT INTO entries (seq, body, prev_hash, entry_hash, epoch, mac) SELECT 1000000000000000, body, prev_hash, entry_hash, epoch, mac FROM entries WHERE seq = 13'),
  ),
  threeMonths('a table re-created without STRICT, one body stored as a number', (dir) =>
    recreateLoose(dir, (db) => {
      if (hasSeq(db, 6)) db.prepare('UPDATE entries SET body = 5 WHERE seq = 6').run();
    }),
  ),
  threeMonths('a table re-created without STRICT, intact', (dir) => recreateLoose(dir, () => undefined)),
  threeMonths('a table re-created without STRICT, one seq stored as text', (dir) =>
    recreateLoose(dir, (db) => {
      if (hasSeq(db, 12)) db.prepare("UPDATE entries SET seq = '12' WHERE seq = 12").run();
    }),
  ),

  // Runs of rows in one epoch, where the fast path does the checking.
  busyDays('intact', () => undefined),
  busyDays('an edited body mid-run', (dir) => updateRow(dir, 6, "body = replace(body, '질문 6', '질문 X')")),
  busyDays('a prev_hash replaced alone (body and entry_hash kept)', (dir) => updateRow(dir, 7, "prev_hash = (SELECT prev_hash FROM entries WHERE seq = 3)")),
  busyDays('an entry_hash replaced alone', (dir) => updateRow(dir, 20, "entry_hash = (SELECT entry_hash FROM entries WHERE seq = 19)")),
  busyDays('a MAC replaced by the one before', (dir) => updateRow(dir, 22, "mac = (SELECT mac FROM entries WHERE seq = 21)")),
  busyDays('an upper-case MAC mid-run', (dir) => updateRow(dir, 9, 'mac = upper(mac)')),
  busyDays('an upper-case prev_hash mid-run', (dir) => updateRow(dir, 9, 'prev_hash = upper(prev_hash)')),
  busyDays('an upper-case entry_hash mid-run', (dir) => updateRow(dir, 9, 'entry_hash = upper(entry_hash)')),
  busyDays('a row relabelled into the previous epoch', (dir) => updateRow(dir, 18, 'epoch = epoch - 1')),
  busyDays('a deleted row mid-run', (dir) => deleteRows(dir, 'seq = 11')),
  busyDays('swapped bodies mid-run', (dir) => swapBodies(dir, 4, 5)),
  busyDays('an edit with its own hash recomputed', (dir) => editWithOwnHash(dir, 23)),
  busyDays('the unkeyed chain recomputed mid-run', (dir) => rechain(dir, 8, (b) => b.replace('질문 8', '질문 X'))),
  busyDays('re-sealed with the current key mid-run', (dir) => rechain(dir, 24, (b) => b.replace('질문 23', '질문 X'), currentKey(dir))),
  busyDays('a retention record planted mid-run', (dir) => rechain(dir, 5, (b) => b.replace('"type":"request"', '"type":"retention.deleted"'))),
  busyDays('a body that is not valid UTF-8 mid-run', (dir) => updateRow(dir, 10, "body = CAST(x'7b2270726f6d7074223a22ffc328227d' AS TEXT)")),
  busyDays('a body of invalid UTF-8 hashed as raw bytes, chain recomputed', (dir) => rawBodyRechained(dir, 10, Buffer.from('7b2270726f6d7074223a22ffc328227d', 'hex'))),
  busyDays('a seq gap of a trillion mid-run', (dir) => runInSegmentOf(dir, 20, 'UPDATE entries SET seq = seq + 1000000000000 WHERE seq >= 20')),
  busyDays('the last segment truncated mid-run (a checkpoint was taken before)', (dir) => deleteRows(dir, 'seq >= 25')),

  // Files a crash, an old version or retention left.
  {
    name: 'an empty segment between two others',
    make: async (dir) => {
      const { key } = await writeLedger(dir, THREE_MONTHS.filter((t) => !t.startsWith('2026-10')));
      openSegmentWriter(segmentFile(dir, '2026-10')).close();
      return plain(dir, key);
    },
  },
  threeMonths('a segment emptied of its rows', (dir) => runInSegmentOf(dir, 4, 'DELETE FROM entries')),
  threeMonths('an empty file before the oldest segment (crash before the schema)', (dir) => writeFileSync(segmentFile(dir, '2026-08'), '')),
  threeMonths('a new empty segment after the newest', (dir) => openSegmentWriter(segmentFile(dir, '2026-12')).close()),
  {
    name: 'retention deleted the oldest months on record',
    make: async (dir) => plain(dir, await writtenThenRetained(dir)),
  },
  {
    name: 'retention deleted the oldest months, then a segment after them was deleted too',
    make: async (dir) => {
      const key = await writtenThenRetained(dir);
      rmSync(segmentFile(dir, '2024-03'));
      return plain(dir, key);
    },
  },
];
