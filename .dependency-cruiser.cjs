/**
 * Dependency rules of DESIGN.md ("Dependency rules"), one forbidden rule per row, plus the rules
 * that keep Electron in one folder and tools away from the machine. Every rule is exercised by
 * tests/architecture/dependency-rules.test.ts, which plants a violation and expects the rule's
 * name in depcruise's answer: a rule with a typo in its path would otherwise pass silently.
 *
 * Paths are relative to the repository root, with forward slashes. Type-only imports count
 * (tsPreCompilationDeps): a type is coupling too, and "no cycles anywhere" means anywhere.
 */

/** Node builtins that reach files, processes or the network. Tools get these only through ctx. */
const MACHINE_ACCESS = [
  'fs',
  'fs/promises',
  'child_process',
  'net',
  'tls',
  'dgram',
  'dns',
  'dns/promises',
  'http',
  'https',
  'http2',
  'cluster',
  'worker_threads',
  'inspector',
];
const machineAccess = `^(node:)?(${MACHINE_ACCESS.map((m) => m.replace('/', '\\/')).join('|')})$`;

/**
 * The npm package 'electron' (and its subpath exports electron/main, electron/renderer, …), as
 * opposed to our own electron/ folder: resolved into a node_modules folder (not anchored: a linked
 * node_modules resolves to its real path), or left as the bare name when the package is absent.
 */
const electronPackage = '((^|/)node_modules/electron/|^electron(/(main|renderer|common|utility))?$)';

/** A tool family folder: any folder under tools/ except kit/. */
const family = '^tools/(?!kit/)[^/]+/';

