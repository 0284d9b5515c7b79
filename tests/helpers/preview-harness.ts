import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Lang } from '../../electron/common/i18n';
import { openDesktopCore, type DesktopCore } from '../../electron/main/desktop/desktop-core';
import { createBackend } from '../../electron/main/model';
import { EventHub } from '../../electron/main/preview/event-hub';
import { PreviewSaveDialog } from '../../electron/main/preview/save-dialog';
import { startPreviewServer, type PreviewServer } from '../../electron/main/preview/server';
import { startScriptedModelServer, type ScriptedModelServer, type Turn } from './scripted-model-server';

/**
 * The preview harness (issue 17 scope 7): a real session (gate, ledger) in a temp folder, the
 * agent driven by the scripted model server, the built renderer served on 127.0.0.1 behind the
 * preview's token and Origin checks. `npm run preview` opens it with the demo transcript; the e2e
 * tests open it with theirs, so what a reviewer clicks is what the tests drive.
 */
export interface PreviewHarnessOptions {
  readonly turns: readonly Turn[];
  /** Fill the workspace before the session opens. */
  readonly setup?: (workspace: string) => void;
  /** Fill the data folder (e.g. seed an audit ledger) before the session opens. */
  readonly setupData?: (dataDir: string) => void;
  /** The core's language (model-facing messages); the page has its own switch. Default ko. */
  readonly lang?: Lang;
  readonly port?: number;
  /** Default: out/renderer of this checkout (run `electron-vite build` first). */
  readonly rendererDir?: string;
  /** An admin policy (written to a file in the temp folder); absent → the built-in policy. */
  readonly policy?: object;
  /** Keep the temp folder after close (to look at the ledger). */
  readonly keep?: boolean;
}

export interface PreviewHarness {
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly workspace: string;
  readonly dataDir: string;
  readonly model: ScriptedModelServer;
  readonly core: DesktopCore;
  /** Audit exports "save" here (the page never names a path); a test may choose the next answer. */
  readonly saveDialog: PreviewSaveDialog;
  close(): Promise<void>;
}

const project = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** The page-side bridge, bundled for the browser (it imports the contract from electron/common). */
export async function bundlePreviewBridge(): Promise<string> {
  const out = await build({
    entryPoints: [join(project, 'renderer', 'preview', 'bridge.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

export async function startPreviewHarness(o: PreviewHarnessOptions): Promise<PreviewHarness> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'baram-preview-')));
  const workspace = join(root, 'workspace');
  const dataDir = join(root, 'data');
  mkdirSync(workspace);
  o.setup?.(workspace);
  mkdirSync(dataDir);
  o.setupData?.(dataDir);
  const saveDialog = new PreviewSaveDialog(join(root, 'exports'));
  const policyFile = o.policy ? join(root, 'policy.json') : undefined;
  if (policyFile) writeFileSync(policyFile, JSON.stringify(o.policy));
  const model = await startScriptedModelServer({ shape: 'openai', turns: o.turns });
  const events = new EventHub();
  let core: DesktopCore | null = null;
  let server: PreviewServer | null = null;
  try {
    core = await openDesktopCore({
      session: { workspace, dataDir, ...(policyFile ? { policyFile } : {}) },
      lang: o.lang ?? 'ko',
      version: 'preview',
      model: () => ({ backend: createBackend(model.url), label: model.url }),
      emit: events.emit,
      saveDialog,
    });
    server = await startPreviewServer({
      rendererDir: o.rendererDir ?? join(project, 'out', 'renderer'),
      bridgeScript: await bundlePreviewBridge(),
      handlers: core.handlers,
      events,
      ...(o.port !== undefined ? { port: o.port } : {}),
    });
  } catch (error) {
    await core?.close();
    await model.close();
    throw error;
  }
  const opened = { core, server };
  return {
    url: opened.server.url,
    origin: opened.server.origin,
    token: opened.server.token,
    workspace,
    dataDir,
    model,
    core: opened.core,
    saveDialog,
    async close() {
      await opened.server.close();
      await opened.core.close();
      await model.close();
      if (!o.keep) rmSync(root, { recursive: true, force: true });
    },
  };
}
