import type { WebPreferences } from 'electron';

/**
 * The Electron security checklist, as the window's web preferences. Kept apart from window.ts
 * (which needs the Electron runtime) so a test reads exactly what the window gets.
 */
export function secureWebPreferences(preloadPath: string, options: { readonly devTools: boolean }): WebPreferences {
  return {
    preload: preloadPath,
    // The page gets window.baram through contextBridge and nothing else of Node or Electron.
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    // A middle click on a link asks for a new window; window.open is refused anyway (hardening.ts),
    // and without the auxclick event the page cannot even see the attempt.
    disableBlinkFeatures: 'Auxclick',
    // Chromium's spellchecker downloads dictionaries from Google's CDN: no network calls from an
    // air-gapped office machine, and none the audit log cannot see.
    spellcheck: false,
    // A packaged app ships without DevTools: they would let anyone at the keyboard script the page.
    devTools: options.devTools,
  };
}
