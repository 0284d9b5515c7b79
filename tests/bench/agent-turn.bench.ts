import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerTo } from '../../electron/common/approval';
import { Agent } from '../../electron/main/agent/agent';
import { ConversationStore, conversationsFile } from '../../electron/main/agent/conversations';
import { openSession } from '../../electron/main/runtime/session';
import { scriptedBackend } from '../helpers/scripted-backend';
import { MemorySink } from './lib/memory-sink';
import { percentile, printRows } from './lib/stats';

/**
 * Baram's own time per turn (issue 16, Must show): everything a turn costs except waiting for the
 * model (and for the human who approves): routing, building the request, reading the model's
 * events, the gate (all five layers), the tool's own work, rendering, and saving the conversation.
 * The model is an in-process backend that answers at once with a scripted five-step task
 * (list → search → read → write → answer), so its share is ~0 and is subtracted anyway.
 * The audit sink is in memory, as in the gate benchmark: the ledger's durable append (an fsync per
 * event with synchronous=FULL) is measured by the audit benchmarks, and a second run here with the
 * real ledger prints what it adds on this disk. Baseline in the same run: the same four calls made
 * directly on the gate, without the agent (what the loop adds is the difference).
 * Target: p95 under 5 ms (memory sink), wall and CPU. Also printed: the loop's own share (the turn
 * less the wall time of its gate calls), which no tool's I/O can colour.
 */
const TASKS = 150;
const WARMUP_TASKS = 15;
/** The real-ledger run is for information; fewer tasks keep the bench short on a slow disk. */
const LEDGER_TASKS = 30;
const TARGET_P95_MS = 5;

/** The step is how many tool results the request already carries; the fifth turn answers. */
const model = () =>
  scriptedBackend((request) => {
    const step = request.messages.filter((m) => m.role === 'tool').length;
    const call = stepCall(step, AGENT_SUMMARY);
    return call ? { calls: [{ id: `c${step}`, ...call }] } : { text: '요약.txt에 총매출을 적었습니다.' };
  });

function stepCall(step: number, summary: string): { name: string; arguments: Record<string, unknown> } | null {
  switch (step) {
    case 0:
      return { name: 'filesystem_list', arguments: { path: '.' } };
    case 1:
      return { name: 'filesystem_search', arguments: { namePattern: '*매출*' } };
    case 2:
      return { name: 'filesystem_read', arguments: { path: '보고서/2024-매출.txt' } };
    case 3:
      return { name: 'filesystem_write', arguments: { path: summary, content: '총매출 1,234만원' } };
    default:
      return null;
  }
}

/**
 * Each task writes a new file (a create, so no overwrite diff), which the bench deletes after the
 * task, outside the measured turns: the workspace keeps its size, so the last task lists and
 * searches what the first did, and the percentiles describe one workload, not a growing one.
 */
const AGENT_SUMMARY = '요약.txt';
const DIRECT_SUMMARY = '요약-직접.txt';

