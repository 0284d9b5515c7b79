import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Runs a real vitest on throw-away test files with the summary reporter registered the way
 * vitest.config.ts registers it, and reads the last line the way .ci/run's reader would.
 */
const root = resolve(__dirname, '..', '..');
const run = promisify(execFile);
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function lastLineOf(files: Readonly<Record<string, string>>): Promise<{ lastLine: string; exitCode: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'baram-reporter-'));
  dirs.push(dir);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const reporter = JSON.stringify(join(root, 'tests', 'reporters', 'summary-line.ts'));
  writeFileSync(
    join(dir, 'vitest.config.mts'),
    `export default { test: { include: ['*.test.ts'], reporters: ['default', ${reporter}] } };\n`,
  );
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);

  const args = [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'];
  const env = { ...process.env, CI: 'true', NO_COLOR: '1' };
  const result = await run(process.execPath, args, { cwd: dir, env }).then(
    (r) => ({ stdout: r.stdout, exitCode: 0 }),
    (e: { stdout: string; code: number }) => ({ stdout: e.stdout, exitCode: e.code }),
  );
  const lines = result.stdout.trimEnd().split('\n');
  return { lastLine: lines[lines.length - 1]!, exitCode: result.exitCode };
}

const header = `import { describe, expect, it } from 'vitest';\n`;

describe('summary-line reporter', () => {
  it('ends a green run with "N passed, 0 failed"', async () => {
    const { lastLine, exitCode } = await lastLineOf({
      'green.test.ts': `${header}it('a', () => expect(1).toBe(1));\nit('b', () => expect(2).toBe(2));\n`,
    });
    expect(exitCode).toBe(0);
    expect(lastLine).toBe('2 passed, 0 failed');
  });

  it('counts failed and skipped tests, and a file that cannot load as a failure', async () => {
    const { lastLine, exitCode } = await lastLineOf({
      'mixed.test.ts': `${header}describe('m', () => {\n  it('ok', () => expect(1).toBe(1));\n  it('bad', () => expect(1).toBe(2));\n  it.skip('later', () => {});\n});\n`,
      'broken.test.ts': `${header}import './no-such-module';\nit('never runs', () => {});\n`,
    });
    expect(exitCode).toBe(1);
    expect(lastLine).toBe('1 passed, 2 failed, 1 skipped');
  });
});
