import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli';

/**
 * The `baram` command (the built out/cli when current): code.outline must find web-tree-sitter
 * and the grammar files in node_modules at run time, not in the bundle.
 */
describe('baram call code.outline / code.stats', () => {
  it('outlines a TypeScript file and counts a folder from the command line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baram-code-cli-'));
    try {
      await writeFile(join(dir, 'x.ts'), 'export class 주문 {\n  저장() {}\n}\n');
      await writeFile(join(dir, 'y.py'), '# 주석\nx = 1\n');
      const outline = await runCli(['call', 'code.outline', '{"path":"x.ts"}', '--workspace', dir, '--lang', 'en']);
      expect(outline.code).toBe(0);
      expect(outline.json<{ outcome: string; text: string }>()).toMatchObject({ outcome: 'ok', text: "'x.ts' (TypeScript, 3 lines): 2 symbols\nclass 주문  1–3\n  method 저장  2" });
      const stats = await runCli(['call', 'code.stats', '{}', '--workspace', dir, '--lang', 'en']);
      expect(stats.code).toBe(0);
      const { text } = stats.json<{ text: string }>();
      expect(text).toMatch(/^TypeScript\s+1\s+3\s+0\s+0$/m);
      expect(text).toMatch(/^Python\s+1\s+1\s+1\s+0$/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
