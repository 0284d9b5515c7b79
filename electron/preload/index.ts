import { contextBridge, ipcRenderer } from 'electron';
import { createBaramApi } from '../common/ipc-contract';

/**
 * Sandboxed preload (bundled to CommonJS: out/preload/index.cjs). The page gets `window.baram`,
 * one function per contract channel, and nothing else: no ipcRenderer, no event objects, no
 * generic send, so a compromised page can only make the calls main already validates.
 */
contextBridge.exposeInMainWorld(
  'baram',
  createBaramApi((channel, request) => ipcRenderer.invoke(channel, request)),
);
