import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the office's own Chromium-family browser lives. Baram never downloads one (offices are
 * air-gapped, and a browser nobody patches is worse than none): it drives what IT installed and
 * keeps updated. Chrome first, then Edge, then Chromium, per platform, as installers place them.
 * The administrator may name the program in the policy (`browser.executablePath`); then only that
 * one is used, and a missing file is an error rather than a silent fall-back to another browser.
 */

export interface BrowserCandidateEnv {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function candidatePaths({ platform, env }: BrowserCandidateEnv): string[] {
  switch (platform) {
    case 'win32': {
      const w = path.win32;
      const roots = [env['ProgramFiles'] ?? 'C:\\Program Files', env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)'];
      // A per-user Chrome install lands under %LOCALAPPDATA%; listed last (anyone logged in can replace it).
      const local = env['LOCALAPPDATA'];
      return [
        ...roots.map((r) => w.join(r, 'Google', 'Chrome', 'Application', 'chrome.exe')),
        ...roots.map((r) => w.join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe')),
        ...(local ? [w.join(local, 'Google', 'Chrome', 'Application', 'chrome.exe')] : []),
      ];
    }
    case 'darwin':
      return [
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
      ];
    default:
      return [
        '/usr/bin/google-chrome',
        '/usr/bin/google-chrome-stable',
        '/opt/google/chrome/chrome',
        '/usr/bin/microsoft-edge',
        '/usr/bin/microsoft-edge-stable',
        '/opt/microsoft/msedge/msedge',
        '/usr/bin/chromium',
        '/usr/bin/chromium-browser',
      ];
  }
}

function isRunnableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export type BrowserLocation = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly tried: readonly string[] };

/** The policy's program if set (only that one), else the first installed candidate. */
export function findBrowser(configured: string | undefined, where: BrowserCandidateEnv): BrowserLocation {
  const candidates = configured !== undefined ? [configured] : candidatePaths(where);
  for (const file of candidates) {
    if (!isRunnableFile(file, where.platform)) continue;
    try {
      // The real file is what runs and what the audit record names (/usr/bin/chromium is often a wrapper link).
      return { ok: true, path: realpathSync(file) };
    } catch {
      continue;
    }
  }
  return { ok: false, tried: candidates };
}
