import { existsSync, readdirSync } from 'node:fs';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/**
 * Issue 15 item 1: names written decomposed (NFD, by a Mac or a zip file) are found by what a
 * keyboard types (NFC) on every file tool, keep their real name on disk, and read composed in
 * results. Two names that differ only in normalisation are refused as ambiguous.
 */

const open = useTestGate();

const nfd = (s: string) => s.normalize('NFD');
const nfc = (s: string) => s.normalize('NFC');
const LEAVE = '휴가계.hwp';
const FOLDER = '다운로드';

describe('NFD names found by NFC input', () => {
  it('filesystem.search and filesystem.list patterns find an NFD name; results show it composed', async () => {
    const g = await open({ files: { [`${nfd(FOLDER)}/${nfd(LEAVE)}`]: 'hwp', 'readme.txt': 'x' } });
    const found = await g.call('filesystem.search', { namePattern: '휴가*' });
    expect(found.outcome).toBe('ok');
    expect(found.text).toContain(`${FOLDER}/${LEAVE}`);
    const word = await g.call('filesystem.search', { namePattern: '휴가' });
    expect(word.text).toContain(LEAVE);
    const listed = await g.call('filesystem.list', { path: FOLDER, pattern: '휴가*' });
    expect(listed.outcome).toBe('ok');
    expect(listed.text).toContain(LEAVE);
    const all = await g.call('filesystem.list', { path: FOLDER });
    expect(all.text).toContain(LEAVE);
    expect(all.text).not.toContain(nfd(LEAVE));
    const content = await g.call('search.text', { pattern: 'hwp', glob: '휴가*' });
    expect(content.text).toContain(LEAVE);
  });

  it('info, read, move, copy and delete on an NFC path act on the NFD file, which keeps its name', async () => {
    const g = await open({ files: { [`${nfd(FOLDER)}/${nfd(LEAVE)}`]: '휴가 신청\n', [`${nfd(FOLDER)}/${nfd('명단.txt')}`]: 'a\n' } });
    const info = await g.call('filesystem.info', { path: `${FOLDER}/${LEAVE}` });
    expect(info.outcome).toBe('ok');
    expect(info.text).toContain(`${FOLDER}/${LEAVE}`);
    const read = await g.call('filesystem.read', { path: `${FOLDER}/${LEAVE}` });
    expect(read.text).toContain('휴가 신청');

    const copied = await g.call('filesystem.copy', { from: `${FOLDER}/명단.txt`, to: '사본.txt' });
    expect(copied.outcome).toBe('ok');
    expect(await readFile(join(g.workspace, '사본.txt'), 'utf8')).toBe('a\n');

    const moved = await g.call('filesystem.move', { from: `${FOLDER}/${LEAVE}`, to: '2024/' });
    expect(moved.outcome).toBe('ok');
    // The approval shows the absolute path composed, as typed, not as jamo.
    const approval = g.approvals.find((a) => a.tool === 'filesystem.move')!;
    expect(approval.targets.map((t) => t.absolutePath)).toContain(join(g.workspace, FOLDER, LEAVE));
    expect(JSON.stringify(approval.targets)).not.toContain(nfd(LEAVE));
    // Moved into the new folder under its real (decomposed) name: nothing renamed behind the user's back.
    expect(readdirSync(join(g.workspace, '2024'))).toEqual([nfd(LEAVE)]);

    const deleted = await g.call('filesystem.delete', { path: `${FOLDER}/명단.txt` });
    expect(deleted.outcome).toBe('ok');
    expect(existsSync(join(g.workspace, nfd(FOLDER), nfd('명단.txt')))).toBe(false);
  });

  it('a new name typed in NFC meets the NFD file already there: no second, look-alike file', async () => {
    const g = await open({ files: { [nfd(LEAVE)]: 'old' } });
    const write = await g.call('filesystem.write', { path: LEAVE, content: 'new' });
    expect(write.outcome).toBe('refused');
    expect(write.text).toContain('already exists');
    expect(readdirSync(g.workspace)).toEqual([nfd(LEAVE)]);
  });

  it('two names that differ only in normalisation are refused as ambiguous, whichever is typed', async () => {
    const g = await open({ files: { [nfc(LEAVE)]: 'mine', [nfd(LEAVE)]: 'planted' } });
    for (const typed of [nfc(LEAVE), nfd(LEAVE)]) {
      const info = await g.call('filesystem.info', { path: typed });
      expect(info.outcome).toBe('refused');
      expect(info.text).toContain('differ only in how the letters are encoded');
      expect(info.text).toContain('Rename one of them');
      const moved = await g.call('filesystem.move', { from: typed, to: 'elsewhere' });
      expect(moved.outcome).toBe('refused');
      const deleted = await g.call('filesystem.delete', { path: typed });
      expect(deleted.outcome).toBe('refused');
    }
    expect(g.approvals).toHaveLength(0);
    expect(readdirSync(g.workspace).sort()).toEqual([nfc(LEAVE), nfd(LEAVE)].sort());
    // A pattern that takes in either is refused the same way (and names the file relative to the
    // workspace); a plain listing shows both, so the person can see why.
    const search = await g.call('filesystem.search', { namePattern: '휴가*' });
    expect(search.text).toContain(`like '${LEAVE}'`);
    const move = await g.call('filesystem.move', { from: '*.hwp', to: 'elsewhere' });
    expect(move.outcome).toBe('refused');
    expect(move.text).toContain('Rename one of them');
    const listed = await g.call('filesystem.list', { path: '.' });
    expect(listed.text).toContain("Folder '.': 0 folders, 2 files");
  });

  it('a link reached through a respelled name is refused: the permission layer judged the typed spelling', async () => {
    const g = await open({ files: { '비밀/a.txt': 'secret', '공개/b.txt': 'open' }, policy: { rules: { deny: ['filesystem.*(**/비밀/**)'] } } });
    await symlink(join(g.workspace, '비밀'), join(g.workspace, nfd('바로가기')));
    const r = await g.call('filesystem.read', { path: '바로가기/a.txt' });
    expect(r.outcome).toBe('refused');
    expect(r.text).not.toContain('secret');
    // Spelled as on disk, the permission layer follows the link and the deny rule holds.
    const exact = await g.call('filesystem.read', { path: `${nfd('바로가기')}/a.txt` });
    expect(exact.outcome).toBe('denied');
  });

  it('a folder whose name differs only in normalisation from a sibling is ambiguous for paths below it', async () => {
    const g = await open({ files: { [`${nfc(FOLDER)}/a.txt`]: 'a', [`${nfd(FOLDER)}/b.txt`]: 'b' } });
    const r = await g.call('filesystem.read', { path: `${FOLDER}/a.txt` });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('Rename one of them');
  });
});
