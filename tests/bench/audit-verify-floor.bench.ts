import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { deriveKey } from '../../electron/main/audit/ledger/seal-key';
import { EpochRowMac } from '../../electron/main/audit/ledger/epoch-row-mac';
import { listSegments } from '../../electron/main/audit/ledger/segments';
import { batchSql, StoredRowCursor } from '../../electron/main/audit/ledger/stored-row-cursor';
import { verifyLedger } from '../../electron/main/audit/ledger/verify';
import { sealedLedger } from './lib/sealed-ledger';
import { printRows } from './lib/stats';

/**
 * Where the verify throughput floor is (issue #3: ≥ 200k rows/s with the key). Single-threaded
 * CPU time per row of each stage of the fast path, added one at a time, on the middle segment of
 * audit-verify.bench.ts's cached 1M-row ledger; then the whole verifier on the whole ledger on one
 * thread and on all cores. CPU time (process.cpuUsage, all threads) rather than wall time: other
 * work on the machine moves wall time a lot and CPU time much less. Best of REPEATS.
 *
 * Stages (each includes the ones above it):
 * - rows one by one:  the old reader (better-sqlite3 .iterate(), six columns per row)
 * - body lengths:     SQLite walking every row's record, one number returned for the segment
 * - bodies only:      group_concat of the bodies per 512 seqs: the bytes the hash needs, no framing
 * - batches:          the verifier's batch query (stored-row-cursor.ts): framing and type checks
 * - + parse:          walking the records, UTF-8 check, retention-marker search
 * - + entry hash:     the preimage written in place and hashed (crypto.hash), compared
 * - + row MAC:        HMAC from midstates (epoch-row-mac.ts), compared
 */
const ROWS = 1_000_000;
const REPEATS = 3;
const BATCH = 512;
const CACHE = join(tmpdir(), 'baram-audit-verify-bench-v1');

function cpuMicros(fn: () => number): { perRow: number; wallPerRow: number } {
  let best = Number.POSITIVE_INFINITY;
  let bestWall = Number.POSITIVE_INFINITY;
  for (let i = 0; i < REPEATS; i++) {
    const wall = performance.now();
    const start = process.cpuUsage();
    const rows = fn();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / rows);
    bestWall = Math.min(bestWall, ((performance.now() - wall) * 1000) / rows);
  }
  return { perRow: best, wallPerRow: bestWall };
}

function main(): void {
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on this machine`);
  const ledger = sealedLedger(CACHE, ROWS);
  const segment = listSegments(ledger.dir)[1];
  if (!segment) throw new Error('the bench ledger has fewer than two segments');
  const db = new Database(segment.file, { readonly: true });
  const [low, high] = db.prepare<[], [number, number]>('SELECT (SELECT min(seq) FROM entries), (SELECT max(seq) FROM entries)').raw(true).get() ?? [0, 0];
  const epochs = db.prepare<[], number>('SELECT DISTINCT epoch FROM entries').pluck().all();
  const checks = new Map(epochs.map((epoch) => [epoch, new EpochRowMac(deriveKey(ledger.key, epoch))]));
  const batches = db.prepare<[number, number], [number, Buffer | null]>(batchSql(true)).raw(true);
  const bodies = db.prepare<[number, number], [number, Buffer | null]>("SELECT count(*), CAST(group_concat(body, '') AS BLOB) FROM entries WHERE seq >= ? AND seq < ?").raw(true);
  const cursor = new StoredRowCursor();
  let sink = 0;

  /** Walks the segment's batches; `perRow` does a stage's work on each record. */
  const walk = (perRow: ((c: StoredRowCursor) => void) | undefined): number => {
    let rows = 0;
    for (let at = low; at <= high; at += BATCH) {
      const [count, records] = batches.get(at, at + BATCH) ?? [0, null];
      rows += count;
      if (!perRow) continue;
      if (!cursor.load(count, records)) throw new Error('bench data is not valid UTF-8');
      while (cursor.next()) perRow(cursor);
    }
    return rows;
  };
  let prevHash = '';
  const hashStage = (c: StoredRowCursor): void => {
    // The segment's first row links to the segment before: start from its stored prev_hash.
    if (prevHash === '') prevHash = c.row().prevHash;
    if (!c.storedPrevHashIs(prevHash)) throw new Error('bench data does not link');
    const hash = c.entryHash(prevHash);
    if (!c.storedEntryHashIs(hash)) throw new Error('bench data does not hash');
    prevHash = hash;
  };
  const stages: [string, () => number][] = [
    [
      'rows one by one (old reader)',
      () => {
        let rows = 0;
        for (const row of db.prepare<[], unknown[]>('SELECT seq, body, prev_hash, entry_hash, epoch, mac FROM entries ORDER BY seq').raw(true).iterate()) {
          rows += 1;
          sink += (row[1] as string).length;
        }
        return rows;
      },
    ],
    [
      'body lengths summed in SQL',
      () => {
        if ((db.prepare<[], number>('SELECT sum(octet_length(body)) FROM entries').pluck().get() ?? 0) <= 0) throw new Error('no rows');
        return high - low + 1;
      },
    ],
    [
      'bodies only, 512 per query',
      () => {
        let rows = 0;
        for (let at = low; at <= high; at += BATCH) rows += bodies.get(at, at + BATCH)?.[0] ?? 0;
        return rows;
      },
    ],
    ['batches (the verifier’s query)', () => walk(undefined)],
    ['+ parse, UTF-8, retention marker', () => walk((c) => void (sink += c.mayRecordRetention() ? 1 : 0))],
    [
      '+ entry hash',
      () => {
        prevHash = '';
        return walk((c) => {
          sink += c.mayRecordRetention() ? 1 : 0;
          hashStage(c);
        });
      },
    ],
    [
      '+ row MAC',
      () => {
        prevHash = '';
        return walk((c) => {
          sink += c.mayRecordRetention() ? 1 : 0;
          hashStage(c);
          const check = checks.get(c.epoch);
          if (!check || !c.macMatches(check)) throw new Error('bench data does not MAC');
        });
      },
    ],
  ];
  const rows = stages.map(([stage, fn]) => {
    const { perRow, wallPerRow } = cpuMicros(fn);
    return { stage, 'CPU µs/row': perRow, 'wall µs/row': wallPerRow, 'rows/s per core': Math.round(1e6 / perRow) };
  });
  printRows(`stages on one thread, ${segment.month} (${(high - low + 1).toLocaleString('en')} rows), best of ${REPEATS}`, rows);

  const whole = (name: string, run: () => number): Record<string, string | number> => {
    const { perRow, wallPerRow } = cpuMicros(run);
    return { verifier: name, 'CPU µs/row (all threads)': perRow, 'wall µs/row': wallPerRow, 'rows/s': Math.round(1e6 / wallPerRow) };
  };
  const verified = (tuning: Parameters<typeof verifyLedger>[2], key: boolean) => (): number => {
    const verdict = verifyLedger(ledger.dir, key ? { key: ledger.key } : {}, tuning);
    if (!verdict.ok) throw new Error(`bench ledger does not verify: ${verdict.reason}`);
    return verdict.rows;
  };
  printRows(`the whole verifier, ${ROWS.toLocaleString('en')} rows, best of ${REPEATS}`, [
    whole('one thread, no key', verified({ path: 'rows' }, false)),
    whole('one thread, key', verified({ path: 'rows' }, true)),
    whole('all cores, no key', verified({}, false)),
    whole('all cores, key', verified({}, true)),
  ]);
  db.close();
  for (const check of checks.values()) check.wipe();
  ledger.key.key.fill(0);
  if (sink === -1) console.log(sink);
}

main();
