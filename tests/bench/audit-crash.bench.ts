import { loadavg } from 'node:os';
import { runCrashLoop } from '../helpers/crash-loop';
import { printRows } from './lib/stats';

/**
 * The audit crash test at bench length (issue #3: "at least 200 rounds in CI (1,000 in `npm run
 * bench`)"): the same loop as tests/security/audit-crash.test.ts (tests/helpers/crash-loop.ts),
 * 1,000 rounds of a child appending to one ledger folder and being killed with SIGKILL. Unlike the
 * timing benchmarks, a failed check here is a correctness failure, so it sets a failing exit code.
 */
const ROUNDS = 1_000;

async function main(): Promise<void> {
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on this machine`);
  const report = await runCrashLoop({ rounds: ROUNDS, log: (line) => console.log(line) });
  printRows(`crash loop, seed ${report.seed}`, [
    { measure: 'rounds', value: report.rounds },
    { measure: 'events reported committed (each checked)', value: report.committed },
    { measure: 'rows in the ledger at the end', value: report.rows },
    { measure: 'seal rows', value: report.sealRows },
    { measure: 'segment files', value: report.segments },
    { measure: 'kills before open', value: report.kills['before-open'] },
    { measure: 'kills during open', value: report.kills.open },
    { measure: 'kills after open, before the first append', value: report.kills['after-open'] },
    { measure: 'kills mid-append', value: report.kills.append },
    { measure: '  of which in the first append after open', value: report.killsInFirstAppend },
    { measure: '  of which in an append that wrote a seal row', value: report.killsInSealingAppend },
    { measure: '  of which the row was committed, never reported', value: report.landedUnreported },
    { measure: '  of which the row was not committed', value: report.kills.append - report.landedUnreported },
    { measure: 'kills between appends', value: report.kills['between-appends'] },
    { measure: 'rounds ending with the key file behind a committed seal', value: report.keyFileBehindSeal },
    { measure: 'full verifications with the key', value: report.verifications },
    { measure: 'segment index checks (integrity_check + viewer_rows)', value: report.integrityChecks },
    { measure: 'viewer_rows rows at the end', value: report.viewerRows },
    { measure: 'time (s)', value: report.elapsedMs / 1000 },
    { measure: '  of which waiting for children (s)', value: report.childMs / 1000 },
  ]);
  const met = report.problems.length === 0 && report.rounds === ROUNDS;
  console.log(`all committed present, verify ok, integrity ok over ${report.rounds} rounds: ${met ? 'MET' : 'NOT MET'}`);
  for (const problem of report.problems) console.log(`  ${problem}`);
  if (!met) process.exitCode = 1;
}

await main();
