import { threadId } from 'node:worker_threads';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDocumentParser, parseThreads } from '../../../electron/main/host/documents/parse-client';
import { openSession } from '../../../electron/main/runtime/session';
import { useTestGate } from '../../helpers/gate-harness';
import { documentFiles } from '../../helpers/document-fixtures';
import { slowDocx, until } from '../../helpers/slow-documents';

/**
 * Word, HWP and PDF are parsed in a worker thread (docs/2026-12-03-document-parse-worker.md): a
 * document made to be slow (slowDocx: ~15 KB that mammoth chews on for tens of seconds) leaves the
 * gate's thread free, Stop ends the parse's thread, and a parse past the thread's memory limit
 * fails on its own without taking Baram down. Real files, the real gate, real threads; the tests
 * assert what happened in which order, never how long it took.
 */

const open = useTestGate();

/** The thread working on a parse now (exactly one is expected), once it has started. */
async function workingThread(): Promise<number> {
  await until(() => parseThreads().working.length === 1);
  return parseThreads().working[0]!;
}

describe('document parse thread', () => {
  it('keeps the event loop and the gate turning while a slow .docx parses, and Stop ends its thread', async () => {
    const g = await open({ files: { 'slow.docx': slowDocx(), '메모.txt': '회의는 3시' } });
    const stop = new AbortController();
    let settled = false;
    const slow = g.call('document.word.read', { path: 'slow.docx' }, stop.signal).finally(() => {
      settled = true;
    });
    const parsing = await workingThread();
    expect(parsing).not.toBe(threadId);

    // While mammoth works on the document: the loop turns, and another call goes through the whole gate.
    let turns = 0;
    while (turns < 100) await new Promise<void>((resolve) => setImmediate(() => resolve(void turns++)));
    const small = await g.call('filesystem.read', { path: '메모.txt' });
    expect(small.outcome).toBe('ok');
    expect(small.text).toContain('회의는 3시');
    expect(settled).toBe(false);
    expect(parseThreads().working).toEqual([parsing]);

    // Stop: the call says so, and the thread that was parsing is gone (its CPU with it).
    stop.abort();
    const stopped = await slow;
    expect(stopped.outcome).toBe('cancelled');
    expect(stopped.text).toContain('Stopped by the user');
    await until(() => !parseThreads().alive.includes(parsing));

    // The next document gets a thread of its own and reads normally.
    await writeFile(join(g.workspace, 'korean.docx'), documentFiles('korean.docx')['korean.docx']!);
    const next = await g.call('document.word.read', { path: 'korean.docx' });
    expect(next.outcome).toBe('ok');
    expect(next.text).toContain('# 견적서');
  });

  it('Stop during a search inside documents ends the parse thread too', async () => {
    const g = await open({ files: { 'slow.docx': slowDocx(), 'a.txt': '견적' } });
    const stop = new AbortController();
    const search = g.call('search.text', { pattern: '견적' }, stop.signal);
    const parsing = await workingThread();
    stop.abort();
    expect((await search).outcome).toBe('cancelled');
    await until(() => !parseThreads().alive.includes(parsing));
  });

  it('a parse past the thread memory limit fails with a clear message, and Baram goes on', async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-parse-memory-')));
    const workspace = join(base, 'workspace');
    try {
      await mkdir(workspace, { recursive: true });
      await writeFile(join(workspace, 'huge.docx'), slowDocx());
      await writeFile(join(workspace, 'korean.docx'), documentFiles('korean.docx')['korean.docx']!);
      // A small heap, so the crafted document exceeds it quickly; the app's limit is PARSE_WORKER_HEAP_MB.
      for (const lang of ['en', 'ko'] as const) {
        const session = await openSession({ workspace, dataDir: join(base, `data-${lang}`), lang, broker: null, documentHeapMb: 64 });
        try {
          const huge = await session.gate.call({ tool: 'document.word.read', args: { path: 'huge.docx' } });
          expect(huge.outcome).toBe('error');
          expect(huge.text).toContain(lang === 'en' ? "Reading 'huge.docx' needed more memory than allowed (64 MB) and was stopped" : "'huge.docx'은(는) 읽는 데 메모리가 너무 많이 들어(한도 64 MB)");
          expect(huge.details).toMatchObject({ outOfMemory: true });
          // This process (and its gate) is still here; the next document reads as ever.
          const next = await session.gate.call({ tool: 'document.word.read', args: { path: 'korean.docx' } });
          expect(next.outcome).toBe('ok');
          expect(next.text).toContain('# 견적서');
        } finally {
          await session.close();
        }
      }
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('the parser: a stopped or failed thread is never reused; a clean one is, and the caller keeps its bytes', async () => {
    const resourcesBefore = process.getActiveResourcesInfo().filter((r) => r === 'MessagePort' || r === 'Worker');
    const parser = createDocumentParser({ heapMb: 64 });
    try {
      const korean = documentFiles('korean.docx')['korean.docx']!;
      const first = await parser.parse({ kind: 'docx', bytes: korean, signal: new AbortController().signal });
      expect(first.ok).toBe(true);
      // The bytes were copied before they were handed over: the caller's buffer is whole.
      expect(korean.byteLength).toBeGreaterThan(0);
      expect(korean[0]).toBe(0x50);
      const waitingBefore = parseThreads().alive.filter((id) => !parseThreads().working.includes(id));
      expect(waitingBefore.length).toBeGreaterThan(0);
      // A waiting thread keeps nothing alive: a CLI call ends when its work does, not 30 s later.
      expect(process.getActiveResourcesInfo().filter((r) => r === 'MessagePort' || r === 'Worker')).toEqual(resourcesBefore);

      const memory = await parser.parse({ kind: 'docx', bytes: slowDocx(), signal: new AbortController().signal });
      expect(memory).toEqual({ ok: false, reason: 'memory', limitMb: 64 });
      expect(parser.state().busy).toBe(0);

      const stop = new AbortController();
      const slow = parser.parse({ kind: 'docx', bytes: slowDocx(20_000), signal: stop.signal });
      const parsing = await workingThread();
      stop.abort();
      expect(await slow).toEqual({ ok: false, reason: 'stopped' });
      expect(parseThreads().alive).not.toContain(parsing);

      const damaged = await parser.parse({ kind: 'hwp5', bytes: documentFiles('damaged.hwp')['damaged.hwp']!, signal: new AbortController().signal });
      expect(damaged.ok).toBe(false);
      const again = await parser.parse({ kind: 'hwp5', bytes: documentFiles('estimate.hwp')['estimate.hwp']!, signal: new AbortController().signal });
      expect(again.ok && again.blocks.some((b) => b.kind === 'table')).toBe(true);
    } finally {
      await parser.close();
    }
  });
});
