import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { AuditEventInput, AuditSink } from '../../electron/common/audit-events';
import { openSession } from '../../electron/main/runtime/session';
import { percentile, printRows } from './lib/stats';

/**
 * shell.execute overhead (issue #4): `true` run 200 times through the whole gate (permission,
 * schema, precheck with program resolution and SHA-256, plan, the process runner with its own
 * session, process group and bounded capture) against a bare `execa('/usr/bin/true')`, interleaved
 * in the same run. The audit sink is in memory: the ledger's cost is the audit benchmarks' subject.
 * Target: under 1.3x.
 */
const CALLS = 200;
const WARMUP = 20;
const TARGET_RATIO = 1.3;

class MemorySink implements AuditSink {
  private seq = 0;
  async append(_e: AuditEventInput): Promise<number> {
    return ++this.seq;
  }
  async close(): Promise<void> {}
}

async function main(): Promise<void> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-bench-shell-')));
  const workspace = join(base, 'ws');
  await mkdir(workspace);
  const policyFile = join(base, 'policy.json');
  await writeFile(
    policyFile,
    JSON.stringify({ version: 1, workspaceRoots: [workspace], rules: { allow: ['shell.execute(true)'] }, shell: { commands: { true: {} }, trustedDirs: ['/usr/bin', '/bin'] } }),
  );
  const session = await openSession({ policyFile, dataDir: join(base, 'data'), lang: 'en', broker: null, audit: new MemorySink() });
  try {
    const bare = async () => {
      const t = performance.now();
      await execa('/usr/bin/true', [], { cwd: workspace });
      return performance.now() - t;
    };
    const gated = async () => {
      const t = performance.now();
      const r = await session.gate.call({ tool: 'shell.execute', args: { command: 'true' } });
      if (r.outcome !== 'ok') throw new Error(`shell.execute: ${r.outcome} ${r.text}`);
      return performance.now() - t;
    };
    for (let i = 0; i < WARMUP; i++) {
      await bare();
      await gated();
    }
    const times = { bare: [] as number[], gated: [] as number[] };
    for (let i = 0; i < CALLS; i++) {
      times.bare.push(await bare());
      times.gated.push(await gated());
    }
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    printRows(
      `true x ${CALLS}, interleaved (ms)`,
      ['p50', 'p90', 'p99'].map((label) => {
        const p = Number(label.slice(1));
        return { metric: label, bare: percentile(times.bare, p), 'shell.execute': percentile(times.gated, p), ratio: percentile(times.gated, p) / percentile(times.bare, p) };
      }),
    );
    const ratio = sum(times.gated) / sum(times.bare);
    console.log(`total: bare ${sum(times.bare).toFixed(0)} ms, shell.execute ${sum(times.gated).toFixed(0)} ms`);
    console.log(`shell.execute / bare execa = ${ratio.toFixed(2)}x (target < ${TARGET_RATIO}x): ${ratio < TARGET_RATIO ? 'MET' : 'NOT MET'}`);
  } finally {
    await session.close();
    await rm(base, { recursive: true, force: true });
  }
}

await main();
