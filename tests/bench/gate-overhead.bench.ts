import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { parse } from 'jsonc-parser';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinTools } from '../../electron/main/gate';
import { gateMessages } from '../../electron/main/gate/messages';
import { approvePlan, runTool } from '../../electron/main/gate/run-tool';
import { createFileAccess } from '../../electron/main/host/files';
import { openSession } from '../../electron/main/runtime/session';
import { MemorySink } from './lib/memory-sink';
import { percentile, printRows } from './lib/stats';

/**
 * Gate overhead per call (issue #2): permission + schema + precheck + plan + render + the gate's own
 * bookkeeping, excluding the tool's own work and any approval wait. Measured per call as
 *   (wall time of gate.call) − (execute's duration, taken from that call's execution.finished event),
 * so machine noise in the tool's I/O does not masquerade as gate cost. A bare call of the same tool
 * through the gate's runner is printed next to it, interleaved in the same run.
 * The policy is the example admin policy; the audit sink is in memory (the ledger's cost is
 * measured by the audit benchmarks, issue #3).
 * Target: p99 overhead under 1 ms (issue 13; the plan-scoped capabilities and the re-check of every
 * target before execute are part of it).
 */
const CALLS = 10_000;
const WARMUP = 2_000;
const TARGET_P99_MS = 1;

async function main(): Promise<void> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-bench-gate-')));
  const workspace = join(base, 'ws');
  await mkdir(workspace);
  await writeFile(join(workspace, 'a.txt'), 'hello\n'.repeat(20));
  // The example admin policy (deny/ask/allow rules, a glob deny on every filesystem tool), rooted
  // at the bench workspace: rule matching is part of what is measured.
  const example = parse(await readFile(new URL('../../resources/default-policy.jsonc', import.meta.url), 'utf8')) as Record<string, unknown>;
  const policyFile = join(base, 'policy.json');
  await writeFile(policyFile, JSON.stringify({ ...example, workspaceRoots: [workspace] }));
  const sink = new MemorySink();
  const session = await openSession({ policyFile, workspace, dataDir: join(base, 'data'), lang: 'en', broker: null, audit: sink });
  const tool = builtinTools.find((t) => t.name === 'filesystem.info')!;
  const args = { path: 'a.txt' };
  // The bare call gets the host's file access directly (the session hands out none: the gate is the only door).
  const files = await createFileAccess({ roots: [workspace], trashDir: join(base, 'bare-trash'), protectedPaths: [] });
  const unused = new Proxy({}, { get: () => () => { throw new Error('not used by filesystem.info'); } });
  const ctx = {
    lang: 'en' as const,
    files,
    system: unused as never,
    http: unused as never,
    ssh: unused as never,
    processes: unused as never,
    browser: unused as never,
    documents: unused as never,
    policy: { maxOutputChars: 30_000, defaultTimeoutMs: 120_000, maxTimeoutMs: 600_000, denyArgsOf: () => [] },
    signal: new AbortController().signal,
    outputBudget: 30_000,
  };
  const plan = approvePlan({ targets: [] }, 'bench');

  const bare = async () => {
    const t = performance.now();
    const { result } = await runTool(tool, args, ctx, plan, gateMessages.toolCrashed);
    if (result.outcome !== 'ok') throw new Error(result.text);
    return performance.now() - t;
  };
  const gated = async () => {
    const t = performance.now();
    const r = await session.gate.call({ tool: 'filesystem.info', args });
    const wall = performance.now() - t;
    if (r.outcome !== 'ok') throw new Error(r.text);
    return { wall, overhead: wall - sink.lastDurationMs };
  };

  for (let i = 0; i < WARMUP; i++) {
    await bare();
    await gated();
  }
  const bareTimes: number[] = [];
  const gateTimes: number[] = [];
  const overheads: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    bareTimes.push(await bare());
    const g = await gated();
    gateTimes.push(g.wall);
    overheads.push(g.overhead);
  }
  printRows(
    `filesystem.info × ${CALLS}, interleaved (ms)`,
    [50, 99].map((p) => ({ metric: `p${p}`, bare: percentile(bareTimes, p), gate: percentile(gateTimes, p), overhead: percentile(overheads, p) })),
  );
  const p99 = percentile(overheads, 99);
  console.log(`gate overhead p99 ${p99.toFixed(3)} ms (target < ${TARGET_P99_MS} ms): ${p99 < TARGET_P99_MS ? 'MET' : 'NOT MET'}`);
  console.log(`gate/bare wall-time ratio at p50: ${(percentile(gateTimes, 50) / percentile(bareTimes, 50)).toFixed(2)}x`);
  await session.close();
  await rm(base, { recursive: true, force: true });
}

await main();
