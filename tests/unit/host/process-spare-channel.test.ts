import { spawnSync } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import type net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshOutputChannels, type OutputChannel } from '../../../electron/main/host/process/output-channel';
import { SpareOutputChannels } from '../../../electron/main/host/process/spare-channel';
import { supervise } from '../../../electron/main/host/process/supervise';
import { tempDir } from '../../helpers/process-host';

/** Writes as a child would (through the child's end), closes it, and returns what the sink got. */
async function roundTrip(channel: OutputChannel, text: string, received: string[]): Promise<string> {
  (channel.stdout as net.Socket).write(text);
  await new Promise((resolve) => setTimeout(resolve, 20));
  channel.releaseChildEnd();
  await channel.closed;
  return received.join('');
}

function collector(): { sink: (buffer: Uint8Array, length: number) => void; received: string[] } {
  const received: string[] = [];
  return { received, sink: (buffer, length) => received.push(Buffer.from(buffer.subarray(0, length)).toString('utf8')) };
}

describe('a spare output channel opened ahead of need', () => {
  it('a taken spare delivers to the sink of the run that took it, and the next spare to the next run', async () => {
    const channels = new SpareOutputChannels('socket');
    try {
      for (const text of ['첫 번째', 'second', 'third']) {
        const { sink, received } = collector();
        const channel = await channels.open(sink);
        expect(await roundTrip(channel, text, received)).toBe(text);
        await new Promise((resolve) => setImmediate(resolve)); // the next spare is prepared meanwhile
      }
    } finally {
      channels.close();
    }
  });

  it('two runs starting together never share one channel', async () => {
    const channels = new SpareOutputChannels('socket');
    try {
      await channels.open(() => undefined).then((c) => c.discard());
      await new Promise((resolve) => setTimeout(resolve, 50)); // a spare is ready now
      const a = collector();
      const b = collector();
      const [first, second] = await Promise.all([channels.open(a.sink), channels.open(b.sink)]);
      expect(first).not.toBe(second);
      expect(await roundTrip(first, 'for a', a.received)).toBe('for a');
      expect(await roundTrip(second, 'for b', b.received)).toBe('for b');
    } finally {
      channels.close();
    }
  });

  it('after close() a run still gets a channel of its own, and no spare is prepared again', async () => {
    const channels = new SpareOutputChannels('socket');
    await channels.open(() => undefined).then((c) => c.discard());
    channels.close();
    const { sink, received } = collector();
    expect(await roundTrip(await channels.open(sink), 'still works', received)).toBe('still works');
  });

  it('a waiting spare does not keep the process alive', async () => {
    // A real Node process that leaves a spare behind without close(): it must still exit by itself.
    const script = `
      const { SpareOutputChannels } = await import(${JSON.stringify(path.resolve('electron/main/host/process/spare-channel.ts'))});
      const channels = new SpareOutputChannels('socket');
      const c = await channels.open(() => {});
      c.releaseChildEnd();
      await c.closed.then(() => {}, () => {});
      c.forceClose();
      await new Promise((r) => setTimeout(r, 200));
      console.log('leaving');
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('leaving');
    expect(run.status).toBe(0);
  });
});

describe('a program that cannot start is a value, not an exception', () => {
  const start = (file: string, cwd = '/') =>
    supervise({ file, argv0: 'x', args: [], cwd, env: {}, timeoutMs: 5000, sink: () => undefined, channels: freshOutputChannels('socket') });

  it('gone between resolution and start: ENOENT', async () => {
    const proc = await start('/nonexistent-baram/program');
    expect(await proc.started).toBe(false);
    expect(await proc.done).toMatchObject({ kind: 'failed-to-start', code: 'ENOENT' });
  });

  it('not executable: EACCES', async () => {
    const work = await tempDir('baram-start-');
    try {
      const file = path.join(work.dir, 'not-a-program');
      await writeFile(file, '#!/bin/sh\necho ran\n');
      await chmod(file, 0o644);
      const proc = await start(file);
      expect(await proc.done).toMatchObject({ kind: 'failed-to-start', code: 'EACCES' });
    } finally {
      await work.cleanup();
    }
  });

  it('Node refusing the request itself (a NUL in an argument) ends the same way', async () => {
    const proc = await supervise({ file: '/usr/bin/true', argv0: 'true', args: ['a\u0000b'], cwd: '/', env: {}, timeoutMs: 5000, sink: () => undefined, channels: freshOutputChannels('socket') });
    expect(await proc.started).toBe(false);
    expect(await proc.done).toMatchObject({ kind: 'failed-to-start', code: 'ERR_INVALID_ARG_VALUE' });
  });
});
