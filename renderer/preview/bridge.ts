import { createBaramApi, type IpcEventName } from '../../electron/common/ipc-contract';

/**
 * The preview's stand-in for the preload (electron/main/preview/server.ts serves it): the same
 * `window.baram`, built by the same createBaramApi, over HTTP instead of Electron IPC. Calls go to
 * /__baram/invoke/<channel> with this run's token; events arrive on one Server-Sent Events stream.
 */
const token = new URL(window.location.href).searchParams.get('token') ?? '';
const listeners = new Map<IpcEventName, Set<(payload: unknown) => void>>();
const stream = new EventSource(`./__baram/events?token=${encodeURIComponent(token)}`);
stream.onmessage = (message: MessageEvent<string>) => {
  const { event, payload } = JSON.parse(message.data) as { event: IpcEventName; payload: unknown };
  for (const listener of listeners.get(event) ?? []) listener(payload);
};

const api = createBaramApi(
  async (channel, request) => {
    const response = await fetch(`./__baram/invoke/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-baram-token': token },
      body: JSON.stringify(request),
    });
    return (await response.json()) as unknown;
  },
  (event, listener) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  },
);

Object.defineProperty(window, 'baram', { value: api, writable: false, configurable: false });
