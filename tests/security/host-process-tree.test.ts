import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killQuietly, readPids, survivorsAfter, tempDir, testHost, waitForPids } from '../helpers/process-host';

/**
 * SPEC S-SHELL: on timeout and on cancel the whole process tree dies, grandchildren born after the
 * start included. Real processes: a shell script that starts a grandchild at once and another one
 * 300 ms later (from a subshell), every pid written to a file, then waits. After the runner
 * returns, every recorded pid must be gone (dead or a reaped-later zombie) within a short bound.
 */

/** Every process of the tree appends its pid: the script, sleeper 1, the subshell, sleeper 2. */
const TREE_SCRIPT = `
pidfile="$1"
echo $$ >> "$pidfile"
sleep 30 &
echo $! >> "$pidfile"
( sleep 0.3; sleep 30 & echo $! >> "$pidfile"; echo late-grandchild; wait ) &
echo $! >> "$pidfile"
echo ready
wait
`;
const TREE_PIDS = 4;
/** After the runner returns, the tree is already dead; this only absorbs /proc bookkeeping. */
const GONE_BOUND_MS = 500;

let work: { readonly dir: string; cleanup(): Promise<void> };
let script: string;
let counter = 0;
const everyPid: number[] = [];

beforeAll(async () => {
  work = await tempDir('baram-tree-');
  script = path.join(work.dir, 'tree.sh');
  await writeFile(script, TREE_SCRIPT);
});

afterAll(async () => {
  killQuietly(everyPid);
  await work.cleanup();
});

function pidFile(): string {
  return path.join(work.dir, `pids-${++counter}`);
}

async function expectAllGone(file: string, count: number): Promise<void> {
  const pids = await readPids(file);
  everyPid.push(...pids);
  expect(pids.length).toBe(count);
  expect(await survivorsAfter(pids, GONE_BOUND_MS)).toEqual([]);
}

describe('whole-tree kill', () => {
  it('on timeout: outcome timed-out with the partial output, and no descendant survives', async () => {
    const host = testHost(['sh']);
    const file = pidFile();
    const started = Date.now();
    const outcome = await host.run({ command: 'sh', args: [script, file], cwd: work.dir, timeoutMs: 1000 });
    const elapsed = Date.now() - started;
    expect(outcome.kind).toBe('timed-out');
    if (outcome.kind !== 'timed-out') return;
    expect(outcome.timeoutMs).toBe(1000);
    expect(outcome.output.text).toContain('ready');
    expect(outcome.output.text).toContain('late-grandchild');
    expect(outcome.outputForceClosed).toBe(false);
    // Not before the timer; its latency is a benchmark's business (tests/bench), not a test's.
    expect(elapsed).toBeGreaterThanOrEqual(990);
    await expectAllGone(file, TREE_PIDS);
  });

  it('on cancel (AbortSignal): outcome cancelled, and no descendant survives', async () => {
    const host = testHost(['sh']);
    const file = pidFile();
    const controller = new AbortController();
    const running = host.run({ command: 'sh', args: [script, file], cwd: work.dir, timeoutMs: 30_000, signal: controller.signal });
    await waitForPids(file, TREE_PIDS); // the late grandchild exists
    const abortedAt = Date.now();
    controller.abort();
    const outcome = await running;
    const latency = Date.now() - abortedAt;
    expect(outcome.kind).toBe('cancelled');
    expect(latency).toBeLessThan(500);
    await expectAllGone(file, TREE_PIDS);
  });

  it('a background task stopped with stop(): state stopped, and no descendant survives', async () => {
    const host = testHost(['sh']);
    const file = pidFile();
    const handle = await host.start({ command: 'sh', args: [script, file], cwd: work.dir, timeoutMs: 30_000 });
    expect(handle.kind).toBe('started');
    if (handle.kind !== 'started') return;
    await waitForPids(file, TREE_PIDS);
    const last = await host.stop(handle.taskId);
    expect(last?.state).toBe('stopped');
    await expectAllGone(file, TREE_PIDS);
    await host.closeAll();
  });

  it('closeAll() kills every background task and every run in progress of the session', async () => {
    const host = testHost(['sh']);
    const files = [pidFile(), pidFile(), pidFile()];
    const a = await host.start({ command: 'sh', args: [script, files[0]!], cwd: work.dir, timeoutMs: 30_000 });
    const b = await host.start({ command: 'sh', args: [script, files[1]!], cwd: work.dir, timeoutMs: 30_000 });
    const foreground = host.run({ command: 'sh', args: [script, files[2]!], cwd: work.dir, timeoutMs: 30_000 });
    expect([a.kind, b.kind]).toEqual(['started', 'started']);
    for (const file of files) await waitForPids(file, TREE_PIDS);
    await host.closeAll();
    expect((await foreground).kind).toBe('cancelled');
    for (const file of files) await expectAllGone(file, TREE_PIDS);
    if (a.kind === 'started') expect(host.read(a.taskId)?.state).toBe('stopped');
    await expect(host.run({ command: 'sh', args: ['-c', 'true'], cwd: work.dir })).rejects.toThrow(/closed/);
  });

  it('a background task dies at its timeout like a run', async () => {
    const host = testHost(['sh']);
    const file = pidFile();
    const handle = await host.start({ command: 'sh', args: [script, file], cwd: work.dir, timeoutMs: 1000 });
    if (handle.kind !== 'started') throw new Error(handle.kind);
    await waitForPids(file, TREE_PIDS);
    const deadline = Date.now() + 3000;
    while (host.read(handle.taskId)?.state === 'running' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(host.read(handle.taskId)?.state).toBe('timed-out');
    await expectAllGone(file, TREE_PIDS);
  });

  it('a normal exit takes what the program left running with it (a command has no background)', async () => {
    const host = testHost(['sh']);
    const file = pidFile();
    const outcome = await host.run({
      command: 'sh',
      args: ['-c', `sleep 30 & echo $! >> "${file}"; echo done`],
      cwd: work.dir,
      timeoutMs: 30_000,
    });
    expect(outcome.kind).toBe('exited');
    if (outcome.kind !== 'exited') return;
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output.text).toBe('done\n');
    expect(outcome.strayProcessesKilled).toBe(true);
    // The sleeper held the output open: without the kill the call would wait for its 30 s.
    expect(outcome.durationMs).toBeLessThan(20_000);
    await expectAllGone(file, 1);
  });

  it('a grandchild that left the process group (bash job control) is found in the session and killed', async () => {
    const host = testHost(['bash']);
    const file = pidFile();
    const outcome = await host.run({
      command: 'bash',
      // `set -m` puts every background job in its own process group: kill(-pgid) misses it.
      args: ['-c', `set -m; sleep 30 & echo $! >> "${file}"; sleep 30 > /dev/null 2>&1 & echo $! >> "${file}"; echo ready; wait`],
      cwd: work.dir,
      timeoutMs: 1000,
    });
    expect(outcome.kind).toBe('timed-out');
    await expectAllGone(file, 2);
  });

  it('the same, after a normal exit, for a group-leaver that does not even hold the output', async () => {
    const host = testHost(['bash']);
    const file = pidFile();
    const outcome = await host.run({
      command: 'bash',
      args: ['-c', `set -m; sleep 30 > /dev/null 2>&1 & echo $! >> "${file}"; echo done`],
      cwd: work.dir,
    });
    expect(outcome.kind).toBe('exited');
    await expectAllGone(file, 1);
  });

  it('a process that made itself a new session (setsid) is out of reach: the runner stops waiting and says so', async () => {
    // The documented limit of group and session kills (kill-tree.ts). The runner must not hang on
    // it: it closes its end after the bound and reports outputForceClosed.
    const host = testHost(['sh']);
    const file = pidFile();
    const started = Date.now();
    const outcome = await host.run({
      command: 'sh',
      args: ['-c', `setsid sh -c 'echo $$ >> "${file}"; exec sleep 30' & sleep 0.2; echo done`],
      cwd: work.dir,
    });
    const escaped = await waitForPids(file, 1);
    everyPid.push(...escaped);
    expect(outcome.kind).toBe('exited');
    if (outcome.kind !== 'exited') return;
    expect(outcome.output.text).toBe('done\n');
    expect(outcome.outputForceClosed).toBe(true);
    // Far below the 30 s the escaped sleeper holds the output: the runner closed its end itself.
    expect(Date.now() - started).toBeLessThan(20_000);
    killQuietly(escaped);
  });
});

