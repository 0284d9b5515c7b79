import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createBaramApi } from '../common/ipc-contract';

/**
 * Sandboxed preload (bundled to CommonJS: out/preload/index.cjs). The page gets `window.baram`,
 * one function per contract channel and `on` for the contract's events, nothing else: no
 * ipcRenderer, no event objects (a listener receives the payload only), no generic send, so a
 * compromised page can only make the calls main already validates.
 */
contextBridge.exposeInMainWorld(
  'baram',
  createBaramApi(
    (channel, request) => ipcRenderer.invoke(channel, request),
    (event, listener) => {
      // Only main can send to a renderer (Electron removed renderer-to-renderer sendTo); the
      // IpcRendererEvent object stays here, the page sees the payload.
      const forward = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(event, forward);
      return () => {
        ipcRenderer.removeListener(event, forward);
      };
    },
  ),
);
