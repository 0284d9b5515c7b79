import { createHook } from 'node:async_hooks';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyLedger } from '../../electron/main/audit';
import { listSegments, openSegmentReader } from '../../electron/main/audit/ledger/segments';
import { sealedLedger } from './lib/sealed-ledger';
import { median, printRows } from './lib/stats';
import type { StoredRow } from '../../electron/main/audit/ledger/read-rows';

/**
 * Audit verify (issue 13): "1M rows verified in under 30 s on one thread". verifyLedger is one
 * verifier on the calling thread (node:crypto SHA-256 and HMAC, better-sqlite3 iterate()); the
 * bench checks that no worker thread was started.
 *
 * The ledger: 1,000,000 rows over three months (3 segment files, 92 day-epochs, an `audit.seal` row
 * at each day change), realistic gate rows of 270–590 bytes with Korean paths (lib/sealed-ledger.ts),
 * cached in the temp folder between runs. Measured, interleaved, REPEATS times each:
 * - scan:         a bare `SELECT seq, body, prev_hash, entry_hash, epoch, mac` over the segments
 *                 (what reading alone costs, the floor for any verifier);
 * - verify:       verifyLedger without the key (hash chain, links, seq order);
 * - verify --key: verifyLedger with the verification key (also every row's MAC and every seal):
 *                 the stricter case, and the one the target is checked against.
 */
const ROWS = 1_000_000;
const REPEATS = 3;
const TARGET_SECONDS = 30;
const CACHE = join(tmpdir(), 'baram-audit-verify-bench-v1');

/** Reads every row the way readLedgerRows does, touching each column, and checks nothing. */
function scan(dir: string): number {
  let rows = 0;
  let chars = 0;
  for (const segment of listSegments(dir)) {
    const db = openSegmentReader(segment.file);
    try {
      for (const row of db.prepare<[], StoredRow>('SELECT seq, body, prev_hash, entry_hash, epoch, mac FROM entries ORDER BY seq').iterate()) {
        rows += 1;
        chars += row.body.length + row.prev_hash.length + row.entry_hash.length + row.mac.length + (row.epoch > 0 ? 1 : 0);
      }
    } finally {
      db.close();
    }
  }
  if (chars === 0) throw new Error('scan read nothing');
  return rows;
}

/** CPU seconds (user + system) of each verify --key run: unlike wall time, not stretched by other processes on the cores. */
const keyedCpu: number[] = [];

function timed<T>(fn: () => T): { value: T; seconds: number; cpuSeconds: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = fn();
  const used = process.cpuUsage(cpu);
  return { value, seconds: (performance.now() - start) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

/** Worker threads started by anything in this process (verifyLedger must start none). */
let threadsStarted = 0;

function main(): void {
  const trace = createHook({ init: (_id, type) => void (type === 'WORKER' && (threadsStarted += 1)) });
  trace.enable();
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on this machine`);
  const ledger = sealedLedger(CACHE, ROWS);
  console.log(
    ledger.generatedMs !== undefined
      ? `generated ${ROWS.toLocaleString('en')} rows in ${(ledger.generatedMs / 1000).toFixed(0)} s into ${ledger.dir}`
      : `reusing ${ledger.dir} (${ROWS.toLocaleString('en')} rows; delete ${CACHE} to regenerate)`,
  );

  // The data must be a valid sealed ledger, or the numbers below measure the wrong thing. This run
  // also brings the files into the page cache, as for every timed run after it.
  const check = verifyLedger(ledger.dir, { key: ledger.key });
  if (!check.ok || check.rows !== ROWS || !check.macChecked) {
    console.log(`bench data is NOT a valid ledger: ${JSON.stringify(check)} — delete ${CACHE} and rerun`);
    process.exitCode = 1;
    return;
  }
  console.log(`bench data verifies with the key: ${check.rows.toLocaleString('en')} rows, ${listSegments(ledger.dir).length} segments, seq ${check.firstSeq}–${check.lastSeq}`);

  const seconds = { scan: [] as number[], verify: [] as number[], verifyKey: [] as number[] };
  for (let i = 0; i < REPEATS; i++) {
    const scanned = timed(() => scan(ledger.dir));
    if (scanned.value !== ROWS) throw new Error(`scan read ${scanned.value} rows`);
    seconds.scan.push(scanned.seconds);
    const plain = timed(() => verifyLedger(ledger.dir));
    if (!plain.value.ok || plain.value.rows !== ROWS) throw new Error(`verify failed: ${JSON.stringify(plain.value)}`);
    seconds.verify.push(plain.seconds);
    const keyed = timed(() => verifyLedger(ledger.dir, { key: ledger.key }));
    if (!keyed.value.ok || keyed.value.rows !== ROWS || !keyed.value.macChecked) throw new Error(`verify --key failed: ${JSON.stringify(keyed.value)}`);
    seconds.verifyKey.push(keyed.seconds);
    keyedCpu.push(keyed.cpuSeconds);
  }
  const scanS = median(seconds.scan);
  printRows(
    `${ROWS.toLocaleString('en')} rows, median of ${REPEATS} interleaved runs`,
    [
      ['scan (SELECT only)', scanS],
      ['verify', median(seconds.verify)],
      ['verify --key', median(seconds.verifyKey)],
    ].map(([method, s]) => ({
      method: method as string,
      seconds: s as number,
      'rows/s': Math.round(ROWS / (s as number)),
      'µs/row': ((s as number) * 1e6) / ROWS,
      'x scan': (s as number) / scanS,
    })),
  );
  const keyed = median(seconds.verifyKey);
  console.log(`verify --key CPU time (user+sys) ${median(keyedCpu).toFixed(1)} s; load average now ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const oneThread = threadsStarted === 0;
  console.log(
    `verify --key of ${ROWS.toLocaleString('en')} rows: ${keyed.toFixed(1)} s on ${oneThread ? 'one thread' : `${threadsStarted + 1} threads`} (target < ${TARGET_SECONDS} s on one thread): ${keyed < TARGET_SECONDS && oneThread ? 'MET' : 'NOT MET'}`,
  );
  ledger.key.key.fill(0);
}

main();