module.exports = {
  forbidden: [
    // ── anywhere ────────────────────────────────────────────────────────────────────────────
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'DESIGN: no cycles anywhere. Break the cycle by moving the shared part down a layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import that cannot be resolved cannot be checked by any rule here: fail closed.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'electron-only-in-app-and-preload',
      severity: 'error',
      comment:
        "Only electron/main/app and electron/preload import 'electron': everything else runs under plain Node " +
        '(CLI, tests), where the Electron binary does not exist.',
      from: { pathNot: '^electron/(main/app|preload)/' },
      to: { path: electronPackage },
    },

    // ── electron/common: nothing internal; no node:* ────────────────────────────────────────
    {
      name: 'common-imports-nothing-internal',
      severity: 'error',
      comment: 'electron/common is shared by main, preload and renderer; it may import only itself.',
      from: { path: '^electron/common/' },
      to: { pathNot: ['^electron/common/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'common-no-node-builtins',
      severity: 'error',
      comment: 'electron/common runs in the sandboxed preload and the renderer too: no node:* modules.',
      from: { path: '^electron/common/' },
      to: { dependencyTypes: ['core'] },
    },

    // ── tools/kit: electron/common ──────────────────────────────────────────────────────────
    {
      name: 'kit-only-common',
      severity: 'error',
      comment: 'tools/kit may import electron/common only (and format libraries); never a family or the registry.',
      from: { path: '^tools/kit/' },
      to: { path: '^(electron/(?!common/)|renderer/|tools/(?!kit/))' },
    },

    // ── tools/<family>: kit, common, format libraries ───────────────────────────────────────
    {
      name: 'tools-no-direct-machine-access',
      severity: 'error',
      comment:
        'Files, processes and network only through ctx (electron/main/host), so confinement lives in one place. ' +
        'Use ctx.files instead of node:fs; processes and network arrive as ctx capabilities too.',
      from: { path: '^tools/' },
      to: { dependencyTypes: ['core'], path: machineAccess },
    },
    {
      name: 'tool-family-no-other-family',
      severity: 'error',
      comment: 'A tool family may not import another family: share code through tools/kit.',
      from: { path: '^tools/((?!kit/)[^/]+)/' },
      to: { path: family, pathNot: ['^tools/$1/'] },
    },
    {
      name: 'tools-no-main-preload-renderer',
      severity: 'error',
      comment: 'tools/ may not import anything in electron/main (host, gate, …), the preload or the renderer.',
      from: { path: '^tools/' },
      to: { path: '^(electron/(main|preload)/|renderer/)' },
    },
    {
      name: 'family-not-registry',
      severity: 'error',
      comment: 'A tool family does not import the registry (the registry imports the families).',
      from: { path: family },
      to: { path: '^tools/registry\\.ts$' },
    },

    // ── electron/main/host: electron/common, policy ─────────────────────────────────────────
    {
      name: 'host-only-common-and-policy',
      severity: 'error',
      comment: 'host/ implements the capabilities; it may import electron/common and policy/ only.',
      from: { path: '^electron/main/host/' },
      to: { path: '^(electron/(main/(?!host/|policy/)|preload/)|renderer/|tools/)' },
    },

    {
      name: 'host-only-from-runtime',
      severity: 'error',
      comment:
        'Only runtime/ (which assembles a session) imports host/: the capabilities reach tools only through the gate, ' +
        'which gets them handed over and gives out read-only and plan-scoped views (issue 13, "the only door").',
      from: { pathNot: '^electron/main/(host|runtime|mcp)/' },
      to: { path: '^electron/main/host/' },
    },

    // ── electron/main/mcp: gate, policy, host, tools/kit, common (issue 19) ──────────────────
    {
      name: 'mcp-allowed-imports',
      severity: 'error',
      comment:
        'mcp/ (the MCP client) may import gate, policy, host (program resolution, whole-tree kills), tools/kit (the tool ' +
        'declaration it builds) and common only. It starts external servers the way host/ starts programs.',
      from: { path: '^electron/main/mcp/' },
      to: { path: '^(electron/(main/(?!mcp/|gate/|policy/|host/)|preload/)|renderer/|tools/(?!kit/))' },
    },
    {
      name: 'mcp-only-from-runtime-cli-app',
      severity: 'error',
      comment: 'Only runtime/ (which assembles a session), cli/ and app/ import mcp/: its servers live and die with a session.',
      from: { pathNot: '^electron/main/(mcp|runtime|cli|app)/' },
      to: { path: '^electron/main/mcp/' },
    },

    // ── electron/main/gate: tools/registry, tools/kit, policy, audit, common ────────────────
    {
      name: 'gate-allowed-imports',
      severity: 'error',
      comment: 'gate/ may import tools/registry (and FROZEN.json), tools/kit, policy, audit and common only.',
      from: { path: '^electron/main/gate/' },
      to: {
        // tools/FROZEN.json is data, not code: the gate reads it for the toolset digest (SPEC F-FROZEN).
        path: '^(electron/(main/(?!gate/|policy/|audit/)|preload/)|renderer/|tools/(?!kit/|registry\\.ts$|FROZEN\\.json$))',
      },
    },
    {
      name: 'registry-only-from-gate',
      severity: 'error',
      comment: 'tools/registry is imported by electron/main/gate only: the gate is the one door to the tools.',
      from: { pathNot: '^electron/main/gate/' },
      to: { path: '^tools/registry\\.ts$' },
    },
    {
      name: 'tool-families-only-via-registry',
      severity: 'error',
      comment: 'Outside tools/, nobody imports a tool family directly; they are reached through the registry.',
      from: { pathNot: '^tools/' },
      to: { path: family },
    },

    // ── electron/main/agent: gate, model, common ────────────────────────────────────────────
    {
      name: 'agent-only-gate-model-common',
      severity: 'error',
      comment: 'agent/ may import gate, model and common only (tools are reached through the gate).',
      from: { path: '^electron/main/agent/' },
      to: { path: '^(electron/(main/(?!agent/|gate/|model/)|preload/)|renderer/|tools/)' },
    },

    // ── electron/main/app, cli: anything in main ────────────────────────────────────────────
    {
      name: 'app-cli-only-main',
      severity: 'error',
      comment: 'app/ and cli/ may import anything in electron/main and electron/common; not the preload, renderer or tools.',
      from: { path: '^electron/main/(app|cli)/' },
      to: { path: '^(electron/preload/|renderer/|tools/)' },
    },

    // ── audit internals only via electron/main/audit (its index) ────────────────────────────
    {
      name: 'audit-only-via-index',
      severity: 'error',
      comment:
        'Outside audit/, import electron/main/audit (its index.ts) only: the ledger internals (database, chain, keys) ' +
        'stay private, so only audit/ can construct an AuditWriter (DESIGN idiom 7).',
      from: { pathNot: '^electron/main/audit/' },
      to: { path: '^electron/main/audit/', pathNot: '^electron/main/audit/(index|writer)\\.ts$' },
    },
    {
      name: 'ledger-writer-only-from-runtime',
      severity: 'error',
      comment:
        'Only runtime/ imports audit/writer (the AuditLedger that appends): the gate gets an AuditSink handed over, ' +
        'the CLI borrows a writer through runtime/audit-writer.ts, everything else reads (issue 13).',
      from: { pathNot: '^electron/main/(audit|runtime)/' },
      to: { path: '^electron/main/audit/writer\\.ts$' },
    },

    // ── electron/preload: electron/common, electron ─────────────────────────────────────────
    {
      name: 'preload-only-common',
      severity: 'error',
      comment:
        'The sandboxed preload may import electron/common and electron only (a sandboxed preload cannot require Node modules).',
      from: { path: '^electron/preload/' },
      to: { path: '^(electron/(?!common/|preload/)|renderer/|tools/)' },
    },
    {
      name: 'preload-no-node-builtins',
      severity: 'error',
      comment: 'A sandboxed preload has no Node module loader; node:* imports fail at run time.',
      from: { path: '^electron/preload/' },
      to: { dependencyTypes: ['core'] },
    },

    // ── renderer: electron/common (types and message catalogs) only ─────────────────────────
    {
      name: 'renderer-only-common',
      severity: 'error',
      comment: 'The renderer may import electron/common only; everything else reaches it through window.baram.',
      from: { path: '^renderer/' },
      to: { path: '^(electron/(?!common/)|tools/)' },
    },
    {
      name: 'renderer-no-node-builtins',
      severity: 'error',
      comment: 'The renderer is a sandboxed web page: no node:* modules.',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(out|dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
