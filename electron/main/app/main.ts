import { app, BrowserWindow, ipcMain, Menu, session } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolCatalog } from '../gate';
import { openDesktopCore, type DesktopCore } from '../desktop/desktop-core';
import type { EmitEvent } from '../desktop/emit';
import { modelFromEnv } from '../desktop/startup-model';
import { adminPolicyIfPresent, defaultDataDir } from '../runtime/paths';
import { electronSaveDialog } from './electron-save-dialog';
import { createAppHandlers } from './handlers';
import { hardenSession, hardenWebContents, type SecurityLog } from './hardening';
import { registerIpcHandlers, sendEvent } from './ipc';
import { isTrustedSender, rendererSource } from './renderer-origin';
import { devCspNonce, uiLang } from './startup';
import { createMainWindow } from './window';

/**
 * Electron entry point (bundled to out/main/index.js, ESM). Lifecycle only: the security rules
 * live in hardening.ts, the IPC dispatcher in ipc.ts, the handlers in handlers.ts.
 */

// out/main/index.js → out/renderer/index.html and out/preload/index.cjs
const here = dirname(fileURLToPath(import.meta.url));
const source = rendererSource({
  devServerUrl: process.env['ELECTRON_RENDERER_URL'],
  isPackaged: app.isPackaged,
  indexFile: join(here, '..', 'renderer', 'index.html'),
});
const csp = { devNonce: devCspNonce(process.env['BARAM_DEV_CSP_NONCE'], source.kind === 'dev-server') };

const log: SecurityLog = (message) => console.warn(`[baram:security] ${message}`);

// Every renderer sandboxed, whatever a future window's options say.
app.enableSandbox();

let mainWindow: BrowserWindow | null = null;
let core: DesktopCore | null = null;

/** Events reach the window's top-level frame only while it shows the app's page (ipc.ts). */
const emit: EmitEvent = (event, payload) => {
  const frame = mainWindow && !mainWindow.isDestroyed() ? mainWindow.webContents.mainFrame : null;
  if (!sendEvent(frame, event, payload, (f) => isTrustedSender(f, source))) log(`event '${event}' not sent: the window does not show the app's page`);
};

function openMainWindow(): void {
  mainWindow = createMainWindow({
    source,
    preloadPath: join(here, '..', 'preload', 'index.cjs'),
    devTools: !app.isPackaged,
    log,
  });
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
}

async function start(): Promise<void> {
  await app.whenReady();
  // The default menu is English-only and offers reload and DevTools; the packaged app has none.
  if (app.isPackaged) Menu.setApplicationMenu(null);
  hardenSession(session.defaultSession, source, csp, log);
  const lang = uiLang(process.env['BARAM_LANG']);
  // The session (gate and ledger) opens at start and closes at quit. One that cannot open (a bad
  // policy) leaves the window up with chat unavailable and the reason in the log.
  core = await openDesktopCore({
    session: { policyFile: adminPolicyIfPresent(), dataDir: defaultDataDir(), ...(process.env['BARAM_WORKSPACE'] ? { workspace: process.env['BARAM_WORKSPACE'] } : {}) },
    lang,
    version: app.getVersion(),
    model: (s) => modelFromEnv(process.env['BARAM_MODEL'], s, log),
    emit,
    saveDialog: electronSaveDialog(() => (mainWindow && !mainWindow.isDestroyed() ? mainWindow : null), lang),
  }).catch((error: unknown) => {
    console.error('[baram] no session opened', error);
    return null;
  });
  registerIpcHandlers(
    ipcMain,
    core?.handlers ??
      createAppHandlers({
        version: app.getVersion(),
        lang,
        listTools: () => toolCatalog().map(({ name, family, risk, description }) => ({ name, family, risk, description })),
      }),
    {
      isTrustedSender: (frame) => isTrustedSender(frame, source),
      report: (problem) =>
        problem.kind === 'forbidden-sender'
          ? log(`IPC '${problem.channel}' refused from ${problem.url ?? 'a destroyed frame'}`)
          : console.error(`[baram:ipc] '${problem.channel}' handler failed`, problem.error),
    },
  );
  openMainWindow();
}

// One instance: a second launch focuses the open window (two writers would share one audit ledger).
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, log));
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => app.quit());
  // Close the session (stop the running request, record the stop) before the process ends.
  let quitting = false;
  app.on('will-quit', (event) => {
    if (quitting || !core) return;
    event.preventDefault();
    quitting = true;
    core.close().finally(() => app.quit());
  });
  start().catch((error: unknown) => {
    console.error('[baram] startup failed', error);
    app.exit(1);
  });
}
