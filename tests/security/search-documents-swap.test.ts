import { copyFile, mkdir, mkdtemp, realpath, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { TreeDocument, TreeFile } from '../../electron/common/file-access';
import { createDocumentParser } from '../../electron/main/host/documents/parse-client';
import { DocumentTextCache } from '../../electron/main/host/documents/text-cache';
import { createFileAccess } from '../../electron/main/host/files';
import { documentTextOptions, parseExtracted } from '../../tools/search/engine/document-extract';
import { DOCUMENT_FIXTURES } from '../helpers/document-fixtures';

/**
 * search.text's documents (issue 18 item 5) against a file swapped between the walk, which
 * identifies it, and the read its text is extracted from: a link to a document outside the roots
 * is refused, another file is read as itself and cached under its own identity, never under the
 * walked file's.
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
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-docswap-')));
  const workspace = join(base, 'workspace');
  const outside = join(base, 'outside');
  await mkdir(workspace, { recursive: true });
  await mkdir(outside, { recursive: true });
  await copyFile(join(DOCUMENT_FIXTURES, 'pages.pdf'), join(workspace, 'a.pdf'));
  await copyFile(join(DOCUMENT_FIXTURES, 'korean.pdf'), join(outside, 'secret.pdf'));
  await copyFile(join(DOCUMENT_FIXTURES, 'korean.pdf'), join(workspace, 'other.pdf.tmp'));
  const cache = new DocumentTextCache({ dir: join(base, 'data', 'cache') });
  const files = await createFileAccess({ roots: [workspace], trashDir: join(base, 'data', 'trash'), protectedPaths: [join(base, 'data')], documentStore: cache });
  return { workspace, outside, cache, files };
}

/** The one document the walk yields, before anything asks for its text. */
async function walkedDocument(files: Awaited<ReturnType<typeof setUp>>['files'], workspace: string): Promise<TreeDocument> {
  const found: TreeFile[] = [];
  for await (const f of files.readTree(workspace, { windowBytes: 1024, documents: documentTextOptions(documents), include: (p) => p.endsWith('.pdf') })) found.push(f);
  expect(found).toHaveLength(1);
  const [file] = found;
  if (!file?.ok || file.document === undefined) throw new Error('no document yielded');
  return file.document;
}

describe('a document swapped between the walk and its read', () => {
  it('for a link to a document outside the roots: refused, nothing extracted or cached', async () => {
    const { workspace, outside, cache, files } = await setUp();
    const document = await walkedDocument(files, workspace);
    await rm(join(workspace, 'a.pdf'));
    await symlink(join(outside, 'secret.pdf'), join(workspace, 'a.pdf'));
    const answer = await document.text();
    expect(answer?.ok).toBe(false);
    expect(cache.stats).toMatchObject({ extractions: 0, stored: 0 });
  });

  it('for another file: read as itself, and cached under its own identity only', async () => {
    const { workspace, cache, files } = await setUp();
    const document = await walkedDocument(files, workspace);
    await rename(join(workspace, 'other.pdf.tmp'), join(workspace, 'a.pdf'));
    const answer = await document.text();
    if (!answer?.ok) throw new Error('expected text');
    expect(JSON.stringify(parseExtracted(answer.text)?.units)).toContain('견적서');
    expect(cache.stats.stored).toBe(1);
    // The walk finds the new file, whose identity now has its text: served from the cache.
    const again = await (await walkedDocument(files, workspace)).text();
    expect(again).toMatchObject({ ok: true, cached: true });
    expect(cache.stats.extractions).toBe(1);
  });
});
