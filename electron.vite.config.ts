import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { metaCsp } from './electron/main/app/csp';

const root = fileURLToPath(new URL('.', import.meta.url));
const at = (...parts: string[]) => resolve(root, ...parts);

/**
 * A worker-thread entry of the core, built as its own file `name` beside the main bundle: the host
 * module that starts it finds it beside itself (its workerEntry(), e.g. host/documents/parse-client.ts).
 * scripts/build-cli.mjs reads these calls from this file for the CLI build, so write each one as
 * below: the source as at() of a quoted .ts path, then the quoted file name (its regular expression
 * expects exactly that, and counts every call).
 */
function standaloneWorker(source: string, name: `${string}.js`): Record<string, string> {
  return { [name.slice(0, -'.js'.length)]: source };
}

/**
 * Dev server only. Vite injects inline scripts and styles (the React Fast Refresh preamble, HMR
 * styles) that `script-src 'self'` rightly blocks. Instead of loosening the policy, each dev run
 * gets a random nonce: Vite stamps it on what it injects, the page's meta policy admits it, and
 * main adds it to the header policy (it inherits BARAM_DEV_CSP_NONCE, because electron-vite
 * spawns Electron from this process). A production build never sees a nonce.
 */
function devCspNonce(nonce: string): Plugin {
  return {
    name: 'baram:dev-csp-nonce',
    apply: 'serve',
    transformIndexHtml(html) {
      const strict = `content="${metaCsp()}"`;
      if (!html.includes(strict)) throw new Error('renderer/index.html: CSP meta tag differs from electron/main/app/csp.ts');
      return html.replace(strict, `content="${metaCsp({ devNonce: nonce })}"`);
    },
  };
}

/** One nonce per dev process: the config may be loaded more than once, and main must see the renderer's. */
function sharedDevNonce(): string {
  const existing = process.env['BARAM_DEV_CSP_NONCE'];
  if (existing && /^[A-Za-z0-9_-]{16,128}$/.test(existing)) return existing;
  const nonce = randomBytes(18).toString('base64url');
  process.env['BARAM_DEV_CSP_NONCE'] = nonce;
  return nonce;
}

export default defineConfig(({ command }) => {
  const nonce = command === 'serve' ? sharedDevNonce() : undefined;

  return {
    main: {
      build: {
        // ESM (package.json "type": "module"; Electron ≥ 28 loads an ESM main). Every package in
        // "dependencies" stays external and is loaded from node_modules inside the asar: native
        // modules (better-sqlite3, node-llama-cpp) cannot be bundled at all.
        externalizeDeps: true,
        rolldownOptions: {
          input: {
            index: at('electron/main/app/main.ts'),
            // Word, HWP and PDF parses (docs/2026-12-03-document-parse-worker.md).
            ...standaloneWorker(at('electron/main/host/documents/parse-worker.ts'), 'parse-worker.js'),
          },
          // Chunks beside the entries (not in chunks/): a module bundled into a chunk finds a
          // worker entry beside its own file, as in the CLI build.
          output: { chunkFileNames: 'chunk-[hash].js' },
        },
      },
    },
    preload: {
      build: {
        // A sandboxed preload cannot load ES modules or anything from node_modules: one CommonJS
        // file with the contract code bundled in, requiring only 'electron'.
        externalizeDeps: false,
        rolldownOptions: {
          input: { index: at('electron/preload/index.ts') },
          output: { format: 'cjs', entryFileNames: '[name].cjs' },
        },
      },
    },
    renderer: {
      root: at('renderer'),
      plugins: [react(), ...(nonce ? [devCspNonce(nonce)] : [])],
      html: nonce ? { cspNonce: nonce } : {},
      build: {
        rolldownOptions: {
          input: at('renderer/index.html'),
        },
      },
      server: {
        // Serve only the renderer, the shared contract/catalogs and installed packages.
        fs: { strict: true, allow: [at('renderer'), at('electron/common'), at('node_modules')] },
      },
    },
  };
});
