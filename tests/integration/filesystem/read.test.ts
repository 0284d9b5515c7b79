import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/** filesystem.read through the real gate and the real host file access, on a temp workspace. */

const open = useTestGate();

const bytes = (...parts: (number[] | Uint8Array)[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
const numbered = (n: number, width = 0): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`.padEnd(width, '.')).join('\n') + '\n';

describe('filesystem.read decodes office encodings', () => {
  it('reads UTF-8 with Korean file and folder names, as is', async () => {
    const g = await open({ files: { '보고서/3월 회의록.txt': '첫 줄\n둘째 줄\n' } });
    const r = await g.call('filesystem.read', { path: '보고서/3월 회의록.txt' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe('첫 줄\n둘째 줄');
    // Reading inside the workspace is allowed by default: no approval.
    expect(g.approvals).toHaveLength(0);
  });

  it('reads CP949 (including UHC syllables like 똠) written by Korean Windows', async () => {
    const g = await open({ files: { 'old.txt': iconv.encode('똠방각하 회의록\r\n둘째 줄\r\n', 'cp949') } });
    const r = await g.call('filesystem.read', { path: 'old.txt' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe('똠방각하 회의록\n둘째 줄');
    expect(r.details).toMatchObject({ encoding: 'cp949' });
  });

  it('reads UTF-16 LE and BE with BOM, and UTF-8 with BOM (BOM not shown)', async () => {
    const g = await open({
      files: {
        'le.txt': bytes([0xff, 0xfe], iconv.encode('가나다\nabc\n', 'utf16le')),
        'be.txt': bytes([0xfe, 0xff], iconv.encode('라마바\n', 'utf16be')),
        'bom.txt': bytes([0xef, 0xbb, 0xbf], new TextEncoder().encode('사아자\n')),
      },
    });
    expect((await g.call('filesystem.read', { path: 'le.txt' })).text).toBe('가나다\nabc');
    expect((await g.call('filesystem.read', { path: 'be.txt' })).text).toBe('라마바');
    expect((await g.call('filesystem.read', { path: 'bom.txt' })).text).toBe('사아자');
  });

  it('reads UTF-16 files in parts with offset and limit', async () => {
    const g = await open({ files: { 'le.txt': bytes([0xff, 0xfe], iconv.encode(numbered(10), 'utf16le')) } });
    const r = await g.call('filesystem.read', { path: 'le.txt', offset: 9, limit: 5 });
    expect(r.text).toBe('line 9\nline 10\n[lines 9–10 of 10. (end of file)]');
  });

  it('refuses binary files with a signpost to the right tool, not garbage', async () => {
    const zipLike = bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00], new Uint8Array(200));
    const g = await open({ files: { '매출.xlsx': zipLike, 'blob.bin': zipLike } });
    const xlsx = await g.call('filesystem.read', { path: '매출.xlsx' });
    expect(xlsx.outcome).toBe('error');
    // Names the tool that reads it (issue 18), which is registered (issue 15 item 6).
    expect(xlsx.text).toContain('excel.read');
    expect(xlsx.text).not.toContain('PK');
    const bin = await g.call('filesystem.read', { path: 'blob.bin' });
    expect(bin.text).toContain('filesystem.info');
  });
});

describe('filesystem.read offset and limit', () => {
  it('returns the requested lines and says how to go on', async () => {
    const g = await open({ files: { 'a.txt': numbered(10) } });
    const r = await g.call('filesystem.read', { path: 'a.txt', offset: 3, limit: 2 });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe('line 3\nline 4\n[lines 3–4 of 10. Read the next part with offset=5.]');
  });

  it('treats JSON null as absent (SPEC G-NULL)', async () => {
    const g = await open({ files: { 'a.txt': numbered(3) } });
    const r = await g.call('filesystem.read', { path: 'a.txt', offset: null, limit: null });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe('line 1\nline 2\nline 3');
  });

  it('clamps out-of-range numbers instead of rejecting them', async () => {
    const g = await open({ files: { 'a.txt': numbered(3) } });
    const r = await g.call('filesystem.read', { path: 'a.txt', offset: -5, limit: 0 });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe('line 1\n[lines 1–1 of 3. Read the next part with offset=2.]');
  });

  it('says how many lines there are when offset is past the end', async () => {
    const g = await open({ files: { 'a.txt': numbered(10) } });
    const r = await g.call('filesystem.read', { path: 'a.txt', offset: 50 });
    expect(r.outcome).toBe('error');
    expect(r.text).toContain('has only 10 lines');
  });

  it('cuts at the output budget on a line boundary, and the next offset continues exactly', async () => {
    const g = await open({ files: { 'a.txt': numbered(200, 40) }, policy: { shell: { maxOutputChars: 1000 } } });
    const first = await g.call('filesystem.read', { path: 'a.txt' });
    expect(first.text.length).toBeLessThanOrEqual(1000);
    const next = /offset=(\d+)/.exec(first.text)?.[1];
    expect(next).toBeDefined();
    const lines = first.text.split('\n');
    expect(lines[lines.length - 2]).toBe(`line ${Number(next) - 1}`.padEnd(40, '.'));
    const second = await g.call('filesystem.read', { path: 'a.txt', offset: Number(next), limit: 1 });
    expect(second.text.split('\n')[0]).toBe(`line ${next}`.padEnd(40, '.'));
  });

  it('cuts a single over-long line and says so', async () => {
    const g = await open({ files: { 'min.json': `${'x'.repeat(5000)}\nsecond\n` }, policy: { shell: { maxOutputChars: 1000 } } });
    const r = await g.call('filesystem.read', { path: 'min.json' });
    expect(r.outcome).toBe('ok');
    expect(r.text.length).toBeLessThanOrEqual(1000);
    expect(r.text).toContain('line 1 is too long');
    expect(r.text).toContain('offset=2');
  });

  it('streams big files: lines deep inside a 3 MB file, across chunk boundaries', async () => {
    const g = await open({ files: { 'big.log': numbered(300_000) } });
    const r = await g.call('filesystem.read', { path: 'big.log', offset: 150_000, limit: 3 });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe('line 150000\nline 150001\nline 150002\n[lines 150000–150002 of 300000. Read the next part with offset=150003.]');
  });

  it('reads CP949 text deep inside a big file with the file encoding', async () => {
    const body = `${'abc\n'.repeat(400_000)}똠방각하\n`;
    const g = await open({ files: { 'big.txt': iconv.encode(body, 'cp949') } });
    const r = await g.call('filesystem.read', { path: 'big.txt', offset: 400_001 });
    expect(r.text.split('\n')[0]).toBe('똠방각하');
  });
});

describe('filesystem.read refusals are signposts', () => {
  it('refuses a missing file before anything runs, pointing to filesystem.search', async () => {
    const g = await open({ lang: 'ko' });
    const r = await g.call('filesystem.read', { path: '없는파일.txt' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('filesystem.search');
    expect(r.text).toMatch(/없습니다/);
  });

  it('refuses a folder, pointing to filesystem.list', async () => {
    const g = await open({ files: { '자료/a.txt': 'x' } });
    const r = await g.call('filesystem.read', { path: '자료' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('filesystem.list');
  });

  it('does not read through a symlink that leads out of the workspace', async () => {
    const g = await open();
    await writeFile(join(g.outside, 'secret.txt'), 'TOP SECRET');
    await symlink(join(g.outside, 'secret.txt'), join(g.workspace, 'link.txt'));
    const r = await g.call('filesystem.read', { path: 'link.txt' });
    expect(['denied', 'refused', 'error']).toContain(r.outcome);
    expect(r.text).not.toContain('TOP SECRET');
  });

  it('refuses paths outside the workspace', async () => {
    const g = await open();
    const r = await g.call('filesystem.read', { path: '../../etc/passwd' });
    expect(['denied', 'refused']).toContain(r.outcome);
    expect(r.text).not.toContain('root:');
  });

  it('answers an empty file plainly, in Korean in a Korean session', async () => {
    const g = await open({ files: { 'empty.txt': '' }, lang: 'ko' });
    const r = await g.call('filesystem.read', { path: 'empty.txt' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toBe("'empty.txt'은(는) 빈 파일입니다.");
  });
});
