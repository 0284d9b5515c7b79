import { copyFile, mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDocumentParser } from '../../../electron/main/host/documents/parse-client';
import { DocumentTextCache } from '../../../electron/main/host/documents/text-cache';
import { createFileAccess } from '../../../electron/main/host/files';
import { documentTextOptions, ExtractionStopped } from '../../../tools/search/engine/document-extract';
import { compileQuery } from '../../../tools/search/engine/query';
import { searchFiles, type SearchOptions } from '../../../tools/search/engine/search-files';
import { DOCUMENT_FIXTURES } from '../../helpers/document-fixtures';

/**
 * search.text's engine over real documents and the real host file access and cache: the time a
 * search may spend extracting, and the per-document time limit (search-documents.test.ts drives
 * the tool through the gate).
 */

let base: string | undefined;
afterEach(async () => {
  if (base) await rm(base, { recursive: true, force: true });
  base = undefined;
});

/** The host's parse threads, as a session has them (ended after the file's tests). */
const documents = createDocumentParser();
afterAll(() => documents.close());

async function setUp() {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-docengine-')));
  const workspace = join(base, 'workspace');
  await mkdir(workspace, { recursive: true });
  for (const [as, fixture] of [['a.pdf', 'korean.pdf'], ['b.docx', 'korean.docx'], ['c.hwp', 'estimate.hwp']] as const) {
    await copyFile(join(DOCUMENT_FIXTURES, fixture), join(workspace, as));
  }
  const cache = new DocumentTextCache({ dir: join(base, 'data', 'cache') });
  const files = await createFileAccess({ roots: [workspace], trashDir: join(base, 'data', 'trash'), protectedPaths: [join(base, 'data')], documentStore: cache });
  const compiled = compileQuery({ pattern: '견적', ignoreCase: false, fixedString: true });
  if (!compiled.ok) throw new Error(compiled.message);
  const search = (over: Partial<SearchOptions> = {}) =>
    searchFiles(files, { path: workspace, query: compiled.query, include: null, maxResults: 100, maxChars: 100_000, signal: new AbortController().signal, documents: documentTextOptions(documents), ...over });
  return { cache, search };
}

describe('search.text engine: time spent on documents', () => {
  it('after its extraction time is spent, searches only cached documents and counts the rest as pending', async () => {
    const { cache, search } = await setUp();
    const none = await search({ extractionBudgetMs: 0 });
    expect(none).toMatchObject({ documentsPending: 3, documentsSearched: 0 });
    expect(none.lines).toEqual([]);
    expect(cache.stats.extractions).toBe(0);
    const all = await search();
    expect(all).toMatchObject({ documentsPending: 0, documentsSearched: 3, documentsWithMatches: 3 });
    // Now cached: searched even with no time left to extract.
    const cached = await search({ extractionBudgetMs: 0 });
    expect(cached).toMatchObject({ documentsPending: 0, documentsSearched: 3, documentsFromCache: 3 });
    expect(cached.lines).toEqual(all.lines);
  });

  it('a document that runs past the time limit is reported and not cached, so a later search reads it', async () => {
    const { cache, search } = await setUp();
    // What extractDocument does when withTimeLimit gives up on a parse (kit's time limit, tested there).
    const stalled = { ...documentTextOptions(documents), extract: async () => Promise.reject(new ExtractionStopped('timeout')) };
    const hurried = await search({ documents: stalled });
    expect(hurried.documentTrouble.map((t) => t.problem)).toEqual(['timeout', 'timeout', 'timeout']);
    expect(cache.stats.stored).toBe(0);
    const patient = await search();
    expect(patient.documentsWithMatches).toBe(3);
    expect(cache.stats.stored).toBe(3);
  });
});
