import { copyFile, mkdir, mkdtemp, readFile, realpath, rename, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Lang } from '../../../electron/common/i18n';
import { DOCUMENT_CACHE_FILE, DocumentTextCache } from '../../../electron/main/host/documents/text-cache';
import { openSession, type Session } from '../../../electron/main/runtime/session';
import { DOCUMENT_FIXTURES } from '../../helpers/document-fixtures';
import { useTestGate } from '../../helpers/gate-harness';

/**
 * search.text inside office documents (issue 18 item 5), through the real session: real gate,
 * real host file access, real SQLite cache in the data folder, real fixture documents made by
 * LibreOffice and Hancom Office (tests/fixtures/documents).
 */

/** Result lines `file.ext:place:text` (not the summary and notes, which are in brackets, nor a refusal). */
const hitLines = (text: string): string[] => text.split('\n').filter((l) => /^[^\s'[]+\.\w+:/.test(l));

interface Harness {
  readonly workspace: string;
  readonly dataDir: string;
  readonly cache: DocumentTextCache;
  readonly session: Session;
  search(args: Record<string, unknown>): Promise<{ outcome: string; text: string; details: Record<string, unknown> }>;
  call(tool: string, args: Record<string, unknown>): Promise<{ outcome: string; text: string }>;
}

let opened: { session: Session; base: string } | undefined;
afterEach(async () => {
  if (!opened) return;
  await opened.session.close();
  await rm(opened.base, { recursive: true, force: true });
  opened = undefined;
});

/**
 * A session whose document cache the test holds, to count its extractions (the counter lives in
 * the host capability, the only code that hands a document to a parser).
 */
async function open(fixtures: Record<string, string>, lang: Lang = 'en'): Promise<Harness> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-docsearch-')));
  const workspace = join(base, 'workspace');
  const dataDir = join(base, 'data');
  await mkdir(workspace, { recursive: true });
  for (const [as, fixture] of Object.entries(fixtures)) {
    await mkdir(dirname(join(workspace, as)), { recursive: true });
    await copyFile(join(DOCUMENT_FIXTURES, fixture), join(workspace, as));
  }
  const cache = new DocumentTextCache({ dir: join(dataDir, 'cache') });
  const session = await openSession({ workspace, dataDir, lang, broker: null, documentTextCache: cache });
  opened = { session, base };
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await session.gate.call({ tool, args });
    return { outcome: r.outcome, text: r.text, details: (r.details ?? {}) as Record<string, unknown> };
  };
  return { workspace, dataDir, cache, session, search: (args) => call('search.text', args), call };
}

const FORMATS = {
  '매출.xlsx': 'sales.xlsx',
  '견적서.docx': 'korean.docx',
  '견적서.pdf': 'korean.pdf',
  '견적.hwp': 'estimate.hwp',
  '기안문.hwpx': 'draft.hwpx',
};

