import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { formatMs, median, percentile, printRows } from './lib/stats';

/**
 * `baram` start-up (issue #13, item 6): the whole process, start to exit, of `node bin/baram.mjs
 * --help` and `… tools` (the tool registry loaded and listed), as a user's shell runs it. Target:
 * median ≤ 0.4 s each. Baseline in the same run: `node -e 0`, the floor no Node program goes under
 * on this machine; the ratio says how much of the time is ours. Interleaved (baseline, help,
 * tools, baseline, …) so a machine that slows down mid-run slows all three alike. For scale, a few
 * runs from the TypeScript sources through tsx (BARAM_CLI=sources): what the command cost before
 * it shipped built (docs/2026-12-03-cli-ships-built.md).
 *
 * The built command is measured: when out/cli is missing or older than a source, this runs
 * scripts/build-cli.mjs first (what `npm ci` does), and says so.
 */
const RUNS = 15;
const WARMUP = 2;
const SOURCE_RUNS = 3;
const TARGET_MS = 400;

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'baram.mjs');

interface Run {
  readonly ms: number;
  readonly stderr: string;
}

function run(args: readonly string[], env: NodeJS.ProcessEnv = {}): Run {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: repo, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stderr: r.stderr };
}

const commands = {
  'node -e 0': ['-e', '0'],
  'baram --help': [bin, '--help'],
  'baram tools': [bin, 'tools'],
} as const;
type Name = keyof typeof commands;

function main(): void {
  // Which code the launcher runs; BARAM_DEBUG makes it say (out/cli, or the sources and why).
  let which = run([bin, '--version'], { BARAM_DEBUG: '1' }).stderr;
  if (!which.includes('running out/cli/baram.js')) {
    console.log(`out/cli is not current (${which.trim().split('\n')[0]}): building it, as npm ci does`);
    const built = spawnSync(process.execPath, [join(repo, 'scripts', 'build-cli.mjs')], { cwd: repo, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('scripts/build-cli.mjs failed');
    which = run([bin, '--version'], { BARAM_DEBUG: '1' }).stderr;
    if (!which.includes('running out/cli/baram.js')) throw new Error(`the launcher still does not run out/cli: ${which}`);
  }

  const names = Object.keys(commands) as Name[];
  for (let i = 0; i < WARMUP; i++) for (const name of names) run(commands[name]);
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Name, number[]>;
  for (let i = 0; i < RUNS; i++) for (const name of names) times[name].push(run(commands[name]).ms);

  const sources = { 'baram --help': [] as number[], 'baram tools': [] as number[] };
  for (let i = 0; i < SOURCE_RUNS; i++) {
    sources['baram --help'].push(run(commands['baram --help'], { BARAM_CLI: 'sources' }).ms);
    sources['baram tools'].push(run(commands['baram tools'], { BARAM_CLI: 'sources' }).ms);
  }

  const baseline = median(times['node -e 0']);
  // Whole-process times grow with the machine's load: with other work on every core, node -e 0
  // itself can take twice its idle time, and the target is absolute.
  console.log(`machine: ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (1, 5, 15 min)`);
  printRows(
    `whole-process wall time, ${RUNS} runs each, interleaved (ms)`,
    names.map((name) => ({
      command: name,
      median: median(times[name]),
      p90: percentile(times[name], 90),
      min: Math.min(...times[name]),
      max: Math.max(...times[name]),
      'ours (median − node)': median(times[name]) - baseline,
      'x node -e 0': median(times[name]) / baseline,
    })),
  );
  printRows(
    `for scale: from the TypeScript sources through tsx (BARAM_CLI=sources), ${SOURCE_RUNS} runs (ms)`,
    (Object.keys(sources) as (keyof typeof sources)[]).map((name) => ({ command: name, median: median(sources[name]), 'x built': median(sources[name]) / median(times[name]) })),
  );
  const [load1] = loadavg();
  if (load1 !== undefined && load1 > availableParallelism()) {
    console.log(`note: the machine is busy (load ${load1.toFixed(1)} on ${availableParallelism()} cores): node -e 0 alone took ${formatMs(baseline)}; the ratios and "ours" hold, the absolute figures do not`);
  }
  for (const name of ['baram --help', 'baram tools'] as const) {
    const m = median(times[name]);
    console.log(
      `${name}: median ${formatMs(m)}, p90 ${formatMs(percentile(times[name], 90))} = ${(m / baseline).toFixed(2)}x node -e 0 (${formatMs(baseline)}); target median ≤ ${TARGET_MS} ms: ${m <= TARGET_MS ? 'MET' : 'NOT MET'}`,
    );
  }
}

main();
