import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadOnlyFileAccess } from '../../../tools/kit/define-tool';
import { isOleContainer, readZipIndex } from '../../../tools/kit/zip-index';
import { entryText, zipEntriesStream } from '../../../tools/kit/zip-stream';

/** readBytes over an in-memory file: what the kit's zip reading asks of ctx.files. */
function memoryFiles(bytes: Uint8Array): ReadOnlyFileAccess {
  return {
    readBytes: async (_p: string, o?: { maxBytes?: number; offset?: number }) => bytes.subarray(o?.offset ?? 0, (o?.offset ?? 0) + (o?.maxBytes ?? bytes.length)),
  } as unknown as ReadOnlyFileAccess;
}

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'documents');

describe('kit zip index', () => {
  it("reads LibreOffice's xlsx directory and an entry's text", async () => {
    const bytes = readFileSync(join(FIXTURES, 'sales.xlsx'));
    const files = memoryFiles(bytes);
    const index = await readZipIndex(files, 'x', bytes.length);
    if (!index.ok) throw new Error(index.reason);
    expect(index.entries.map((e) => e.name)).toContain('xl/worksheets/sheet1.xml');
    const workbook = index.entries.find((e) => e.name === 'xl/workbook.xml')!;
    expect(await entryText(files, 'x', workbook, 100_000)).toContain('name="숨은 설정"');
  });

  it('tells a truncated zip, an OLE container and a text file apart', async () => {
    const bytes = readFileSync(join(FIXTURES, 'damaged-truncated.xlsx'));
    expect(await readZipIndex(memoryFiles(bytes), 'x', bytes.length)).toEqual({ ok: false, reason: 'damaged' });
    const ole = Uint8Array.of(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0);
    expect(isOleContainer(ole)).toBe(true);
    expect(await readZipIndex(memoryFiles(ole), 'x', ole.length)).toEqual({ ok: false, reason: 'ole' });
    const txt = new TextEncoder().encode('hello');
    expect(await readZipIndex(memoryFiles(txt), 'x', txt.length)).toEqual({ ok: false, reason: 'not-zip' });
  });

  it('fails the stream when an entry inflates to another size than declared', async () => {
    const bytes = readFileSync(join(FIXTURES, 'sales.xlsx'));
    const files = memoryFiles(bytes);
    const index = await readZipIndex(files, 'x', bytes.length);
    if (!index.ok) throw new Error(index.reason);
    const sheet = index.entries.find((e) => e.name === 'xl/worksheets/sheet1.xml')!;
    const lying = { ...sheet, size: 100 }; // a bomb declares little and inflates to much
    const chunks: Uint8Array[] = [];
    await expect(
      (async () => {
        for await (const c of zipEntriesStream(files, 'x', [lying])) chunks.push(c as Uint8Array);
      })(),
    ).rejects.toThrow(/beyond its declared 100 bytes/);
  });
});