describe('search.text inside documents', () => {
  it('finds a Korean word in xlsx, docx, pdf, hwp and hwpx as in a text file, naming the place', async () => {
    const h = await open(FORMATS);
    await writeFile(join(h.workspace, '메모.txt'), '견적서 보낼 것\n');
    const r = await h.search({ pattern: '견적' });
    expect(r.outcome).toBe('ok');
    expect(hitLines(r.text)).toEqual([
      '견적.hwp:paragraph 3:제작 견적서 세부내역',
      '견적서.docx:paragraph 1:견적서',
      '견적서.docx:paragraph 2:거래처: 바람상사 귀하. 아래와 같이 견적합니다.',
      '견적서.pdf:page 1:견적서',
      '견적서.pdf:page 1:거래처: 바람상사 귀하. 아래와 같이 견적합니다.',
      '메모.txt:1:견적서 보낼 것',
    ]);
    expect(r.text).toContain('document.pdf.read (pages)');
    // Sheet and cell (Excel's own notation, quoted as Excel quotes a name with a space), hwpx paragraphs, HWP table rows.
    expect(hitLines((await h.search({ pattern: '합계' })).text)).toContain("매출.xlsx:'1분기 매출'!A6:합계");
    expect(hitLines((await h.search({ pattern: '기안자' })).text)).toEqual(['기안문.hwpx:paragraph 6:기안자 검토자 결재권자']);
    expect(hitLines((await h.search({ pattern: '표지 디자인' })).text)).toEqual(['견적.hwp:table 1 row 2:표지 디자인']);
  });

  it('names places in Korean in a Korean session, and glob narrows to one kind', async () => {
    const h = await open(FORMATS, 'ko');
    const r = await h.search({ pattern: '견적', glob: '*.pdf' });
    expect(hitLines(r.text)).toEqual(['견적서.pdf:1쪽:견적서', '견적서.pdf:1쪽:거래처: 바람상사 귀하. 아래와 같이 견적합니다.']);
    expect(hitLines((await h.search({ pattern: '표지 디자인' })).text)).toEqual(['견적.hwp:표 1 2행:표지 디자인']);
    expect(hitLines((await h.search({ pattern: '견적서', path: '견적서.docx' })).text)).toEqual(['견적서.docx:문단 1:견적서']);
  });

  it('a second search parses nothing: every text comes from the cache', async () => {
    const h = await open(FORMATS);
    const first = await h.search({ pattern: '견적' });
    expect(h.cache.stats.extractions).toBe(5);
    expect(h.cache.stats.stored).toBe(5);
    const second = await h.search({ pattern: '견적' });
    expect(hitLines(second.text)).toEqual(hitLines(first.text));
    expect(h.cache.stats.extractions).toBe(5);
    expect(second.details).toMatchObject({ documentsSearched: 5, documentsFromCache: 5 });
    // Another word, same documents: still no parse.
    await h.search({ pattern: '합계' });
    expect(h.cache.stats.extractions).toBe(5);
  });

  it('re-reads a file edited in place, even with its mtime put back, and one swapped for another of the same size and time', async () => {
    // korean.pdf and no-tounicode.pdf are both 24,000 bytes: the same size, other content.
    expect((await stat(join(DOCUMENT_FIXTURES, 'korean.pdf'))).size).toBe((await stat(join(DOCUMENT_FIXTURES, 'no-tounicode.pdf'))).size);
    const h = await open({ 'a.pdf': 'korean.pdf', 'b.pdf': 'korean.pdf', 'other.pdf': 'no-tounicode.pdf' });
    const file = (n: string) => join(h.workspace, n);
    const when = new Date('2026-01-02T03:04:05Z');
    for (const n of ['a.pdf', 'b.pdf', 'other.pdf']) await utimes(file(n), when, when);
    expect(hitLines((await h.search({ pattern: '견적서' })).text)).toEqual(['a.pdf:page 1:견적서', 'b.pdf:page 1:견적서']);
    expect(h.cache.stats.extractions).toBe(3);

    // a.pdf: the same inode rewritten with other bytes of the same size, mtime set back (ctime moves).
    const inode = (await stat(file('a.pdf'))).ino;
    await writeFile(file('a.pdf'), await readFile(join(DOCUMENT_FIXTURES, 'no-tounicode.pdf')));
    await utimes(file('a.pdf'), when, when);
    expect((await stat(file('a.pdf'))).ino).toBe(inode);
    // b.pdf: replaced by another file (other inode) of the same size and mtime.
    await rename(file('other.pdf'), file('b.pdf'));
    const after = await h.search({ pattern: '견적서' });
    expect(hitLines(after.text)).toEqual([]);
    expect(h.cache.stats.extractions).toBe(5);
    // And then they are cached as they are now.
    await h.search({ pattern: '견적서' });
    expect(h.cache.stats.extractions).toBe(5);
  });

  it('keeps the cache in the data folder, where no file tool reaches it, by ../ or absolute path or link', async () => {
    const h = await open(FORMATS);
    await h.search({ pattern: '견적' });
    const cacheFile = join(h.dataDir, 'cache', DOCUMENT_CACHE_FILE);
    const rows = new Database(cacheFile, { readonly: true });
    try {
      expect((rows.prepare('SELECT COUNT(*) AS n FROM texts').get() as { n: number }).n).toBe(5);
    } finally {
      rows.close();
    }
    for (const path of [cacheFile, '../data/cache/document-text.sqlite', join(h.workspace, '..', 'data', 'cache', DOCUMENT_CACHE_FILE)]) {
      const read = await h.call('filesystem.read', { path });
      expect(read.outcome, path).not.toBe('ok');
      expect(read.text).not.toContain('SQLite');
      const found = await h.search({ pattern: '견적', path });
      expect(found.outcome, path).not.toBe('ok');
      expect(hitLines(found.text)).toEqual([]);
    }
    expect((await h.search({ pattern: 'SQLite', path: join(h.dataDir, 'cache') })).outcome).not.toBe('ok');
    expect((await h.call('filesystem.search', { path: '..', namePattern: '*.sqlite' })).outcome).not.toBe('ok');
    // A link in the workspace to the cache, or to a document outside, is not followed by the search.
    await symlink(cacheFile, join(h.workspace, 'cache.pdf'));
    await symlink(join(DOCUMENT_FIXTURES, 'korean.docx'), join(h.workspace, 'outside.docx'));
    const r = await h.search({ pattern: '견적' });
    expect(r.text).not.toContain('cache.pdf');
    expect(r.text).not.toContain('outside.docx');
    expect((await h.search({ pattern: '견적', path: 'outside.docx' })).outcome).not.toBe('ok');
  });

  it('goes on searching when the cache cannot be written (locked by another process) or opened at all', async () => {
    const h = await open(FORMATS);
    // Open and lock it from outside, as another Baram process in the middle of a long write would.
    await h.search({ pattern: 'nothing-to-find' });
    const lock = new Database(join(h.dataDir, 'cache', DOCUMENT_CACHE_FILE));
    try {
      lock.exec('DELETE FROM texts');
      lock.exec('BEGIN EXCLUSIVE');
      const failuresBefore = h.cache.stats.failures;
      const r = await h.search({ pattern: '견적' });
      expect(hitLines(r.text)).toHaveLength(5); // the five document lines of the first test (no text file here)
      expect(h.cache.stats.failures).toBeGreaterThan(failuresBefore);
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }

    // The cache folder is a file: the cache cannot open; documents are read each time.
    const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-docsearch-broken-')));
    const cacheDir = join(base, 'not-a-folder');
    await writeFile(cacheDir, 'x');
    const broken = new DocumentTextCache({ dir: cacheDir });
    try {
      const brokenSession = await openSession({ workspace: h.workspace, dataDir: join(base, 'data'), lang: 'en', broker: null, documentTextCache: broken });
      try {
        const r = await brokenSession.gate.call({ tool: 'search.text', args: { pattern: '견적' } });
        expect(r.outcome).toBe('ok');
        expect(hitLines(r.text)).toHaveLength(5);
        expect(broken.stats.failures).toBeGreaterThan(0);
      } finally {
        await brokenSession.close();
      }
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('does not open a document over the size cap, nor a zip that claims to unpack to gigabytes, and says so', async () => {
    const h = await open({ '견적서.docx': 'korean.docx' });
    // 60 MB, sparse: refused from its size, never read.
    await writeFile(join(h.workspace, 'huge.pdf'), '%PDF-1.4\n');
    await truncate(join(h.workspace, 'huge.pdf'), 60 * 1024 * 1024);
    // A zip bomb's signature: an entry whose central directory says 2 GB unpacked.
    const bomb = Buffer.from(await readFile(join(DOCUMENT_FIXTURES, 'korean.docx')));
    const central = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(0x7fff_0000, central + 24);
    await writeFile(join(h.workspace, 'bomb.docx'), bomb);
    const r = await h.search({ pattern: '견적' });
    expect(hitLines(r.text)).toEqual(['견적서.docx:paragraph 1:견적서', '견적서.docx:paragraph 2:거래처: 바람상사 귀하. 아래와 같이 견적합니다.']);
    expect(r.text).toContain('2 document(s) could not be searched');
    expect(r.text).toContain('bomb.docx (too large)');
    expect(r.text).toContain('huge.pdf (too large)');
    // huge.pdf was never handed to a parser; bomb.docx was, and refused from its directory.
    expect(h.cache.stats.extractions).toBe(2);
  });

  it('reports damaged and password-protected documents by name, and searches scanned PDFs for nothing', async () => {
    const h = await open({ 'broken.docx': 'damaged.docx', 'locked.pdf': 'encrypted.pdf', 'locked.hwp': 'encrypted.hwp', 'scan.pdf': 'scanned.pdf', 'fonts.pdf': 'no-tounicode.pdf' }, 'ko');
    const r = await h.search({ pattern: '견적' });
    expect(hitLines(r.text)).toEqual([]);
    expect(r.text).toContain('broken.docx (손상)');
    expect(r.text).toContain('locked.pdf (암호)');
    expect(r.text).toContain('locked.hwp (암호)');
    // A scan and a PDF without ToUnicode have no text to search; their garbage is never matched.
    expect((await h.search({ pattern: '.', path: 'fonts.pdf' })).text).not.toMatch(/fonts\.pdf:/);
  });
});

describe('search.text inside documents, through the default session wiring', () => {
  const openGate = useTestGate();

  it('caches in <dataDir>/cache and finds the same the second time', async () => {
    const g = await openGate({ files: { '견적서.docx': await readFile(join(DOCUMENT_FIXTURES, 'korean.docx')) } });
    const first = await g.call('search.text', { pattern: '바람상사' });
    expect(hitLines(first.text)).toEqual(['견적서.docx:paragraph 2:거래처: 바람상사 귀하. 아래와 같이 견적합니다.']);
    expect((await stat(join(g.session.dataDir, 'cache', DOCUMENT_CACHE_FILE))).isFile()).toBe(true);
    const second = await g.call('search.text', { pattern: '바람상사' });
    expect(second.details).toMatchObject({ documentsSearched: 1, documentsFromCache: 1 });
  });
});
