import type { Session, WebContents } from 'electron';
import { withCspHeader, type CspOptions } from './csp';
import { isAllowedRequest, type RendererSource } from './renderer-origin';

/** Where refusals are reported (the main-process log); each one is a sign of a bug or an attack. */
export type SecurityLog = (message: string) => void;

/**
 * Session-wide rules for the renderer: every permission refused (camera, notifications, USB …),
 * every request outside the app's own files cancelled, our CSP on every HTTP response.
 */
export function hardenSession(session: Session, source: RendererSource, csp: CspOptions, log: SecurityLog): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log(`permission request refused: ${permission}`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);

  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedRequest(details.url, source);
    if (!allowed) log(`request cancelled: ${details.url}`);
    callback({ cancel: !allowed });
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCspHeader(details.responseHeaders, csp) });
  });
}

/**
 * Applied to every WebContents the app creates (app 'web-contents-created'), so a window added
 * later cannot forget it: the page never navigates anywhere (it is a single page), never opens a
 * window, never attaches a <webview>.
 */
export function hardenWebContents(contents: WebContents, log: SecurityLog): void {
  contents.on('will-navigate', (event) => {
    log(`navigation blocked: ${event.url}`);
    event.preventDefault();
  });
  // will-navigate covers the top frame only; subframes announce themselves here.
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame) return;
    log(`frame navigation blocked: ${event.url}`);
    event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    log('webview blocked');
    event.preventDefault();
  });
  contents.setWindowOpenHandler((details) => {
    log(`window.open denied: ${details.url}`);
    return { action: 'deny' };
  });
}
