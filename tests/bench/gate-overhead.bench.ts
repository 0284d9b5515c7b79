import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEventInput, AuditSink } from '../../electron/common/audit-events';
import { builtinTools } from '../../electron/main/gate';
import { approvePlan, runTool } from '../../electron/main/gate/run-tool';
import { gateMessages } from '../../electron/main/gate/messages';
import { openSession } from '../../electron/main/runtime/session';
import { percentile, printRows } from './lib/stats';

/**
 * Gate overhead per call (issue #2): permission + schema + precheck + plan + render, measured as the
 * difference between a call through the gate and a bare call of the same tool through the gate's
 * runner, in the same run, interleaved so both see the same machine state. The audit sink is an
 * in-memory one here: the ledger's own cost is measured by the audit benchmarks (issue #3).
 * Target: p99 overhead under 0.3 ms.
 */
const CALLS = 10_000;
const WARMUP = 2_000;
const TARGET_P99_MS = 0.3;

class MemorySink implements AuditSink {
  private seq = 0;
  readonly events: AuditEventInput[] = [];
  async append(e: AuditEventInput): Promise<number> {
    if (this.events.length > 1000) this.events.length = 0;
    this.events.push(e);
    return ++this.seq;
  }
  async close(): Promise<void> {}
}

async function main(): Promise<void> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-bench-gate-')));
  const workspace = join(base, 'ws');
  await (await import('node:fs/promises')).mkdir(workspace);
  await writeFile(join(workspace, 'a.txt'), 'hello\n'.repeat(20));
  const session = await openSession({ workspace, dataDir: join(base, 'data'), lang: 'en', broker: null, audit: new MemorySink() });
  const tool = builtinTools.find((t) => t.name === 'filesystem.info')!;
  const args = { path: 'a.txt' };
  const ctx = { lang: 'en' as const, files: session.files, policy: { maxOutputChars: 30_000 }, signal: new AbortController().signal };
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
    if (r.outcome !== 'ok') throw new Error(r.text);
    return performance.now() - t;
  };

  for (let i = 0; i < WARMUP; i++) {
    await bare();
    await gated();
  }
  const bareTimes: number[] = [];
  const gateTimes: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    bareTimes.push(await bare());
    gateTimes.push(await gated());
  }
  const rows = [50, 99].map((p) => {
    const b = percentile(bareTimes, p);
    const g = percentile(gateTimes, p);
    return { metric: `p${p}`, bareMs: b, gateMs: g, overheadMs: g - b };
  });
  printRows(`filesystem.info × ${CALLS} (interleaved)`, rows);
  const p99 = rows[1]!.overheadMs;
  console.log(`gate overhead p99 ${p99.toFixed(3)} ms (target < ${TARGET_P99_MS} ms): ${p99 < TARGET_P99_MS ? 'MET' : 'NOT MET'}`);
  console.log(`ratio gate/bare p50 ${(rows[0]!.gateMs / rows[0]!.bareMs).toFixed(2)}x`);
  await session.close();
  await rm(base, { recursive: true, force: true });
}

await main();