async function measure(ledger: 'memory' | 'real'): Promise<{ wall: number; cpu: number; loop: number; load: number }> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-bench-agent-')));
  const ws = join(base, 'ws');
  const dataDir = join(base, 'data');
  await mkdir(join(ws, '보고서'), { recursive: true });
  await writeFile(join(ws, '보고서', '2024-매출.txt'), '2024년 총매출: 1,234만원\n');
  for (let i = 0; i < 20; i++) await writeFile(join(ws, `메모-${i}.txt`), `메모 ${i}\n`);
  const session = await openSession({
    workspace: ws,
    dataDir,
    lang: 'ko',
    broker: { request: async (r) => answerTo(r, 'allow-once', 'bench') },
    ...(ledger === 'memory' ? { audit: new MemorySink() } : {}),
  });
  const store = ConversationStore.open(conversationsFile(dataDir));
  const own: number[] = [];
  const cpu: number[] = [];
  const loop: number[] = [];
  let stepCpu = process.cpuUsage();
  const agent = new Agent({
    gate: session.gate,
    backend: model(),
    store,
    lang: 'ko',
    workspace: ws,
    modelLabel: 'bench',
    onEvent: (e) => {
      // CPU of this process (worker threads included) over the step: on a loaded machine wall time
      // also counts the time other processes held the CPU.
      if (e.type === 'thinking') stepCpu = process.cpuUsage();
      if (e.type === 'step') {
        own.push(e.ownMs);
        loop.push(e.ownMs - e.callsMs);
        const used = process.cpuUsage(stepCpu);
        cpu.push((used.user + used.system) / 1000);
      }
    },
  });
  const direct: number[] = [];
  const directTask = async () => {
    for (let step = 0; step < 4; step++) {
      const c = stepCall(step, DIRECT_SUMMARY)!;
      const t = performance.now();
      const r = await session.gate.call({ tool: c.name.replace('_', '.'), args: c.arguments });
      direct.push(performance.now() - t - (r.approval?.waitedMs ?? 0));
      if (r.outcome !== 'ok') throw new Error(r.text);
    }
  };
  for (let i = 0; i < WARMUP_TASKS; i++) {
    await agent.run('보고서 폴더에서 매출 파일을 찾아 총매출을 요약 파일에 적어줘');
    await rm(join(ws, AGENT_SUMMARY));
    await directTask();
    await rm(join(ws, DIRECT_SUMMARY));
  }
  own.length = 0;
  cpu.length = 0;
  loop.length = 0;
  direct.length = 0;
  const tasks = ledger === 'memory' ? TASKS : LEDGER_TASKS;
  for (let i = 0; i < tasks; i++) {
    const r = await agent.run('보고서 폴더에서 매출 파일을 찾아 총매출을 요약 파일에 적어줘');
    if (r.status !== 'answered' || r.steps !== 5) throw new Error(`task ended ${r.status} after ${r.steps} steps: ${r.answer}`);
    await rm(join(ws, AGENT_SUMMARY));
    await directTask();
    await rm(join(ws, DIRECT_SUMMARY));
  }
  printRows(
    `${ledger === 'memory' ? 'audit in memory' : 'real ledger (synchronous=FULL)'}: ${tasks} five-step tasks (${own.length} turns; ${direct.length} direct gate calls interleaved), ms`,
    [50, 95, 99].map((p) => ({ metric: `p${p}`, 'agent turn (own time)': percentile(own, p), 'agent turn CPU': percentile(cpu, p), 'the loop (own − calls)': percentile(loop, p), 'gate call alone': percentile(direct, p) })),
  );
  console.log(`agent turn own time p50 / gate call alone p50: ${(percentile(own, 50) / percentile(direct, 50)).toFixed(2)}x`);
  store.close();
  await session.close();
  await rm(base, { recursive: true, force: true });
  return { wall: percentile(own, 95), cpu: percentile(cpu, 95), loop: percentile(loop, 95), load: loadavg()[0]! };
}

const p95 = await measure('memory');
console.log(`(load average ${p95.load.toFixed(1)} on ${availableParallelism()} CPUs)`);
console.log(`Baram's own time per turn p95 ${p95.wall.toFixed(2)} ms wall, audit in memory (target < ${TARGET_P95_MS} ms): ${p95.wall < TARGET_P95_MS ? 'MET' : 'NOT MET'}`);
console.log(`Baram's own time per turn p95 ${p95.cpu.toFixed(2)} ms CPU, this process (target < ${TARGET_P95_MS} ms): ${p95.cpu < TARGET_P95_MS ? 'MET' : 'NOT MET'}`);
console.log(`the loop's own share (the turn less its gate calls: routing, request, parsing, history, conversation store) p95 ${p95.loop.toFixed(2)} ms (< ${TARGET_P95_MS} ms: ${p95.loop < TARGET_P95_MS ? 'MET' : 'NOT MET'})`);
const withLedger = await measure('real');
console.log(`with the real ledger on this disk: p95 ${withLedger.wall.toFixed(2)} ms wall, ${withLedger.cpu.toFixed(2)} ms CPU (the fsyncs the audit benchmarks measure; no target here)`);
