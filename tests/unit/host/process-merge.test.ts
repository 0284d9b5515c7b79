import { describe, expect, it } from 'vitest';
import { testHost } from '../../helpers/process-host';

/**
 * stdout and stderr merged in the order they were written (SPEC S-SHELL "Body = stdout+stderr merged
 * in order"). Real children: a shell alternating the two streams.
 */

const ALTERNATING = 'for i in 1 2 3 4 5; do echo out$i; echo err$i >&2; done';
const lines = (text: string, prefix: string) => text.split('\n').filter((l) => l.startsWith(prefix));

describe('arrival-order merge', () => {
  // Two pipes are read as two streams: their relative order depends on scheduling, so the pipes
  // transport (the Windows path) promises each stream's own order and nothing lost — checked
  // without sleeps or timing. The socket transport's strict order is checked below.
  it('pipes: every line of both streams arrives, each stream in its own order', async () => {
    const host = testHost(['sh'], {}, { transport: 'pipes' });
    const outcome = await host.run({ command: 'sh', args: ['-c', ALTERNATING], cwd: '/' });
    expect(outcome.kind).toBe('exited');
    if (outcome.kind !== 'exited') return;
    expect(lines(outcome.output.text, 'out')).toEqual(['out1', 'out2', 'out3', 'out4', 'out5']);
    expect(lines(outcome.output.text, 'err')).toEqual(['err1', 'err2', 'err3', 'err4', 'err5']);
  });

  it('socket (the POSIX default): exact order even without pauses, since both streams are one descriptor', async () => {
    const host = testHost(['sh']);
    const script = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? `echo o${i}` : `echo e${i} >&2`)).join('; ');
    const expected = Array.from({ length: 200 }, (_, i) => `${i % 2 === 0 ? 'o' : 'e'}${i}\n`).join('');
    for (let round = 0; round < 5; round++) {
      const outcome = await host.run({ command: 'sh', args: ['-c', script], cwd: '/' });
      expect(outcome.kind === 'exited' && outcome.output.text).toBe(expected);
    }
  });

  it('pipes (the Windows path): output and exit code of a failing program', async () => {
    const host = testHost(['sh'], {}, { transport: 'pipes' });
    const outcome = await host.run({ command: 'sh', args: ['-c', 'echo partial; echo boom >&2; exit 3'], cwd: '/' });
    expect(outcome.kind).toBe('exited');
    if (outcome.kind !== 'exited') return;
    expect(outcome.exitCode).toBe(3);
    expect(outcome.output.text).toBe('partial\nboom\n');
  });

  it('a program ended by a signal reports the signal and no exit code', async () => {
    const host = testHost(['sh']);
    const outcome = await host.run({ command: 'sh', args: ['-c', 'echo before; kill -SEGV $$'], cwd: '/' });
    expect(outcome.kind).toBe('exited');
    if (outcome.kind !== 'exited') return;
    expect(outcome.signal).toBe('SIGSEGV');
    expect(outcome.exitCode).toBeNull();
    expect(outcome.output.text).toBe('before\n');
  });

  it('stdin is closed: a program reading it ends at once instead of waiting for its timeout', async () => {
    const host = testHost(['cat']);
    // With stdin left open, cat would wait until the timeout ends it ('timed-out'); closed, it exits.
    const outcome = await host.run({ command: 'cat', args: [], cwd: '/', timeoutMs: 600_000 });
    expect(outcome.kind).toBe('exited');
  });

  it('arguments reach the program verbatim: no shell expands them', async () => {
    const host = testHost(['printf']);
    const args = ['%s|', '$HOME', '*', '`id`', '; rm -rf /', '"quoted"', '한글 인수'];
    const outcome = await host.run({ command: 'printf', args, cwd: '/' });
    expect(outcome.kind === 'exited' && outcome.output.text).toBe(args.slice(1).map((a) => `${a}|`).join(''));
  });
});

describe('start failures are values', () => {
  it('no place for the output socket (temp folder missing): failed-to-start, nothing runs', async () => {
    const host = testHost(['sh']);
    const previous = process.env['TMPDIR'];
    process.env['TMPDIR'] = '/nonexistent-baram-tmp'; // os.tmpdir() reads it on every call
    try {
      const outcome = await host.run({ command: 'sh', args: ['-c', 'echo ran'], cwd: '/' });
      expect(outcome.kind).toBe('failed-to-start');
      if (outcome.kind === 'failed-to-start') {
        expect(outcome.code).toBe('ENOENT');
        expect(outcome.message.ko).toContain("'sh'");
        expect(outcome.program.path).toBe('/usr/bin/sh');
      }
    } finally {
      if (previous === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = previous;
    }
  });
});
