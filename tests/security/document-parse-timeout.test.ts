import { afterAll, describe, expect, it } from 'vitest';
import { createDocumentParser, parseThreads } from '../../electron/main/host/documents/parse-client';
import { ExtractionStopped, extractDocument } from '../../tools/search/engine/document-extract';
import { slowDocx, until } from '../helpers/slow-documents';

/**
 * A downloaded document made to be slow (slowDocx: ~15 KB that mammoth parses for tens of
 * seconds) must not keep a core busy once its time is up: the time limit ends the parse's thread,
 * as Stop does. Before the parse thread (docs/2026-12-03-document-parse-worker.md) the call
 * returned at the limit and the parse went on in the background. The limit here is search.text's
 * own parameter, set short; nothing measures how long anything took.
 */

const parser = createDocumentParser();
afterAll(() => parser.close());

describe('document parse past its time limit', () => {
  it('search.text extraction: rejects as timed out and the thread that was parsing is gone', async () => {
    const extraction = extractDocument({ path: 'slow.docx', bytes: slowDocx() }, parser, new AbortController().signal, 1000);
    const parsing = await (async () => {
      await until(() => parseThreads().working.length === 1);
      return parseThreads().working[0]!;
    })();
    const error = await extraction.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExtractionStopped);
    expect((error as ExtractionStopped).reason).toBe('timeout');
    await until(() => !parseThreads().alive.includes(parsing));
    expect(parser.state().busy).toBe(0);
  });
});
