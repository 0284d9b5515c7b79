import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/**
 * Issue 15 item 5: a backslash in a glob is a separator, as in a path
 * (docs/2026-12-02-backslash-is-a-separator.md): `2022\IMG_*.jpg` means the IMG_ files in 2022,
 * never a silent empty result. A literal glob character is written as a class: `[*]`.
 */

const open = useTestGate();
const photos = { '2022/IMG_0001.jpg': 'a', '2022/IMG_0002.jpg': 'b', '2022/notes.txt': 'c', '2023/IMG_0003.jpg': 'd', 'star*.txt': 'e' };

describe('backslashes in globs', () => {
  it('filesystem.search and filesystem.list read 2022\\IMG_* as 2022/IMG_*', async () => {
    const g = await open({ files: photos });
    const found = await g.call('filesystem.search', { namePattern: '2022\\IMG_*.jpg' });
    expect(found.text).toContain('2 match(es)');
    expect(found.text).toContain('2022/IMG_0001.jpg');
    const listed = await g.call('filesystem.list', { path: '.', pattern: '2022\\IMG_*.jpg' });
    expect(listed.text).toContain('2022/IMG_0002.jpg');
    expect(listed.text).not.toContain('notes.txt');
  });

  it('filesystem.move takes every file the backslash glob names, in one approval', async () => {
    const g = await open({ files: photos });
    const moved = await g.call('filesystem.move', { from: '2022\\IMG_*.jpg', to: '사진\\2022' });
    expect(moved.outcome).toBe('ok');
    expect(g.approvals).toHaveLength(1);
    // The folder it creates, then each file it moves.
    expect(g.approvals[0]!.targets.map((t) => t.path)).toEqual(['사진/2022', '2022/IMG_0001.jpg', '2022/IMG_0002.jpg']);
    expect(readdirSync(join(g.workspace, '사진', '2022')).sort()).toEqual(['IMG_0001.jpg', 'IMG_0002.jpg']);
    expect(readdirSync(join(g.workspace, '2022'))).toEqual(['notes.txt']);
  });

  it('a literal glob character is written as a class, and an existing name is taken as it is', async () => {
    const g = await open({ files: photos });
    const literal = await g.call('filesystem.search', { namePattern: 'star[*].txt' });
    expect(literal.text).toContain('star*.txt');
    const deleted = await g.call('filesystem.delete', { path: 'star*.txt' });
    expect(deleted.outcome).toBe('ok');
    expect(existsSync(join(g.workspace, 'star*.txt'))).toBe(false);
  });
});
