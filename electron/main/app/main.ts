import { app, BrowserWindow, ipcMain, Menu, session } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolCatalog } from '../gate';
import { createAppHandlers } from './handlers';
import { hardenSession, hardenWebContents, type SecurityLog } from './hardening';
import { registerIpcHandlers } from './ipc';
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
  registerIpcHandlers(
    ipcMain,
    createAppHandlers({
      version: app.getVersion(),
      lang: uiLang(process.env['BARAM_LANG']),
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
  start().catch((error: unknown) => {
    console.error('[baram] startup failed', error);
    app.exit(1);
  });
}
