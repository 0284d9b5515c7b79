import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TreeScanModule } from '../../electron/common/file-access';
import { metaCsp } from '../../electron/main/app/csp';
import { createPathRules } from '../../electron/main/host/files';
import { Confiner } from '../../electron/main/host/files/confine';
import { readTreeConfined } from '../../electron/main/host/files/read-tree';
import { TreeReaderPool } from '../../electron/main/host/files/tree-reader-pool';

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

// The native module of the tree reader, as scripts/build-native.mjs leaves it.
const TREE_IO = 'native/tree-io/build/Release/tree_io.node';
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
  if (existsSync(join(root, TREE_IO))) cpSync(join(root, TREE_IO), join(project, TREE_IO));
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
}, 120_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

/** What a standalone bundle imports besides node builtins and runtime dependencies: a chunk of ours, or electron. */
function foreignImports(file: string): string[] {
  const deps = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  const imported = [...readFileSync(file, 'utf8').matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
  const builtin = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  return imported.filter((s) => !builtin.has(s) && !deps.includes(s));
}

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

  it('the file-reading worker is one ES module beside index.js that reads a tree when started', async () => {
    const file = join(project, 'out', 'main', 'tree-reader-worker.js');
    expect(foreignImports(file)).toEqual([]);
    // Started as tree-reader-pool.ts starts it in the desktop app (there: beside index.js).
    const ws = mkdtempSync(join(tmpdir(), 'baram-worker-ws-'));
    const pool = new TreeReaderPool({ entry: pathToFileURL(file) });
    try {
      for (let i = 0; i < 200; i++) writeFileSync(join(ws, `f${String(i).padStart(3, '0')}.txt`), `line ${i}\n`);
      const confiner = new Confiner({ rules: createPathRules({ platform: process.platform, home: ws }), realRoots: [realpathSync(ws)], lexicalRoots: [ws], protectedPaths: [] });
      const texts: string[] = [];
      for await (const f of readTreeConfined(confiner, '.', { windowBytes: 1024 }, { ignoreCase: false, maxReadBytes: 1 << 20 }, { pool })) {
        texts.push(f.ok ? Buffer.from(f.bytes).toString('utf8') : f.code);
      }
      expect(texts).toEqual(Array.from({ length: 200 }, (_, i) => `line ${i}\n`));
      expect(pool.disabled).toBe(false);
      expect(pool.workers).toBe(1);
    } finally {
      await pool.close();
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it("search.text's scanner is one ES module beside index.js that the reading worker can load", async () => {
    const file = join(project, 'out', 'main', 'search-tree-scan.js');
    expect(foreignImports(file)).toEqual([]);
    const loaded = (await import(pathToFileURL(file).href)) as TreeScanModule;
    const scanner = loaded.createTreeScanner({ pattern: '개인정보', ignoreCase: false, fixedString: true, maxHits: 10 });
    const bytes = Buffer.from('회의록\n개인정보 처리 방침\n');
    const found = scanner.scan({ ok: true, path: '/w/a.txt', size: bytes.length, bytes, complete: true, utf8: true, ascii: false });
    expect(found).toEqual(['2:개인정보 처리 방침']);
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

  it.runIf(process.platform === 'linux')('puts the native tree-io module beside app.asar, unpacked, where tree-io.ts looks for it', () => {
    expect(existsSync(join(appDir(), 'resources', 'app.asar.unpacked', TREE_IO))).toBe(true);
    expect(asarFiles(join(appDir(), 'resources', 'app.asar'))).toContain(TREE_IO); // listed, marked unpacked
  });

  it('puts the bundles in app.asar and the run-time resources beside it', () => {
    const files = asarFiles(join(appDir(), 'resources', 'app.asar'));
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'out/main/index.js', 'out/main/tree-reader-worker.js', 'out/main/search-tree-scan.js', 'out/preload/index.cjs', 'out/renderer/index.html']),
    );
    expect(files.filter((f) => f.startsWith('electron/') || f.startsWith('renderer/') || f.startsWith('tests/') || f.endsWith('.map'))).toEqual([]);
    for (const file of readdirSync(join(root, 'resources'))) {
      expect(existsSync(join(appDir(), 'resources', 'resources', file))).toBe(true);
    }
  });
});
