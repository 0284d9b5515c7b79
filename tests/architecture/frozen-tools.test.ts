import { cpSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFrozen } from '../../scripts/frozen-lib';

const root = resolve(__dirname, '..', '..');

describe('SPEC F-FROZEN: tools/ is frozen', () => {
  it('every tool source file matches its FROZEN.json digest and has a changelog line', () => {
    expect(checkFrozen(root)).toEqual([]);
  });

  it('detects a changed tool, a new unpinned file and a removed one', () => {
    const copy = mkdtempSync(join(tmpdir(), 'baram-frozen-'));
    try {
      cpSync(join(root, 'tools'), join(copy, 'tools'), { recursive: true });
      appendFileSync(join(copy, 'tools', 'filesystem', 'read.ts'), '\n// a quiet change\n');
      writeFileSync(join(copy, 'tools', 'filesystem', 'sneaky.ts'), 'export const x = 1;\n');
      rmSync(join(copy, 'tools', 'search', 'text.ts'));
      const problems = checkFrozen(copy);
      expect(problems).toEqual(
        expect.arrayContaining([
          { file: 'tools/filesystem/read.ts', problem: 'changed' },
          { file: 'tools/filesystem/sneaky.ts', problem: 'unpinned' },
          { file: 'tools/search/text.ts', problem: 'stale-entry' },
        ]),
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('detects a pinned digest that no changelog line explains', () => {
    const copy = mkdtempSync(join(tmpdir(), 'baram-frozen-'));
    try {
      cpSync(join(root, 'tools'), join(copy, 'tools'), { recursive: true });
      writeFileSync(join(copy, 'tools', 'CHANGELOG.md'), '# tools/ changelog\n');
      expect(checkFrozen(copy)).toContainEqual({ file: 'tools/filesystem/read.ts', problem: 'no-changelog-line' });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
