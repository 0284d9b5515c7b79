import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';
import { documentFiles } from '../../helpers/document-fixtures';

/** Issue 18 item 7: size caps before parsing, zip sizes before inflating, for every document reader. */

const open = useTestGate();

/** A zip whose central directory claims every entry unpacks to 1 GB (the bytes themselves unchanged). */
function claimHugeSizes(zip: Uint8Array): Uint8Array {
  const out = new Uint8Array(zip);
  const view = new DataView(out.buffer);
  for (let at = 0; at + 46 <= out.length; at++) {
    if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 1024 * 1024 * 1024, true);
  }
  return out;
}

describe('document caps', () => {
  it.each([
    ['document.pdf.read', 'big.pdf', '200 MB'],
    ['document.word.read', 'big.docx', '50.0 MB'],
    ['document.hwp.read', 'big.hwp', '100 MB'],
  ])('%s refuses a file over its size limit before reading it', async (tool, path, limit) => {
    const g = await open();
    // Sparse: the size is what stat says; nothing is written.
    await writeFile(join(g.workspace, path), '');
    await truncate(join(g.workspace, path), 300 * 1024 * 1024);
    const r = await g.call(tool, { path });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain(`over this tool's limit of ${limit}`);
  });

  it.each([
    ['document.word.read', 'korean.docx', 'bomb.docx'],
    ['document.hwp.read', 'draft.hwpx', 'bomb.hwpx'],
  ])('%s refuses a zip that claims to unpack to gigabytes, before inflating anything', async (tool, fixture, path) => {
    const g = await open({ files: { [path]: claimHugeSizes(documentFiles(fixture)[fixture]!) } });
    const r = await g.call(tool, { path });
    expect(r.outcome).toBe('error');
    expect(r.text).toMatch(/would unpack to [\d.]+ GB \(limit 300 MB\)/);
  });

  it('reads a .docm like a .docx: text only, nothing in it is run', async () => {
    const g = await open({ files: documentFiles(['korean.docx', 'with-macros.docm']) });
    const r = await g.call('document.word.read', { path: 'with-macros.docm' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('# 견적서');
  });
});
