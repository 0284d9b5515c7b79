import type { IpcEventName, IpcEvents } from '../../common/ipc-contract';

/** Pushes one contract event to the window (Electron: webContents; preview: the event stream). */
export type EmitEvent = <E extends IpcEventName>(event: E, payload: IpcEvents[E]) => void;
