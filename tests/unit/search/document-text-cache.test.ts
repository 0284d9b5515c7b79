import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DOCUMENT_CACHE_FILE, DocumentTextCache, type DocumentKey } from '../../../electron/main/host/documents/text-cache';

/** The host's cache of documents' extracted texts (search.text), on a real SQLite file. */

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'baram-doccache-'));
  dirs.push(d);
  return d;
}

const key = (over: Partial<DocumentKey> = {}): DocumentKey => ({ dev: 1, ino: 42, size: 1000, mtimeMs: 1700000000000.25, ctimeMs: 1700000000001.5, ...over });

describe('DocumentTextCache', () => {
  it('answers only for the same extractor, device, inode, size, mtime and ctime', async () => {
    const cache = new DocumentTextCache({ dir: await folder() });
    cache.put('x@1', key(), '/w/a.pdf', '견적서 본문');
    expect(cache.get('x@1', key())).toBe('견적서 본문');
    for (const other of [key({ ino: 43 }), key({ dev: 2 }), key({ size: 1001 }), key({ mtimeMs: 1700000000000.5 }), key({ ctimeMs: 1700000000002 })]) {
      expect(cache.get('x@1', other)).toBeNull();
    }
    expect(cache.get('x@2', key())).toBeNull();
    // A changed file's text replaces the old row rather than adding one.
    cache.put('x@1', key({ size: 2000 }), '/w/a.pdf', '새 본문');
    expect(cache.get('x@1', key({ size: 2000 }))).toBe('새 본문');
    expect(cache.get('x@1', key())).toBeNull();
    expect(cache.stats).toMatchObject({ hits: 2, stored: 2, failures: 0 });
    cache.close();
  });

  it('survives a reopen, and starts over from a file that is not a database', async () => {
    const dir = await folder();
    const first = new DocumentTextCache({ dir });
    first.put('x@1', key(), '/w/a.pdf', 'kept');
    first.close();
    const again = new DocumentTextCache({ dir });
    expect(again.get('x@1', key())).toBe('kept');
    again.close();

    await writeFile(join(dir, DOCUMENT_CACHE_FILE), 'garbage, not SQLite '.repeat(100));
    const fresh = new DocumentTextCache({ dir });
    expect(fresh.get('x@1', key())).toBeNull();
    fresh.put('x@1', key(), '/w/a.pdf', 'new');
    expect(fresh.get('x@1', key())).toBe('new');
    fresh.close();
  });

  it('drops the least recently stored entries beyond its size', async () => {
    const cache = new DocumentTextCache({ dir: await folder(), maxTotalBytes: 64 * 1024 });
    // Random-ish text that does not compress away: ~20 KB each after deflate.
    const noise = (seed: number) => Array.from({ length: 6000 }, (_, i) => String.fromCharCode(0xac00 + ((i * 7919 + seed * 104729) % 11172))).join('');
    for (let i = 0; i < 8; i++) cache.put('x@1', key({ ino: i }), `/w/${i}.pdf`, noise(i));
    expect(cache.get('x@1', key({ ino: 0 }))).toBeNull();
    expect(cache.get('x@1', key({ ino: 7 }))).toBe(noise(7));
    cache.close();
  });

  it('counts a folder it cannot create as a failure and keeps nothing', async () => {
    const dir = await folder();
    await writeFile(join(dir, 'file'), 'x');
    const cache = new DocumentTextCache({ dir: join(dir, 'file') });
    cache.put('x@1', key(), '/w/a.pdf', 'lost');
    expect(cache.get('x@1', key())).toBeNull();
    expect(cache.stats.failures).toBeGreaterThan(0);
  });
});
