import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Proves every rule in .dependency-cruiser.cjs fires. A temp copy of the layout gets a clean
 * baseline (imports the design allows) plus one planted violation per rule; depcruise runs with
 * the repository's config and the folders of `npm run depcheck`, and must report exactly the
 * planted violations. A rule whose path has a typo matches nothing and passes silently in CI;
 * here it fails.
 */

const root = resolve(__dirname, '..', '..');
const run = promisify(execFile);

interface Violation {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

/** Files that only do what the design allows: depcruise must stay silent about them. */
const BASELINE: Readonly<Record<string, string>> = {
  'electron/common/base.ts': `export const base = 1;\n`,
  'electron/common/uses-base.ts': `import { base } from './base';\nexport const twice = base * 2;\n`,
  'tools/kit/kit.ts': `import { base } from '../../electron/common/base';\nimport * as jsonc from 'jsonc-parser';\nexport const kit = [base, jsonc];\n`,
  'tools/alpha/one.ts': `import { kit } from '../kit/kit';\nimport { base } from '../../electron/common/base';\nimport { helper } from './shared/helper';\nexport const one = [kit, base, helper];\n`,
  'tools/alpha/shared/helper.ts': `import { join } from 'node:path';\nexport const helper = join('a', 'b');\n`,
  'tools/beta/two.ts': `import { kit } from '../kit/kit';\nexport const two = kit;\n`,
  'tools/registry.ts': `import { one } from './alpha/one';\nimport { two } from './beta/two';\nexport const registry = [one, two];\n`,
  'tools/FROZEN.json': `{}\n`,
  'electron/main/policy/index.ts': `import { base } from '../../common/base';\nexport const policy = base;\n`,
  'electron/main/host/index.ts': `import { readFileSync } from 'node:fs';\nimport { policy } from '../policy/index';\nimport { base } from '../../common/base';\nexport const host = [readFileSync, policy, base];\n`,
  'electron/main/audit/ledger.ts': `import { base } from '../../common/base';\nexport const ledger = base;\n`,
  'electron/main/audit/index.ts': `export { ledger } from './ledger';\n`,
  'electron/main/audit/writer.ts': `export { ledger as writer } from './ledger';\n`,
  'electron/main/model/index.ts': `export const model = 1;\n`,
  'electron/main/gate/index.ts': [
    `import { registry } from '../../../tools/registry';`,
    `import frozen from '../../../tools/FROZEN.json';`,
    `import { kit } from '../../../tools/kit/kit';`,
    `import { policy } from '../policy/index';`,
    `import { ledger } from '../audit/index';`,
    `import { base } from '../../common/base';`,
    `export const gate = [registry, frozen, kit, policy, ledger, base];`,
    ``,
  ].join('\n'),
  'electron/main/mcp/index.ts': `import { host } from '../host/index';\nimport { gate } from '../gate/index';\nimport { policy } from '../policy/index';\nimport { kit } from '../../../tools/kit/kit';\nexport const mcp = [host, gate, policy, kit];\n`,
  'electron/main/runtime/session.ts': `import { host } from '../host/index';\nimport { gate } from '../gate/index';\nimport { writer } from '../audit/writer';\nimport { mcp } from '../mcp/index';\nexport const session = [host, gate, writer, mcp];\n`,
  'electron/main/agent/index.ts': `import { gate } from '../gate/index';\nimport { model } from '../model/index';\nexport const agent = [gate, model];\n`,
  'electron/main/cli/main.ts': `import { agent } from '../agent/index';\nimport { ledger } from '../audit/index';\nexport const cli = [agent, ledger];\n`,
  'electron/main/app/main.ts': `import { app } from 'electron';\nimport { agent } from '../agent/index';\nimport { twice } from '../../common/uses-base';\nexport const main = [app, agent, twice];\n`,
  'electron/preload/index.ts': `import { contextBridge } from 'electron';\nimport { base } from '../common/base';\nexport const preload = [contextBridge, base];\n`,
  'renderer/src/main.tsx': `import { createElement } from 'react';\nimport { base } from '../../electron/common/base';\nexport const page = createElement('p', null, base);\n`,
};

/** One planted violation per rule: [rule, file, source, resolved target]. */
const PLANTED: readonly (readonly [rule: string, file: string, source: string, to: string])[] = [
  ['tools-no-direct-machine-access', 'tools/alpha/reads-disk.ts', `import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n`, 'fs'],
  ['tools-no-direct-machine-access', 'tools/alpha/spawns.ts', `import { spawn } from 'node:child_process';\nexport const s = spawn;\n`, 'child_process'],
  ['tools-no-direct-machine-access', 'tools/alpha/writes-disk.ts', `import { writeFile } from 'fs/promises';\nexport const w = writeFile;\n`, 'fs/promises'],
  ['tools-no-direct-machine-access', 'tools/beta/calls-out.ts', `import { request } from 'node:https';\nexport const r = request;\n`, 'https'],
  ['tools-no-direct-machine-access', 'tools/beta/opens-socket.ts', `import { connect } from 'net';\nexport const c = connect;\n`, 'net'],
  ['electron-only-in-app-and-preload', 'tools/beta/uses-electron.ts', `import { shell } from 'electron';\nexport const s = shell;\n`, 'electron'],
  ['tool-family-no-other-family', 'tools/alpha/borrows.ts', `import { two } from '../beta/two';\nexport const b = two;\n`, 'tools/beta/two.ts'],
  ['common-no-node-builtins', 'electron/common/uses-path.ts', `import { join } from 'node:path';\nexport const j = join;\n`, 'path'],
  ['common-imports-nothing-internal', 'electron/common/reaches-up.ts', `import { policy } from '../main/policy/index';\nexport const p = policy;\n`, 'electron/main/policy/index.ts'],
  ['renderer-only-common', 'renderer/src/reaches-main.ts', `import { policy } from '../../electron/main/policy/index';\nexport const p = policy;\n`, 'electron/main/policy/index.ts'],
  ['renderer-no-node-builtins', 'renderer/src/uses-os.ts', `import { hostname } from 'node:os';\nexport const h = hostname;\n`, 'os'],
  ['registry-only-from-gate', 'electron/main/policy/lists-tools.ts', `import { registry } from '../../../tools/registry';\nexport const r = registry;\n`, 'tools/registry.ts'],
  ['tool-families-only-via-registry', 'electron/main/policy/reaches-family.ts', `import { one } from '../../../tools/alpha/one';\nexport const o = one;\n`, 'tools/alpha/one.ts'],
  ['electron-only-in-app-and-preload', 'electron/main/host/uses-electron.ts', `import { app } from 'electron';\nexport const a = app;\n`, 'electron'],
  ['electron-only-in-app-and-preload', 'renderer/src/uses-electron.ts', `import { ipcRenderer } from 'electron';\nexport const i = ipcRenderer;\n`, 'electron'],
  ['kit-only-common', 'tools/kit/reaches-family.ts', `import { one } from '../alpha/one';\nexport const o = one;\n`, 'tools/alpha/one.ts'],
  ['tools-no-main-preload-renderer', 'tools/beta/reaches-host.ts', `import { host } from '../../electron/main/host/index';\nexport const h = host;\n`, 'electron/main/host/index.ts'],
  ['host-only-from-runtime', 'tools/beta/reaches-host.ts', '', 'electron/main/host/index.ts'],
  ['host-only-from-runtime', 'electron/main/gate/reaches-host.ts', `import { host } from '../host/index';\nexport const h = host;\n`, 'electron/main/host/index.ts'],
  ['gate-allowed-imports', 'electron/main/gate/reaches-host.ts', '', 'electron/main/host/index.ts'],
  ['host-only-from-runtime', 'electron/main/cli/reaches-host.ts', `import { host } from '../host/index';\nexport const h = host;\n`, 'electron/main/host/index.ts'],
  ['family-not-registry', 'tools/beta/reaches-registry.ts', `import { registry } from '../registry';\nexport const r = registry;\n`, 'tools/registry.ts'],
  ['registry-only-from-gate', 'tools/beta/reaches-registry.ts', '', 'tools/registry.ts'],
  ['host-only-common-and-policy', 'electron/main/host/reaches-gate.ts', `import { gate } from '../gate/index';\nexport const g = gate;\n`, 'electron/main/gate/index.ts'],
  ['gate-allowed-imports', 'electron/main/gate/reaches-model.ts', `import { model } from '../model/index';\nexport const m = model;\n`, 'electron/main/model/index.ts'],
  ['agent-only-gate-model-common', 'electron/main/agent/reaches-host.ts', `import { host } from '../host/index';\nexport const h = host;\n`, 'electron/main/host/index.ts'],
  ['host-only-from-runtime', 'electron/main/agent/reaches-host.ts', '', 'electron/main/host/index.ts'],
  ['mcp-allowed-imports', 'electron/main/mcp/reaches-model.ts', `import { model } from '../model/index';\nexport const m = model;\n`, 'electron/main/model/index.ts'],
  ['mcp-allowed-imports', 'electron/main/mcp/reaches-family.ts', `import { one } from '../../../tools/alpha/one';\nexport const o = one;\n`, 'tools/alpha/one.ts'],
  ['tool-families-only-via-registry', 'electron/main/mcp/reaches-family.ts', '', 'tools/alpha/one.ts'],
  ['mcp-only-from-runtime-cli-app', 'electron/main/policy/reaches-mcp.ts', `import { mcp } from '../mcp/index';\nexport const m = mcp;\n`, 'electron/main/mcp/index.ts'],
  ['app-cli-only-main', 'electron/main/cli/reaches-preload.ts', `import { preload } from '../../preload/index';\nexport const p = preload;\n`, 'electron/preload/index.ts'],
  ['audit-only-via-index', 'electron/main/app/reaches-ledger.ts', `import { ledger } from '../audit/ledger';\nexport const l = ledger;\n`, 'electron/main/audit/ledger.ts'],
  ['ledger-writer-only-from-runtime', 'electron/main/cli/opens-writer.ts', `import { writer } from '../audit/writer';\nexport const w = writer;\n`, 'electron/main/audit/writer.ts'],
  ['ledger-writer-only-from-runtime', 'electron/main/gate/opens-writer.ts', `import { writer } from '../audit/writer';\nexport const w = writer;\n`, 'electron/main/audit/writer.ts'],
  ['preload-only-common', 'electron/preload/reaches-main.ts', `import { policy } from '../main/policy/index';\nexport const p = policy;\n`, 'electron/main/policy/index.ts'],
  ['preload-no-node-builtins', 'electron/preload/uses-fs.ts', `import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n`, 'fs'],
  ['no-unresolvable', 'electron/main/policy/typo.ts', `import { nothing } from './does-not-exist';\nexport const n = nothing;\n`, './does-not-exist'],
  // depcruise reports a cycle once, at the edge where its walk (in path order) closes it.
  ['no-circular', 'electron/main/model/ping.ts', `import { pong } from './pong';\nexport const ping = () => pong;\n`, 'electron/main/model/pong.ts'],
];

/** Files a planted violation needs that are not violations themselves. */
const SUPPORT: Readonly<Record<string, string>> = {
  'electron/main/model/pong.ts': `import { ping } from './ping';\nexport const pong = () => ping;\n`,
};

/** The folders `npm run depcheck` cruises, read from package.json so the test follows the script. */
function depcheckTargets(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = pkg.scripts['depcheck']!.split(/\s+/);
  expect(words[0]).toBe('depcruise');
  const targets: string[] = [];
  for (let i = 1; i < words.length; i++) {
    if (words[i] === '--config') i++;
    else targets.push(words[i]!);
  }
  return targets;
}

function write(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), source);
  }
}

