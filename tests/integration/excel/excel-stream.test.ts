import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileAccess } from '../../../electron/main/host/files';
import type { FileAccess } from '../../../electron/common/file-access';
import { openBook, pickSheet } from '../../../tools/excel/book/book';
import { readWindow } from '../../../tools/excel/book/window';

/**
 * The streaming reader under the tools, on the real host file access: the time limit, and no temp
 * file written for a workbook whose sheets come before its shared strings (LibreOffice's order).
 */

let base: string | undefined;
afterEach(async () => {
  if (base) await rm(base, { recursive: true, force: true });
  base = undefined;
});

async function workspace(files: Record<string, Uint8Array>): Promise<FileAccess> {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-excel-')));
  const root = join(base, 'workspace');
  await import('node:fs/promises').then((fs) => fs.mkdir(root));
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(root, name), bytes);
  return createFileAccess({ roots: [root], trashDir: join(base, 'trash'), protectedPaths: [] });
}

async function open(files: FileAccess, name: string) {
  const opened = await openBook(files, name);
  if ('failure' in opened) throw new Error(opened.failure.en);
  const sheet = pickSheet(opened.book, undefined, name);
  if ('failure' in sheet) throw new Error(sheet.failure.en);
  return { book: opened.book, sheet };
}

describe('excel streaming reader', () => {
  it('stops at the time limit and says so', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('s');
    for (let i = 1; i <= 20_000; i++) ws.addRow([i, `행 ${i}`]);
    const files = await workspace({ 'big.xlsx': new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer) });
    const { book, sheet } = await open(files, 'big.xlsx');
    const spec = { top: 1, bottom: undefined, offset: 19_990, limit: 10, headRows: 10 };
    const w = await readWindow(files, book, sheet, spec, new AbortController().signal, false, 50);
    expect(w.stopped).toBe('time');
    expect(w.rows).toHaveLength(0);
    expect(w.lastSeen).toBeLessThan(19_990);
  });

  it("writes no temp file for LibreOffice's entry order (sheets before shared strings)", async () => {
    const fixture = join(__dirname, '..', '..', 'fixtures', 'documents', 'sales.xlsx');
    const files = await workspace({ 'sales.xlsx': readFileSync(fixture) });
    // exceljs's own temp files go through the 'tmp' package it requires: count the calls.
    const tmp = createRequire(require.resolve('exceljs'))('tmp') as { file: (...a: unknown[]) => unknown };
    let calls = 0;
    const original = tmp.file;
    tmp.file = (...a: unknown[]) => {
      calls++;
      return original.apply(tmp, a);
    };
    try {
      // The count has teeth: exceljs's reader on the file as it is parks the sheets.
      for await (const ws of new ExcelJS.stream.xlsx.WorkbookReader(fixture, {}) as unknown as AsyncIterable<AsyncIterable<unknown>>) for await (const _ of ws);
      expect(calls).toBeGreaterThan(0);
      calls = 0;
      const { book, sheet } = await open(files, 'sales.xlsx');
      const spec = { top: 1, bottom: undefined, offset: 1, limit: 100, headRows: 10 };
      const w = await readWindow(files, book, sheet, spec, new AbortController().signal);
      expect(w.rows.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(calls).toBe(0);
    } finally {
      tmp.file = original;
    }
  });
});
