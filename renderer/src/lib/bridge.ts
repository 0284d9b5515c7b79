import type { BaramApi } from '../../../electron/common/ipc-contract';

declare global {
  interface Window {
    /** Exposed by electron/preload; absent when the page runs outside the desktop app. */
    readonly baram?: BaramApi;
  }
}

/** The desktop bridge, or null when the page is opened without it (a browser, a broken preload). */
export function getBridge(): BaramApi | null {
  return window.baram ?? null;
}
