#!/usr/bin/env node
// Builds native/tree-io (the tree reader's openat calls) with node-gyp. Run by `npm install` /
// `npm ci` (postinstall) and by hand with `npm run build:native`. Linux only: elsewhere the tree
// reader uses node:fs and nothing is built. Fails loudly where it is needed and cannot be built,
// rather than leaving a slower, differently-checked reader in place unnoticed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const addonDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'native', 'tree-io');

if (process.platform !== 'linux') {
  console.log(`tree-io: not built on ${process.platform} (the tree reader uses node:fs there)`);
  process.exit(0);
}

// npm runs scripts with its own node-gyp at hand (npm_config_node_gyp); by hand, the copy in node_modules.
function nodeGypScript() {
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm !== undefined && existsSync(fromNpm)) return fromNpm;
  return createRequire(import.meta.url).resolve('node-gyp/bin/node-gyp.js');
}

// Offline machines: build against the headers installed with Node itself, when it has them,
// instead of letting node-gyp download them.
const args = [nodeGypScript(), 'rebuild', '--release'];
const bundledHeaders = join(dirname(process.execPath), '..', 'include', 'node');
if (process.env.npm_config_nodedir === undefined && existsSync(join(bundledHeaders, 'node_api.h'))) {
  args.push(`--nodedir=${join(bundledHeaders, '..', '..')}`);
}
const result = spawnSync(process.execPath, args, { cwd: addonDir, stdio: 'inherit' });
if (result.status !== 0) {
  console.error('tree-io: the native build failed. It needs python3, make and a C compiler (Debian: apt-get install -y python3 make g++).');
  process.exit(result.status ?? 1);
}