describe('the two kill mechanisms, each on its own', () => {
  it('the group kill alone (no session sweep, as on macOS) takes the whole tree, late grandchild included', async () => {
    const { spawn } = await import('node:child_process');
    const { killTree } = await import('../../electron/main/host/process/kill-tree');
    const file = pidFile();
    const child = spawn('/bin/sh', [script, file], { detached: true, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const pids = await waitForPids(file, TREE_PIDS);
    everyPid.push(...pids);
    expect(await killTree(child.pid!, { platform: 'linux', sweepSession: false, leaderAlive: false })).toBe(true);
    await exited;
    expect(await survivorsAfter(pids, GONE_BOUND_MS)).toEqual([]);
  });

  it('the session sweep alone finds group-leavers, reading only the pids given out since the start as reading all of /proc does', async () => {
    if (process.platform !== 'linux') return;
    const { spawn } = await import('node:child_process');
    const { killTree, sessionMembers } = await import('../../electron/main/host/process/kill-tree');
    const { readPidClock } = await import('../../electron/main/host/process/pid-window');
    const file = pidFile();
    const clock = readPidClock();
    // `set -m`: each sleeper in its own process group, so only the session still ties it to bash.
    const child = spawn('/bin/bash', ['-c', `set -m; sleep 30 & echo $! >> "${file}"; sleep 30 & echo $! >> "${file}"; wait`], { detached: true, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const leavers = await waitForPids(file, 2);
    everyPid.push(...leavers);
    const narrow = sessionMembers(child.pid!, clock);
    expect(narrow.sort()).toEqual(sessionMembers(child.pid!, null).sort());
    expect(narrow).toEqual(expect.arrayContaining([child.pid!, ...leavers]));
    expect(await killTree(child.pid!, { platform: 'linux', sweepSession: true, leaderAlive: true, sessionClock: clock })).toBe(true);
    await exited;
    expect(await survivorsAfter(leavers, GONE_BOUND_MS)).toEqual([]);
  });
});
