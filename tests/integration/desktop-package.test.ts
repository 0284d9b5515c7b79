import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaCsp } from '../../electron/main/app/csp';

/**
 * Builds the desktop bundles (electron-vite) into a temp project and packages them with the real
 * electron-builder.yml and build/after-pack.cjs. The Electron binary cannot be downloaded here,
 * so the package uses a stand-in Electron distribution: a file carrying Electron's fuse sentinel
 * and wire, which is all the fuse hook reads and writes.
 */
const root = resolve(__dirname, '..', '..');
const run = promisify(execFile);
const bin = (pkg: string, file: string) => join(root, 'node_modules', pkg, file);

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'; // @electron/fuses constants.SENTINEL
const [DISABLE, ENABLE] = [0x30, 0x31];
// Fuse wire v1 as Electron ships it: runAsNode, cookieEncryption, nodeOptions, nodeCliInspect,
// asarIntegrity, onlyLoadAppFromAsar, browserProcessSnapshot, grantFileProtocolExtraPrivileges.
const SHIPPED_WIRE = [ENABLE, DISABLE, ENABLE, ENABLE, DISABLE, DISABLE, DISABLE, ENABLE];

let project = '';

function fuseWire(binary: string): number[] {
  const bytes = readFileSync(binary);
  const at = bytes.indexOf(SENTINEL) + SENTINEL.length;
  return [...bytes.subarray(at + 2, at + 2 + bytes[at + 1]!)];
}

/** File list of an asar archive: its header is JSON at byte 16, length at byte 12. */
function asarFiles(archive: string): string[] {
  const bytes = readFileSync(archive);
  const header = JSON.parse(bytes.subarray(16, 16 + bytes.readUInt32LE(12)).toString('utf8')) as AsarDir;
  const out: string[] = [];
  const walk = (dir: AsarDir, prefix: string) => {
    for (const [name, entry] of Object.entries(dir.files)) {
      if ('files' in entry) walk(entry, `${prefix}${name}/`);
      else out.push(`${prefix}${name}`);
    }
  };
  walk(header, '');
  return out;
}
interface AsarDir {
  readonly files: Record<string, AsarDir | { readonly size: number }>;
}

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'baram-package-'));
  for (const file of ['package.json', 'package-lock.json', 'electron-builder.yml']) cpSync(join(root, file), join(project, file));
  for (const dir of ['build', 'resources']) cpSync(join(root, dir), join(project, dir), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir');

  await run(process.execPath, [bin('electron-vite', 'bin/electron-vite.js'), 'build', '--outDir', join(project, 'out'), '--logLevel', 'warn'], {
    cwd: root,
  });

  const electronDist = join(project, 'electron-dist');
  mkdirSync(electronDist);
  const filler = Buffer.alloc(256, 0x41);
  writeFileSync(join(electronDist, 'electron'), Buffer.concat([filler, Buffer.from(SENTINEL), Buffer.from([1, 8, ...SHIPPED_WIRE]), filler]), { mode: 0o755 });
  await run(
    process.execPath,
    [
      bin('electron-builder', 'cli.js'),
      '--linux',
      'dir',
      '--projectDir',
      project,
      `-c.electronDist=${electronDist}`,
      // Native modules would be rebuilt against Electron headers, which an offline machine lacks.
      '-c.npmRebuild=false',
    ],
    { cwd: project, env: { ...process.env, CI: 'true' } },
  );
  // A build and a package: minutes on a loaded 2-core machine. A cap against a hang, not a target.
}, 600_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('desktop bundles (electron-vite)', () => {
  it('main is one ES module that imports only electron, node builtins and runtime dependencies', () => {
    const main = readFileSync(join(project, 'out', 'main', 'index.js'), 'utf8');
    const deps = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
    const imported = [...main.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
    expect(imported).toContain('electron');
    const builtin = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const pkgOf = (s: string) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!);
    expect(imported.filter((s) => s !== 'electron' && !builtin.has(s) && !deps.includes(pkgOf(s)))).toEqual([]);
    // A require() call, not the text "require(" inside a string (ajv's RE2 engine names its
    // standalone-code snippet in one).
    expect(main).not.toMatch(/(^|[^"'\w.])require\(/m);
  });

  it('preload is one CommonJS file that requires nothing but electron (sandbox)', () => {
    expect(readdirSync(join(project, 'out', 'preload'))).toEqual(['index.cjs']);
    const preload = readFileSync(join(project, 'out', 'preload', 'index.cjs'), 'utf8');
    expect([...preload.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1])).toEqual(['electron']);
    expect(preload).not.toMatch(/^\s*(import|export)\s/m);
    expect(preload).toContain('exposeInMainWorld("baram"');
  });

  it('renderer page keeps the CSP meta tag and loads only bundled files', () => {
    const html = readFileSync(join(project, 'out', 'renderer', 'index.html'), 'utf8');
    expect(html).toContain(`content="${metaCsp()}"`);
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toMatch(/\bsrc="\.\/assets\/[^"]+\.js"/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});

describe('package (electron-builder, stand-in Electron)', () => {
  const appDir = () => join(project, 'dist', 'linux-unpacked');

  it('flips and verifies the fuses in the executable (after-pack hook)', () => {
    const wire = fuseWire(join(appDir(), 'baram'));
    expect(wire).toEqual([DISABLE, DISABLE, DISABLE, DISABLE, ENABLE, ENABLE, DISABLE, ENABLE]);
  });

  it('puts the bundles in app.asar and the run-time resources beside it', () => {
    const files = asarFiles(join(appDir(), 'resources', 'app.asar'));
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']),
    );
    expect(files.filter((f) => f.startsWith('electron/') || f.startsWith('renderer/') || f.startsWith('tests/') || f.endsWith('.map'))).toEqual([]);
    // No native module of our own (search reads through node:fs on every platform) and no file-reading worker.
    expect(files.filter((f) => f.startsWith('native/') || f === 'out/main/tree-reader-worker.js' || f === 'out/main/search-tree-scan.js')).toEqual([]);
    for (const file of readdirSync(join(root, 'resources'))) {
      expect(existsSync(join(appDir(), 'resources', 'resources', file))).toBe(true);
    }
  });
});
