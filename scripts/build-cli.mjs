#!/usr/bin/env node
// Builds the `baram` command into out/cli/ (npm's `prepare`, so `npm ci` runs it; also
// `npm run build:cli`): electron/main/cli/main.ts as plain JavaScript, so the command starts without
// a TypeScript loader (docs/2026-12-03-cli-ships-built.md). Local files only: esbuild from
// node_modules, nothing downloaded.
//
//   node scripts/build-cli.mjs [--outdir DIR]     (default: out/cli beside this script's project)
//
// Besides the entry, each worker-thread module the core starts by name from beside its own file (if
// any) is built under that name, as electron.vite.config.ts does for the desktop bundle. One build
// with code splitting: the commands' lazy imports become chunks, so `baram --help` compiles only
// what it runs. build-info.json lists the project files that went in (and this script), for
// bin/baram.mjs's freshness check.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const project = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The worker-thread entries the core starts by file name from beside its own module (each
 * `workerEntry()`'s BUNDLED_ENTRY). electron.vite.config.ts lists them for the desktop bundle as
 * `standaloneWorker(at('SOURCE'), 'NAME.js')`; that list is the one place they are named, and the
 * CLI build takes it from there rather than keep a second copy that could miss one.
 */
function workerEntries() {
  const config = readFileSync(join(project, 'electron.vite.config.ts'), 'utf8');
  const calls = config.match(/standaloneWorker\(at\(/g) ?? [];
  const entries = [...config.matchAll(/standaloneWorker\(at\('([^']+\.ts)'\),\s*'([\w.-]+)\.js'\)/g)].map(([, source, name]) => ({ in: `./${source}`, out: name }));
  if (entries.length !== calls.length) throw new Error("build-cli: a standaloneWorker(...) call in electron.vite.config.ts is not of the form standaloneWorker(at('path.ts'), 'name.js')");
  return entries;
}

/**
 * Loaded from node_modules at run time, never bundled: native addons (better-sqlite3; ssh2's
 * optional crypto binding and cpu-features; node-llama-cpp and its prebuilt binaries) resolve
 * their .node files relative to their own package folder. The document tools' format libraries
 * are imported only when such a tool runs, and kordoc's optional OCR packages (never installed
 * offline) cannot be bundled at all. web-tree-sitter (code.outline) finds its runtime WASM beside
 * its own module, and the tool resolves the grammar files of @vscode/tree-sitter-wasm from
 * node_modules; bundled, neither would be found.
 */
const EXTERNAL = ['better-sqlite3', 'ssh2', 'cpu-features', 'node-llama-cpp', 'exceljs', 'pdf-parse', 'mammoth', 'docx', 'kordoc', 'web-tree-sitter', 'playwright-core'];

/**
 * Packages loaded on first use instead of at start-up: `baram tools` imports every tool, and the
 * tools import these at their top but use them only inside functions (iconv.decode/encode,
 * RE2JS.compile/quote/flags). Loading them took ~30 ms each of `baram tools`' ~100 ms in its own
 * code on this 2-core machine (docs/2026-12-03-cli-ships-built.md). An import of one of them from
 * our code resolves to a stand-in that require()s the package from node_modules at the first
 * property read (or call, or `new`). Each lists the exports it stands in for: an import of any
 * other name fails the build ("No matching export"), so nothing can get an undefined by surprise.
 */
const LAZY = {
  'iconv-lite': { default: true, named: [] },
  re2js: { default: false, named: ['RE2JS'] },
};

function lazyStandIn(name, { default: hasDefault, named }) {
  // Methods come bound to the package's object (iconv-lite's read their siblings through it), one
  // bound copy per name: a hot loop calling iconv.decode pays a map lookup, not a bind.
  const lazyValue = (get) => `((bound) => new Proxy(function () {}, {
  get: (_, key) => {
    const target = ${get};
    const value = Reflect.get(target, key);
    if (typeof value !== 'function') return value;
    let fn = bound.get(key);
    if (fn === undefined || fn.original !== value) bound.set(key, (fn = Object.assign(value.bind(target), { original: value })));
    return fn;
  },
  has: (_, key) => Reflect.has(${get}, key),
  apply: (_, self, args) => Reflect.apply(${get}, self, args),
  construct: (_, args) => Reflect.construct(${get}, args),
}))(new Map())`;
  return [
    `// Stand-in for '${name}', loaded on first use (scripts/build-cli.mjs LAZY).`,
    'let loaded;',
    `const load = () => (loaded ??= require(${JSON.stringify(name)}));`,
    ...(hasDefault ? [`export default ${lazyValue('load()')};`] : []),
    ...named.map((n) => `export const ${n} = ${lazyValue(`load().${n}`)};`),
  ].join('\n');
}

const lazyPackages = {
  name: 'baram:lazy-packages',
  setup(build) {
    const filter = new RegExp(`^(${Object.keys(LAZY).map((n) => n.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) =>
      // The stand-in's own require() is the real package, from node_modules at run time.
      args.namespace === 'lazy-package' ? { path: args.path, external: true } : { path: args.path, namespace: 'lazy-package' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => ({ contents: lazyStandIn(args.path, LAZY[args.path]), loader: 'js', resolveDir: project }));
  },
};

// Bundled CommonJS packages call require() for node:* modules; an ES module has no require of its
// own, so each output file gets one (esbuild's stand-in would throw "Dynamic require … not supported").
const BANNER = "import { createRequire as __baramCreateRequire } from 'node:module'; const require = __baramCreateRequire(import.meta.url);";

function parseOutdir(argv) {
  const i = argv.indexOf('--outdir');
  if (i === -1) return join(project, 'out', 'cli');
  const dir = argv[i + 1];
  if (!dir) throw new Error('build-cli: --outdir needs a folder');
  return isAbsolute(dir) ? dir : resolve(process.cwd(), dir);
}

export async function buildCli(outdir) {
  // Taken before esbuild reads anything: a source saved during the build counts as newer.
  const startedAt = Date.now();
  // Only a folder this script made is emptied (a mistyped --outdir must not take a folder with it).
  if (existsSync(outdir) && readdirSync(outdir).length > 0 && !existsSync(join(outdir, 'build-info.json'))) {
    throw new Error(`build-cli: ${outdir} is not empty and holds no build-info.json: not a build of this script, left as it is`);
  }
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: project,
    entryPoints: [{ in: './electron/main/cli/main.ts', out: 'baram' }, ...workerEntries()],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // ESM builds first (jsonc-parser's "main" is a UMD file whose require('./impl/…') a bundle cannot follow).
    mainFields: ['module', 'main'],
    external: EXTERNAL,
    // Chunks sit beside the entries: the core resolves its worker modules from its own file's folder.
    chunkNames: 'chunk-[hash]',
    banner: { js: BANNER },
    plugins: [lazyPackages],
    sourcemap: false,
    // Less to compile at each start (`baram tools`: ~40 → ~30 ms of its own); names are kept, so a
    // BARAM_DEBUG stack still names our functions.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    charset: 'utf8',
    metafile: true,
    logLevel: 'warning',
  });
  // Our files only (a package changes with `npm ci`, which builds again); not the stand-ins (lazy-package:…).
  const sources = [...Object.keys(result.metafile.inputs).filter((p) => !p.split('/').includes('node_modules') && !p.includes(':')), 'scripts/build-cli.mjs'].sort();
  const info = {
    builtAt: startedAt,
    // Relative to the project, with forward slashes.
    sources: sources.map((p) => relative(project, resolve(project, p)).split(sep).join('/')),
  };
  writeFileSync(join(outdir, 'build-info.json'), `${JSON.stringify(info, null, 1)}\n`);
  return { outdir, files: Object.keys(result.metafile.outputs).length, sources: sources.length };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { outdir, files, sources } = await buildCli(parseOutdir(process.argv.slice(2)));
    console.log(`build-cli: ${relative(process.cwd(), outdir) || '.'} (${files} files from ${sources} sources)`);
  } catch (e) {
    // As `npm ci`'s prepare step a failed build does not fail the install: bin/baram.mjs runs the
    // sources instead (and says so), and the tests report what is broken (launcher.test.ts asserts
    // that CI has a current build). `npm ci --omit=dev` has no esbuild at all.
    if (process.env.npm_lifecycle_event !== 'prepare') throw e;
    const noEsbuild = e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes("'esbuild'");
    console.warn(
      noEsbuild
        ? 'build-cli: esbuild is not installed (devDependencies omitted); `baram` will run from the TypeScript sources'
        : `build-cli: the build failed, \`baram\` will run from the TypeScript sources:\n${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
