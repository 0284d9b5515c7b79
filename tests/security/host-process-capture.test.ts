import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOutcome, ProgramRefusal } from '../../electron/common/process-capability';
import { defaultShell } from '../../electron/main/policy/defaults';
import { tempDir, testHost } from '../helpers/process-host';

/**
 * SPEC S-SHELL: capture is bounded in memory on success and failure paths. A program printing
 * 1 GiB must not grow this process by 3 × maxCaptureBytes or more (resident set, sampled every
 * 10 ms), must be drained to the end (the child never blocks on a full pipe), and the result must
 * say it was cut and how much was written.
 *
 * The cap is the policy default, 10 MiB. At 1 MiB the bound would sit inside the runtime's own
 * noise: the buffer and the decoded text take 2 × the cap by nature, and V8 commits another 2–4 MiB
 * of young generation for the ≈50 bytes of garbage Node's stream machinery allocates per read
 * callback (measured with --expose-gc: 40–80k callbacks per GiB, all of it collectable). That
 * noise does not grow with the output; a runner that kept what it drained, or read through
 * ordinary pipes (33 MB of RSS per GiB, measured), fails this test at either cap.
 *
 * `head -c N /dev/zero` is one program, not a pipeline. 1 GiB drains in ≈1.5–2.5 s here (2 cores).
 */

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const CAP = defaultShell('linux').maxCaptureBytes;

let work: { readonly dir: string; cleanup(): Promise<void> };
beforeAll(async () => {
  work = await tempDir('baram-capture-');
});
afterAll(async () => {
  await work.cleanup();
});

/** Runs `body` while sampling this process's RSS every 10 ms; returns the peak growth over the start. */
async function peakRssGrowth<T>(body: () => Promise<T>): Promise<{ readonly value: T; readonly growth: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    const value = await body();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, growth: peak - base };
  } finally {
    clearInterval(sampler);
  }
}

function ran(outcome: RunOutcome | ProgramRefusal): Exclude<RunOutcome, { kind: 'failed-to-start' }> {
  if (outcome.kind === 'refused' || outcome.kind === 'failed-to-start') throw new Error(`${outcome.kind}: ${outcome.message.en}`);
  return outcome;
}

describe('bounded capture', () => {
  it('1 GiB of output: drained to the end, capped at 10 MiB, RSS growth < 3 × the cap', async () => {
    const host = testHost(['head']);
    // One small run first, so the measurement does not include loading and compiling the code path.
    await host.run({ command: 'head', args: ['-c', String(MiB), '/dev/zero'], cwd: work.dir });
    const started = Date.now();
    const { value, growth } = await peakRssGrowth(() =>
      host.run({ command: 'head', args: ['-c', String(GiB), '/dev/zero'], cwd: work.dir, maxCaptureBytes: CAP, timeoutMs: 60_000 }),
    );
    const seconds = (Date.now() - started) / 1000;
    const outcome = ran(value);
    expect(outcome.kind).toBe('exited');
    if (outcome.kind !== 'exited') return;
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output.truncated).toBe(true);
    expect(outcome.output.totalBytes).toBe(GiB);
    expect(outcome.output.capturedBytes).toBe(CAP);
    expect(outcome.output.text.length).toBe(CAP); // NUL bytes: one character each
    expect(growth).toBeLessThan(3 * CAP);
    console.info(`1 GiB drained in ${seconds.toFixed(2)} s; peak RSS growth ${(growth / MiB).toFixed(2)} MiB (cap ${CAP / MiB} MiB)`);
  });

  it('failure path: a program that prints past the cap and exits non-zero keeps the beginning and its exit code', async () => {
    const host = testHost(['sh']);
    const outcome = ran(
      await host.run({
        command: 'sh',
        args: ['-c', `echo first-line; head -c ${5 * MiB} /dev/zero; echo never-seen >&2; exit 7`],
        cwd: work.dir,
        maxCaptureBytes: MiB,
      }),
    );
    expect(outcome.kind).toBe('exited');
    if (outcome.kind !== 'exited') return;
    expect(outcome.exitCode).toBe(7);
    expect(outcome.output.truncated).toBe(true);
    expect(outcome.output.text.startsWith('first-line\n')).toBe(true);
    expect(outcome.output.text).not.toContain('never-seen');
    expect(outcome.output.capturedBytes).toBe(MiB);
    expect(outcome.output.totalBytes).toBe('first-line\n'.length + 5 * MiB + 'never-seen\n'.length);
  });

  it('timeout path: endless output is cut at the cap, memory stays bounded, partial text is kept', async () => {
    const host = testHost(['yes']);
    const { value, growth } = await peakRssGrowth(() =>
      host.run({ command: 'yes', args: ['baram'], cwd: work.dir, maxCaptureBytes: CAP, timeoutMs: 1000 }),
    );
    const outcome = ran(value);
    expect(outcome.kind).toBe('timed-out');
    expect(outcome.output.truncated).toBe(true);
    expect(outcome.output.capturedBytes).toBe(CAP);
    expect(outcome.output.text.startsWith('baram\nbaram\n')).toBe(true);
    expect(outcome.output.totalBytes).toBeGreaterThan(2 * CAP); // it kept draining until the kill
    expect(growth).toBeLessThan(3 * CAP);
  });

  it('a cut in the middle of a Korean character drops that character: the text ends on a whole one', async () => {
    const file = path.join(work.dir, 'korean.txt');
    await writeFile(file, '한글 출력입니다'.repeat(100)); // UTF-8: 3 bytes per syllable
    const host = testHost(['cat']);
    for (const cap of [10, 11, 12, 13]) {
      const outcome = ran(await host.run({ command: 'cat', args: [file], cwd: work.dir, maxCaptureBytes: cap }));
      expect(outcome.output.truncated).toBe(true);
      expect(outcome.output.text).not.toContain('\ufffd');
      expect('한글 출력입니다'.repeat(100).startsWith(outcome.output.text)).toBe(true);
      expect(Buffer.byteLength(outcome.output.text)).toBe(outcome.output.capturedBytes);
      expect(outcome.output.capturedBytes).toBeLessThanOrEqual(cap);
    }
  });

  it('maxCaptureBytes above the policy is lowered to the policy', async () => {
    const host = testHost(['head'], { maxCaptureBytes: 1000 });
    const outcome = ran(await host.run({ command: 'head', args: ['-c', '5000', '/dev/zero'], cwd: work.dir, maxCaptureBytes: 10 * MiB }));
    expect(outcome.output.capturedBytes).toBe(1000);
    expect(outcome.output.totalBytes).toBe(5000);
  });
});
