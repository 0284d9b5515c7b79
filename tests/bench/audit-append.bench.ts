import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AuditLedger } from '../../electron/main/audit/writer';
import { buildEventBody, encodeEventBody } from '../../electron/main/audit/ledger/canonical-event';
import { ensureSchema } from '../../electron/main/audit/ledger/schema';
import { toolProposedEvent } from '../helpers/gate-audit-events';
import { percentile, printRows } from './lib/stats';

/**
 * Audit append latency (issue 13): "durable append p50 at most 2x a bare `synchronous=FULL` insert"
 * (issue #3 had asked for under 1.5x at p50 and p99; p99 is still printed).
 *
 * - bare:    one INSERT of a row with the same body text into a one-table database, WAL +
 *            synchronous=FULL, autocommit (one transaction and one WAL fsync per row).
 * - schema:  the same insert into a table with the ledger's own schema (schema.ts: CHECKs,
 *            triggers, the virtual columns), hash columns precomputed. Not the
 *            target; it splits the ledger's overhead into "what its schema costs" and "what the
 *            ledger's code costs" (secret redaction, tail read, canonical JSON, SHA-256, HMAC, the
 *            IMMEDIATE transaction).
 * - append:  `await ledger.append(tool.proposed)`, the row the gate writes most, ~300-byte Korean
 *            arguments.
 * All three write to files in the same folder and run interleaved one operation at a time, so disk
 * hiccups (fsync p99 here is 20× its p50) hit all three alike.
 */
// ~6 s for 3,000 of each here; 10,000 steadies p99, which fsync spikes dominate.
const APPENDS = 10_000;
/**
 * Measured in steady state: a fresh database's WAL file grows until its first checkpoint (SQLite
 * checkpoints at 1,000 pages), and every fsync that also grows the file costs about twice as much
 * here; afterwards the WAL is rewritten in place. The ledger's WAL reaches that point after about
 * 650 appends (1.5 pages each), the bare one later; with 500 warm-up rounds the slow growth phase
 * of all three fell into the measured rounds and decided their p99. A ledger in use is always past it.
 */
const WARMUP = 2_000;
/** Issue 13: durable append p50 at most 2x a bare synchronous=FULL insert (issue #3 had asked < 1.5x). */
const TARGET_RATIO = 2;

const IDENTITY = { sessionId: '7f3c9a12-5b1e-4c8d-9a0f-2e6d4b8c1a57', osUser: 'kim.minsu', appUser: '김민수', hostId: 'PC-101' };

function openFullSync(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  if (db.pragma('synchronous', { simple: true }) !== 2) throw new Error(`${file}: synchronous=FULL was not accepted`);
  return db;
}

async function main(): Promise<void> {
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on this machine`);
  const base = await mkdtemp(join(tmpdir(), 'baram-bench-append-'));
  try {
    const ledger = AuditLedger.open(join(base, 'audit'), IDENTITY);
    ledger.takeInitialKey();

    // The exact body text the ledger stores for the same event, so bare and schema write as many bytes.
    const sampleBody = encodeEventBody(buildEventBody(1, new Date(), IDENTITY, toolProposedEvent('r1-1', 1)));
    const bodyOf = (n: number): string => encodeEventBody(buildEventBody(n, new Date(), IDENTITY, toolProposedEvent(`r1-${n}`, n)));

    const bare = openFullSync(join(base, 'bare.sqlite3'));
    bare.exec('CREATE TABLE rows (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const bareInsert = bare.prepare<[number, string]>('INSERT INTO rows (seq, body) VALUES (?, ?)');

    const schema = openFullSync(join(base, 'schema.sqlite3'));
    ensureSchema(schema, join(base, 'schema.sqlite3'));
    const schemaInsert = schema.prepare<[number, string, string, string, number, string]>(
      'INSERT INTO entries (seq, body, prev_hash, entry_hash, epoch, mac) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const fakeHash = 'a'.repeat(64);

    const times = { bare: [] as number[], schema: [] as number[], append: [] as number[] };
    // CPU time (user + system, µs) per kind: unlike wall time it does not grow when other processes
    // share the two cores, so it shows what the ledger's own work costs even on a busy machine.
    const cpu = { bare: 0, schema: 0, append: 0 };
    const cpuSince = (start: NodeJS.CpuUsage): number => {
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    // The bodies for bare and schema are made before the loop: making one (an event, its canonical
    // text) leaves ~10 KB of garbage, and the young-generation collections it triggers would land
    // in whichever timed operation allocates next, mostly the append. The append's own event is
    // made just before it, as the gate makes it.
    const bodies = Array.from({ length: WARMUP + APPENDS + 1 }, (_, n) => (n === 0 ? '' : bodyOf(n)));
    const one = async (n: number, record: boolean): Promise<void> => {
      // Bodies are built outside the timed region for bare and schema: they stand for "SQLite alone".
      const body = bodies[n] as string;
      let c = process.cpuUsage();
      let t = performance.now();
      bareInsert.run(n, body);
      const bareMs = performance.now() - t;
      const bareCpu = cpuSince(c);
      c = process.cpuUsage();
      t = performance.now();
      schemaInsert.run(n, body, fakeHash, fakeHash, 20_000, fakeHash);
      const schemaMs = performance.now() - t;
      const schemaCpu = cpuSince(c);
      const event = toolProposedEvent(`r1-${n}`, n);
      c = process.cpuUsage();
      t = performance.now();
      await ledger.append(event);
      const appendMs = performance.now() - t;
      const appendCpu = cpuSince(c);
      if (record) {
        times.bare.push(bareMs);
        times.schema.push(schemaMs);
        times.append.push(appendMs);
        cpu.bare += bareCpu;
        cpu.schema += schemaCpu;
        cpu.append += appendCpu;
      }
    };

    const started = performance.now();
    for (let n = 1; n <= WARMUP; n++) await one(n, false);
    for (let n = WARMUP + 1; n <= WARMUP + APPENDS; n++) await one(n, true);
    const elapsed = performance.now() - started;

    console.log(`body ${Buffer.byteLength(sampleBody)} bytes; ${APPENDS} of each after ${WARMUP} warm-up, interleaved; ${(elapsed / 1000).toFixed(1)} s`);
    printRows(
      'latency (ms)',
      [50, 90, 99].map((p) => ({
        metric: `p${p}`,
        bare: percentile(times.bare, p),
        schema: percentile(times.schema, p),
        append: percentile(times.append, p),
        'append/bare': percentile(times.append, p) / percentile(times.bare, p),
        'schema/bare': percentile(times.schema, p) / percentile(times.bare, p),
      })),
    );
    console.log(
      `CPU per operation (user+sys): bare ${(cpu.bare / APPENDS).toFixed(0)} µs, schema ${(cpu.schema / APPENDS).toFixed(0)} µs, append ${(cpu.append / APPENDS).toFixed(0)} µs`,
    );
    const p99 = percentile(times.append, 99) / percentile(times.bare, 99);
    console.log(`append/bare p99 = ${p99.toFixed(2)}x (no target; fsync spikes decide it)`);
    const ratio = percentile(times.append, 50) / percentile(times.bare, 50);
    console.log(`audit append p50 / bare FULL insert p50 = ${ratio.toFixed(2)}x (target ≤ ${TARGET_RATIO.toFixed(1)}x): ${ratio <= TARGET_RATIO ? 'MET' : 'NOT MET'}`);
    bare.close();
    schema.close();
    await ledger.close();
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

await main();
