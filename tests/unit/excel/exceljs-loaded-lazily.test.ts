import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * exceljs is loaded when an excel tool runs (tools/kit/exceljs.ts), never when the registry
 * loads: a static value import anywhere under tools/ would put ~1 MB of parsing on every start.
 */
const TOOLS = join(__dirname, '..', '..', '..', 'tools');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('exceljs', () => {
  it('is imported for types only, and loaded with a dynamic import', () => {
    const valueImports = sources(TOOLS).filter((file) => /^import\s+(?!type\b)[^;]*from\s+'exceljs'/m.test(readFileSync(file, 'utf8')));
    expect(valueImports).toEqual([]);
    expect(readFileSync(join(TOOLS, 'kit', 'exceljs.ts'), 'utf8')).toContain("import('exceljs')");
  });
});
