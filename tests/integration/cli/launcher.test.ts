import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCatalog } from '../../../electron/main/gate/catalog';

/**
 * The `baram` launcher (docs/2026-12-03-cli-ships-built.md): bin/baram.mjs runs the JavaScript that
 * scripts/build-cli.mjs writes to out/cli (npm's `prepare`, so `npm ci` builds it) and falls back to
 * the TypeScript sources, saying so, when that build is missing or older than a source. The build
 * is checked in a project folder of its own that holds only what an installation needs besides it
 * (package.json, node_modules, bin/): nothing there could run but the bundle.
 */
const REPO = resolve(__dirname, '..', '..', '..');
const RUNS_BUNDLE = 'baram: running out/cli/baram.js';
const FALLBACK = /^baram: out\/cli is (not built|older than \S+); running the TypeScript sources \(slower start; `npm run build:cli` makes it fast\)$/m;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { env: { ...process.env, BARAM_CLI: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const node = (args: readonly string[], env?: NodeJS.ProcessEnv) => run(process.execPath, args, env);

interface BuildInfo {
  readonly builtAt: number;
  readonly sources: readonly string[];
}

/** The launcher's own rule, restated: the build is current when no source it lists changed after it. */
function currentBuild(project: string): BuildInfo | null {
  const infoFile = join(project, 'out', 'cli', 'build-info.json');
  if (!existsSync(infoFile) || !existsSync(join(project, 'out', 'cli', 'baram.js'))) return null;
  const info = JSON.parse(readFileSync(infoFile, 'utf8')) as BuildInfo;
  const stale = info.sources.some((s) => existsSync(join(project, s)) && statSync(join(project, s)).mtimeMs > info.builtAt);
  return stale ? null : info;
}

let base: string;
let project: string;
beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'baram-launcher-')));
  project = join(base, 'baram');
  mkdirSync(join(project, 'bin'), { recursive: true });
  for (const f of ['baram', 'baram.mjs', 'baram.cmd']) copyFileSync(join(REPO, 'bin', f), join(project, 'bin', f));
  copyFileSync(join(REPO, 'package.json'), join(project, 'package.json'));
  // better-sqlite3 and ssh2 stay outside the bundle, loaded from node_modules as in an installation.
  symlinkSync(join(REPO, 'node_modules'), join(project, 'node_modules'), 'dir');
  const built = await node([join(REPO, 'scripts', 'build-cli.mjs'), '--outdir', join(project, 'out', 'cli')]);
  expect(built.stderr).toBe('');
  expect(built.code).toBe(0);
}, 120_000);
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('the baram launcher and its build', () => {
  it('npm ci builds out/cli: `prepare` (which npm ci runs after installing) is scripts/build-cli.mjs, and so is build:cli', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> };
    expect(pkg.scripts['prepare']).toBe('node scripts/build-cli.mjs');
    expect(pkg.scripts['build:cli']).toBe('node scripts/build-cli.mjs');
    expect(pkg.bin['baram']).toBe('bin/baram.mjs');
  });

  it('the build runs on its own: --help, --version and tools --json from a folder without the TypeScript sources', async () => {
    expect(existsSync(join(project, 'electron'))).toBe(false);
    const launcher = join(project, 'bin', 'baram.mjs');
    const help = await node([launcher, '--help'], { BARAM_DEBUG: '1' });
    expect(help.code).toBe(0);
    expect(help.stderr.trim()).toBe(RUNS_BUNDLE);
    expect(help.stdout).toMatch(/^baram — 바람 command line\n/);
    expect(help.stdout).toContain('baram tools [--json]');

    const version = await node([launcher, '--version']);
    expect(version.stdout).toBe(`${(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version}\n`);

    // The same catalog as the sources' registry, schemas and all.
    const tools = await node([launcher, 'tools', '--json']);
    expect(tools.stderr).toBe('');
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.stdout)).toEqual(JSON.parse(JSON.stringify(toolCatalog())));
  });

  it('calls through the build reach the packages it loads on first use (iconv-lite: CP949, re2js: a regex)', async () => {
    const ws = join(base, 'ws');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'cp949.txt'), Buffer.from([0xbe, 0xc8, 0xb3, 0xe7, 0xc7, 0xcf, 0xbc, 0xbc, 0xbf, 0xe4, 0x0a])); // 안녕하세요
    const launcher = join(project, 'bin', 'baram.mjs');
    const common = ['--workspace', ws, '--data-dir', join(base, 'data'), '--approve', 'none', '--lang', 'en'];
    const read = await node([launcher, 'call', 'filesystem.read', '{"path":"cp949.txt"}', ...common]);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ outcome: 'ok', text: expect.stringContaining('안녕하세요') });
    const search = await node([launcher, 'call', 'search.text', '{"pattern":"안녕(하|히)세요"}', ...common]);
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout)).toMatchObject({ outcome: 'ok', text: expect.stringContaining('cp949.txt:1:안녕하세요') });
  }, 60_000);

  it.skipIf(process.platform === 'win32')('bin/baram (the sh launcher) runs the same, also through a symlink', async () => {
    const link = join(base, 'baram-link');
    symlinkSync(join(project, 'bin', 'baram'), link);
    const r = await run(link, ['--help'], { BARAM_DEBUG: '1' });
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe(RUNS_BUNDLE);
    expect(r.stdout).toContain('baram call TOOL');
  });

  it('a build older than a source it was made from is not run: the sources are, with a one-line note on stderr', async () => {
    // A copy whose sources are the repository's (all older than the build) and whose build claims an earlier time.
    const stale = join(base, 'stale');
    // bin/ is copied, not linked: the launcher finds its project from its real path.
    mkdirSync(join(stale, 'bin'), { recursive: true });
    copyFileSync(join(project, 'bin', 'baram.mjs'), join(stale, 'bin', 'baram.mjs'));
    for (const entry of ['package.json', 'node_modules']) symlinkSync(join(project, entry), join(stale, entry));
    for (const entry of ['electron', 'tools']) symlinkSync(join(REPO, entry), join(stale, entry), 'dir');
    mkdirSync(join(stale, 'out', 'cli'), { recursive: true });
    for (const f of readdirSync(join(project, 'out', 'cli'))) copyFileSync(join(project, 'out', 'cli', f), join(stale, 'out', 'cli', f));
    const info = JSON.parse(readFileSync(join(stale, 'out', 'cli', 'build-info.json'), 'utf8')) as BuildInfo;
    writeFileSync(join(stale, 'out', 'cli', 'build-info.json'), JSON.stringify({ ...info, builtAt: 0 }));

    const r = await node([join(stale, 'bin', 'baram.mjs'), '--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(FALLBACK);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toContain('baram tools [--json]');

    // No build at all: the same fallback.
    rmSync(join(stale, 'out', 'cli', 'build-info.json'));
    const none = await node([join(stale, 'bin', 'baram.mjs'), '--version']);
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/out\/cli is not built/);
  }, 60_000);

  it("this checkout's launcher runs its build when that is current (always in CI, right after npm ci), and it is what build-cli makes", async () => {
    const info = currentBuild(REPO);
    // CI runs `npm ci` then `npm test` in a fresh clone: prepare must have left a current build.
    if (process.env['CI']) expect(info, 'npm ci should have built out/cli (npm run build:cli)').not.toBeNull();
    const r = await node([join(REPO, 'bin', 'baram.mjs'), '--help'], { BARAM_DEBUG: '1' });
    expect(r.code).toBe(0);
    if (info === null) {
      // A working copy edited since its last build: the sources run, and the user is told how to speed it up.
      expect(r.stderr).toMatch(FALLBACK);
      return;
    }
    expect(r.stderr.trim()).toBe(RUNS_BUNDLE);
    // Same sources, same output: the build is reproducible (chunk names are content hashes).
    const files = (dir: string) => readdirSync(dir).filter((f) => f !== 'build-info.json').sort();
    const ours = join(REPO, 'out', 'cli');
    const fresh = join(project, 'out', 'cli');
    expect(files(ours)).toEqual(files(fresh));
    for (const f of files(ours)) expect(readFileSync(join(ours, f), 'utf8'), f).toBe(readFileSync(join(fresh, f), 'utf8'));
  });
});
