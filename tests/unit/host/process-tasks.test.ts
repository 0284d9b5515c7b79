import { describe, expect, it } from 'vitest';
import type { BackgroundTaskHandle, ProgramRefusal, StartFailure, TaskRead } from '../../../electron/common/process-capability';
import type { ProcessHost } from '../../../electron/main/host/process';
import { BackgroundTasks } from '../../../electron/main/host/process/background-tasks';
import { freshOutputChannels } from '../../../electron/main/host/process/output-channel';
import { testHost } from '../../helpers/process-host';

/** Background tasks of a session (SPEC S-SHELL `background: true`; shell.output reads or stops them). */

function started(result: BackgroundTaskHandle | ProgramRefusal | StartFailure): BackgroundTaskHandle {
  if (result.kind !== 'started') throw new Error(`not started: ${result.kind} ${result.message.en}`);
  return result;
}

async function readUntil(host: ProcessHost, taskId: string, done: (reads: readonly TaskRead[]) => boolean, boundMs = 5000): Promise<TaskRead[]> {
  const reads: TaskRead[] = [];
  const deadline = Date.now() + boundMs;
  while (Date.now() < deadline) {
    const read = host.read(taskId);
    if (read === undefined) throw new Error('unknown task');
    reads.push(read);
    if (done(reads)) return reads;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`condition not reached; last read ${JSON.stringify(reads.at(-1))}`);
}

describe('background tasks', () => {
  it('each read returns the output written since the previous one; the final read carries the exit code', async () => {
    const host = testHost(['sh']);
    const handle = started(await host.start({ command: 'sh', args: ['-c', 'for i in 1 2 3 4; do echo tick $i; sleep 0.1; done; exit 4'], cwd: '/' }));
    expect(handle.taskId).toMatch(/^task-[0-9a-f]{12}$/);
    const reads = await readUntil(host, handle.taskId, (rs) => rs.at(-1)!.state !== 'running');
    expect(reads.map((r) => r.text).join('')).toBe('tick 1\ntick 2\ntick 3\ntick 4\n');
    expect(reads.filter((r) => r.text !== '').length).toBeGreaterThan(1); // it really arrived piecewise
    const last = reads.at(-1)!;
    expect(last).toMatchObject({ state: 'exited', exitCode: 4, signal: null, totalBytes: 28 });
    expect(host.read(handle.taskId)).toMatchObject({ text: '', state: 'exited' }); // nothing new
    await host.closeAll();
  });

  it('an unknown task id reads as undefined, and stopping it too', async () => {
    const host = testHost(['sh']);
    expect(host.read('task-000000000000')).toBeUndefined();
    expect(await host.stop('task-000000000000')).toBeUndefined();
  });

  it('unread output is bounded: beyond the cap it is dropped and counted until the next read', async () => {
    const host = testHost(['head'], { maxCaptureBytes: 1000 });
    const handle = started(await host.start({ command: 'head', args: ['-c', '5000', '/dev/zero'], cwd: '/' }));
    const reads = await readUntil(host, handle.taskId, (rs) => rs.at(-1)!.state === 'exited');
    const kept = reads.reduce((n, r) => n + r.text.length, 0);
    const dropped = reads.reduce((n, r) => n + r.droppedBytes, 0);
    expect(kept + dropped).toBe(5000);
    expect(dropped).toBeGreaterThan(0);
    expect(reads.at(-1)!.totalBytes).toBe(5000);
  });

  it('at most maxBackgroundTasks run at once; a slot frees when one is stopped', async () => {
    const host = testHost(['sleep'], {}, { maxBackgroundTasks: 2 });
    const a = started(await host.start({ command: 'sleep', args: ['30'], cwd: '/' }));
    started(await host.start({ command: 'sleep', args: ['30'], cwd: '/' }));
    const third = await host.start({ command: 'sleep', args: ['30'], cwd: '/' });
    expect(third.kind).toBe('refused');
    if (third.kind === 'refused') {
      expect(third.code).toBe('TOO_MANY_TASKS');
      expect(third.message.ko).toContain('shell.output');
    }
    expect((await host.stop(a.taskId))?.state).toBe('stopped');
    started(await host.start({ command: 'sleep', args: ['30'], cwd: '/' }));
    await host.closeAll();
  });

  it('closeAll() during a start waits for it and kills it: nothing outlives the session', async () => {
    // Directly on the registry, so the close lands while the program is being launched.
    const tasks = new BackgroundTasks();
    const program = { kind: 'resolved', command: 'sleep', path: '/usr/bin/sleep', realPath: '/usr/bin/sleep', sha256: '0'.repeat(64), size: 0 } as const;
    const starting = tasks.start({ program, file: '/usr/bin/sleep', argv0: 'sleep', args: ['30'], cwd: '/', env: {}, timeoutMs: 30_000, maxCaptureBytes: 1000, channels: freshOutputChannels('socket') });
    const closing = tasks.closeAll();
    const handle = started(await starting);
    await closing;
    expect(tasks.read(handle.taskId)?.state).toBe('stopped');
    expect(tasks.running).toBe(0);

    // Through the host, a close during program resolution refuses the start outright.
    const host = testHost(['sleep']);
    const viaHost = host.start({ command: 'sleep', args: ['30'], cwd: '/' }).catch((e: unknown) => e);
    await host.closeAll();
    const result = await viaHost;
    if (result instanceof Error) expect(result.message).toMatch(/closed/);
    else expect(host.read(started(result as BackgroundTaskHandle).taskId)?.state).toBe('stopped');
    await expect(host.start({ command: 'sleep', args: ['1'], cwd: '/' })).rejects.toThrow(/closed/);
  });

  it('a refused program is a value from start() too', async () => {
    const host = testHost(['sleep']);
    const refused = await host.start({ command: './sleep', args: [], cwd: '/' });
    expect(refused.kind === 'refused' && refused.code).toBe('PATH_SEPARATOR');
  });
});
