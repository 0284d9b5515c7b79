import { appendFile, readFile, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { useTestGate, type TestGate } from '../../helpers/gate-harness';

/** filesystem.write and filesystem.edit through the real gate (approvals answered by the test). */

const open = useTestGate();

const BOM = [0xef, 0xbb, 0xbf];
const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];
const bytesOf = async (g: TestGate, rel: string): Promise<number[]> => [...(await readFile(join(g.workspace, rel)))];
const textOf = async (g: TestGate, rel: string): Promise<string> => readFile(join(g.workspace, rel), 'utf8');

describe('filesystem.write', () => {
  it('creates a new file after one approval that previews the content', async () => {
    const g = await open();
    const r = await g.call('filesystem.write', { path: '메모/오늘.txt', content: '할 일\n1. 보고서\n' });
    expect(r.outcome).toBe('ok');
    expect(await textOf(g, '메모/오늘.txt')).toBe('할 일\n1. 보고서\n');
    expect(g.approvals).toHaveLength(1);
    const request = g.approvals[0]!;
    // The missing folder is created too, and the approval lists it.
    expect(request.targets).toMatchObject([
      { path: '메모', exists: false },
      { path: '메모/오늘.txt', exists: false },
    ]);
    expect(request.preview).toContain('+1. 보고서');
    expect(request.summary.en).toContain("'메모/오늘.txt'");
  });

  it('refuses to replace an existing file without overwrite, before asking anyone', async () => {
    const g = await open({ files: { 'a.txt': 'old' } });
    const r = await g.call('filesystem.write', { path: 'a.txt', content: 'new' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('overwrite: true');
    expect(g.approvals).toHaveLength(0);
    expect(await textOf(g, 'a.txt')).toBe('old');
  });

  it('overwrites with overwrite: true and shows a diff', async () => {
    const g = await open({ files: { 'a.txt': 'one\ntwo\nthree\n' } });
    const r = await g.call('filesystem.write', { path: 'a.txt', content: 'one\nTWO\nthree\n', overwrite: true });
    expect(r.outcome).toBe('ok');
    expect(g.approvals[0]!.preview).toContain('-two\n+TWO');
    expect(g.approvals[0]!.targets).toMatchObject([{ path: 'a.txt', exists: true }]);
    expect(await textOf(g, 'a.txt')).toBe('one\nTWO\nthree\n');
  });

  it('keeps the encoding and CRLF line endings of a CP949 file it overwrites', async () => {
    const g = await open({ files: { 'old.txt': iconv.encode('가나다\r\n', 'cp949') } });
    const r = await g.call('filesystem.write', { path: 'old.txt', content: '똠방각하\n둘째\n', overwrite: true });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('CP949');
    expect(await bytesOf(g, 'old.txt')).toEqual([...iconv.encode('똠방각하\r\n둘째\r\n', 'cp949')]);
  });

  it('writes new CSV files with a UTF-8 BOM so Korean Excel reads them', async () => {
    const g = await open();
    await g.call('filesystem.write', { path: '명단.csv', content: '이름,부서\n김철수,총무\n' });
    expect(await bytesOf(g, '명단.csv')).toEqual([...BOM, ...utf8('이름,부서\n김철수,총무\n')]);
  });

  it('refuses a write that changes nothing, and a folder as target', async () => {
    const g = await open({ files: { 'a.txt': 'same\n', 'dir/x.txt': 'x' } });
    const same = await g.call('filesystem.write', { path: 'a.txt', content: 'same\n', overwrite: true });
    expect(same.outcome).toBe('refused');
    expect(same.text).toContain('already has exactly this content');
    const dir = await g.call('filesystem.write', { path: 'dir', content: 'x', overwrite: true });
    expect(dir.outcome).toBe('refused');
    expect(dir.text).toContain('folder');
    expect(g.approvals).toHaveLength(0);
  });

  it('does not write when the user declines', async () => {
    const g = await open({ approve: () => ({ choice: 'deny', approver: 'test', reason: '아직 아님' }) });
    const r = await g.call('filesystem.write', { path: 'a.txt', content: 'x' });
    expect(r.outcome).toBe('denied');
    await expect(stat(join(g.workspace, 'a.txt'))).rejects.toThrow();
  });

  it('does not overwrite a file that changed after approval', async () => {
    const g = await open({
      files: { 'a.txt': 'v1\n' },
      approve: async () => {
        await appendFile(join(g.workspace, 'a.txt'), 'someone else\n');
        return { choice: 'allow-once', approver: 'test' };
      },
    });
    const r = await g.call('filesystem.write', { path: 'a.txt', content: 'v2\n', overwrite: true });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('The targets changed after approval, so nothing was done: a.txt');
    expect(await textOf(g, 'a.txt')).toBe('v1\nsomeone else\n');
  });
});

describe('filesystem.edit', () => {
  it('replaces exactly one occurrence after an approval showing a diff', async () => {
    const g = await open({ files: { '보고서.txt': '제목: 초안\n본문\n끝\n' } });
    const r = await g.call('filesystem.edit', { path: '보고서.txt', oldText: '제목: 초안', newText: '제목: 최종' });
    expect(r.outcome).toBe('ok');
    expect(await textOf(g, '보고서.txt')).toBe('제목: 최종\n본문\n끝\n');
    expect(g.approvals).toHaveLength(1);
    expect(g.approvals[0]!.preview).toContain('-제목: 초안\n+제목: 최종');
    expect(g.approvals[0]!.preview).toMatch(/^@@ -1,3 \+1,3 @@/);
  });

  it('refuses when oldText is missing, before approval, pointing to filesystem.read', async () => {
    const g = await open({ files: { 'a.txt': 'alpha\nbeta\n' } });
    const r = await g.call('filesystem.edit', { path: 'a.txt', oldText: 'gamma', newText: 'x' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('filesystem.read');
    expect(g.approvals).toHaveLength(0);
  });

  it('hints at whitespace when only spaces or line breaks differ', async () => {
    const g = await open({ files: { 'a.txt': 'alpha  beta\n' } });
    const r = await g.call('filesystem.edit', { path: 'a.txt', oldText: 'alpha beta', newText: 'x' });
    expect(r.text).toContain('spaces or line breaks differ');
  });

  it('refuses several occurrences naming their lines, and replaceAll changes them all', async () => {
    const g = await open({ files: { 'a.txt': 'x = 1\ny = 2\nx = 1\n' } });
    const refused = await g.call('filesystem.edit', { path: 'a.txt', oldText: 'x = 1', newText: 'x = 3' });
    expect(refused.outcome).toBe('refused');
    expect(refused.text).toContain('occurs 2 times');
    expect(refused.text).toContain('lines 1, 3');
    expect(refused.text).toContain('replaceAll: true');
    const all = await g.call('filesystem.edit', { path: 'a.txt', oldText: 'x = 1', newText: 'x = 3', replaceAll: true });
    expect(all.outcome).toBe('ok');
    expect(all.text).toContain('Changed 2 place(s)');
    expect(await textOf(g, 'a.txt')).toBe('x = 3\ny = 2\nx = 3\n');
  });

  it('keeps a UTF-8 BOM and CRLF line endings when the model sends LF', async () => {
    const g = await open({ files: { 'win.txt': Uint8Array.from([...BOM, ...utf8('하나\r\n둘\r\n셋\r\n')]) } });
    const r = await g.call('filesystem.edit', { path: 'win.txt', oldText: '둘\n셋', newText: '둘!\n셋!\n넷' });
    expect(r.outcome).toBe('ok');
    expect(await bytesOf(g, 'win.txt')).toEqual([...BOM, ...utf8('하나\r\n둘!\r\n셋!\r\n넷\r\n')]);
  });

  it('keeps CP949, and refuses characters CP949 cannot store', async () => {
    const g = await open({ files: { 'cp.txt': iconv.encode('가나다\r\n똠\r\n', 'cp949') } });
    const ok = await g.call('filesystem.edit', { path: 'cp.txt', oldText: '똠', newText: '똠방각하' });
    expect(ok.outcome).toBe('ok');
    expect(await bytesOf(g, 'cp.txt')).toEqual([...iconv.encode('가나다\r\n똠방각하\r\n', 'cp949')]);
    const emoji = await g.call('filesystem.edit', { path: 'cp.txt', oldText: '가나다', newText: '가나다 😀' });
    expect(emoji.outcome).toBe('refused');
    expect(emoji.text).toContain('CP949');
    expect(await bytesOf(g, 'cp.txt')).toEqual([...iconv.encode('가나다\r\n똠방각하\r\n', 'cp949')]);
  });

  it('keeps UTF-16 LE with its BOM', async () => {
    const g = await open({ files: { 'u16.txt': Uint8Array.from([0xff, 0xfe, ...iconv.encode('안녕\n', 'utf16le')]) } });
    await g.call('filesystem.edit', { path: 'u16.txt', oldText: '안녕', newText: '반가워' });
    expect(await bytesOf(g, 'u16.txt')).toEqual([0xff, 0xfe, ...iconv.encode('반가워\n', 'utf16le')]);
  });

  it('refuses a file whose bytes would not survive re-encoding', async () => {
    // Valid UTF-8 except for one stray byte in the middle: decoding falls back to CP949 with a
    // replacement character, and writing that back would damage the file.
    const g = await open({ files: { 'bad.txt': Uint8Array.from([...utf8('가나\n'), 0xff, ...utf8('\n다\n')]) } });
    const r = await g.call('filesystem.edit', { path: 'bad.txt', oldText: '다', newText: '라' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('filesystem.write');
  });

  it('reports a file that changed after approval and leaves it alone', async () => {
    const g = await open({
      files: { 'a.txt': 'keep\nchange me\n' },
      approve: async () => {
        await appendFile(join(g.workspace, 'a.txt'), 'added later\n');
        return { choice: 'allow-once', approver: 'test' };
      },
    });
    const r = await g.call('filesystem.edit', { path: 'a.txt', oldText: 'change me', newText: 'changed' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('The targets changed after approval, so nothing was done: a.txt');
    expect(await textOf(g, 'a.txt')).toBe('keep\nchange me\nadded later\n');
  });

  it('reads through a symlink inside the workspace but refuses to edit or overwrite it', async () => {
    const g = await open({ files: { 'real.txt': 'line one\nline two\n' } });
    await symlink('real.txt', join(g.workspace, 'link.txt'));
    const read = await g.call('filesystem.read', { path: 'link.txt' });
    expect(read.text).toBe('line one\nline two');
    const edited = await g.call('filesystem.edit', { path: 'link.txt', oldText: 'two', newText: '2' });
    expect(edited.outcome).toBe('refused');
    expect(edited.text).toContain('not a regular file');
    const written = await g.call('filesystem.write', { path: 'link.txt', content: 'x', overwrite: true });
    expect(written.outcome).toBe('refused');
    expect(await textOf(g, 'real.txt')).toBe('line one\nline two\n');
    expect(g.approvals).toHaveLength(0);
  });

  it('speaks Korean in a Korean session', async () => {
    const g = await open({ files: { 'a.txt': 'x\nx\n' }, lang: 'ko' });
    const r = await g.call('filesystem.edit', { path: 'a.txt', oldText: 'x', newText: 'y' });
    expect(r.text).toContain('2번 나옵니다');
    expect(r.text).toContain('replaceAll: true');
  });
});
