import { describe, expect, it } from 'vitest';
import { withTimeLimit } from '../../../tools/kit/document-files';

describe('withTimeLimit (the parse time limit of every document tool)', () => {
  it('returns the value of work that finishes in time', async () => {
    expect(await withTimeLimit(async () => 42, 1000, new AbortController().signal)).toEqual({ ok: true, value: 42 });
  });

  it('returns timeout at the limit and aborts the signal the work watches', async () => {
    let seen: AbortSignal | undefined;
    const started = Date.now();
    const r = await withTimeLimit((signal) => {
      seen = signal;
      return new Promise<number>(() => undefined);
    }, 50, new AbortController().signal);
    expect(r).toEqual({ ok: false, reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(seen?.aborted).toBe(true);
  });

  it('returns cancelled when the user presses Stop', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 20);
    expect(await withTimeLimit(() => new Promise<number>(() => undefined), 10_000, stop.signal)).toEqual({ ok: false, reason: 'cancelled' });
  });

  it('passes a parse failure on to the caller (it becomes "damaged")', async () => {
    await expect(withTimeLimit(async () => Promise.reject(new Error('bad xref')), 1000, new AbortController().signal)).rejects.toThrow('bad xref');
  });
});
