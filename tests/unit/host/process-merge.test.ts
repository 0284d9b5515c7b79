import { describe, expect, it } from 'vitest';
import type { OutputTransport } from '../../../electron/main/host/process/output-channel';
import { testHost } from '../../helpers/process-host';

/**
 * stdout and stderr merged in the order they were written (SPEC S-SHELL "Body = stdout+stderr merged
 * in order"). Real children: a shell alternating the two streams.
 */

const ALTERNATING = 'for i in 1 2 3 4 5; do echo out$i; sleep 0.02; echo err$i >&2; sleep 0.02; done';
const EXPECTED = [1, 2, 3, 4, 5].map((i) => `out${i}\nerr${i}\n`).join('');

describe('arrival-order merge', () => {
  for (const transport of ['socket', 'pipes'] as const satisfies readonly OutputTransport[]) {
    it(`${transport}: alternating stdout/stderr lines with small sleeps arrive in order`, async () => {
      const host = testHost(['sh'], {}, { transport });
      const outcome = await host.run({ command: 'sh', args: ['-c', ALTERNATING], cwd: '/' });
      expect(outcome.kind).toBe('exited');
      if (outcome.kind === 'exited') expect(outcome.output.text).toBe(EXPECTED);
    });
  }

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
    const outcome = await host.run({ command: 'cat', args: [], cwd: '/', timeoutMs: 5000 });
    expect(outcome.kind).toBe('exited');
    if (outcome.kind === 'exited') expect(outcome.durationMs).toBeLessThan(2000);
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