/**
 * depcruise names a builtin without its node: prefix and a package by its resolved file, which in
 * the temp layout is the real path behind the linked node_modules; compare by package name.
 */
function packageName(resolved: string): string {
  return /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved)?.[1] ?? resolved;
}

async function cruise(dir: string): Promise<Violation[]> {
  const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const args = [bin, ...depcheckTargets(), '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'];
  // Exit code = number of errors, so a non-zero exit is the expected case here.
  const output = await run(process.execPath, args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch(
    (e: { stdout?: string; stderr?: string }) => {
      if (!e.stdout) throw new Error(`depcruise failed: ${e.stderr ?? String(e)}`);
      return { stdout: e.stdout };
    },
  );
  const result = JSON.parse(output.stdout) as { summary: { violations: { from: string; to: string; rule: { name: string } }[] } };
  return result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: packageName(v.to) }));
}

function makeLayout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'baram-depcruise-'));
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.base.json']) copyFileSync(join(root, file), join(dir, file));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  write(dir, BASELINE);
  return dir;
}

const byKey = (a: Violation, b: Violation) => `${a.rule} ${a.from} ${a.to}`.localeCompare(`${b.rule} ${b.from} ${b.to}`);

describe('dependency rules (DESIGN.md table) fire on violations', () => {
  let clean = '';
  let dirty = '';

  beforeAll(() => {
    clean = makeLayout();
    dirty = makeLayout();
    write(dirty, SUPPORT);
    write(dirty, Object.fromEntries(PLANTED.filter(([, , source]) => source !== '').map(([, file, source]) => [file, source])));
  });

  afterAll(() => {
    for (const dir of [clean, dirty]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('stays silent on imports the design allows', async () => {
    expect(await cruise(clean)).toEqual([]);
  });

  it('reports exactly the planted violations, each under its rule name', async () => {
    const expected = PLANTED.map(([rule, from, , to]) => ({ rule, from, to })).sort(byKey);
    expect((await cruise(dirty)).sort(byKey)).toEqual(expected);
  });

  it('has a planted violation for every rule in the config', () => {
    const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[] };
    const planted = new Set(PLANTED.map(([rule]) => rule));
    expect(config.forbidden.map((r) => r.name).filter((name) => !planted.has(name))).toEqual([]);
  });
});
