import {
  IPC_CHANNELS,
  ipcFail,
  type IpcChannel,
  type IpcEventName,
  type IpcEvents,
  type IpcRequest,
  type IpcResponse,
  type IpcResult,
} from '../../common/ipc-contract';
import { isValidRequest } from '../../common/ipc-validate';
import type { SenderFrame } from './renderer-origin';

/**
 * Main-process side of the IPC contract: one handler per channel (the mapped type makes a missing
 * channel a compile error), each call checked for its sender and its request shape before the
 * handler sees it, every outcome returned as an IpcResult. No runtime import of 'electron', so the
 * dispatcher runs under plain Node in tests; main.ts passes the real ipcMain.
 */
export type IpcHandler<C extends IpcChannel> = (
  request: IpcRequest<C>,
) => IpcResult<IpcResponse<C>> | Promise<IpcResult<IpcResponse<C>>>;

export type IpcHandlers = { readonly [C in IpcChannel]: IpcHandler<C> };

/** The part of Electron's IpcMainInvokeEvent the dispatcher reads. */
export interface InvokeEvent {
  readonly senderFrame: SenderFrame | null;
}

/** The part of Electron's ipcMain the registration uses. */
export interface IpcRegistrar {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface DispatchOptions {
  readonly isTrustedSender: (frame: SenderFrame | null) => boolean;
  /** Where refused senders and handler bugs are reported (the main-process log). */
  readonly report: (problem: IpcProblem) => void;
}

export type IpcProblem =
  | { readonly kind: 'forbidden-sender'; readonly channel: IpcChannel; readonly url: string | null }
  | { readonly kind: 'handler-error'; readonly channel: IpcChannel; readonly error: unknown };

export async function dispatch<C extends IpcChannel>(
  channel: C,
  handlers: IpcHandlers,
  event: InvokeEvent,
  args: readonly unknown[],
  options: DispatchOptions,
): Promise<IpcResult<IpcResponse<C>>> {
  const frame = event.senderFrame;
  if (!options.isTrustedSender(frame)) {
    options.report({ kind: 'forbidden-sender', channel, url: frame?.url ?? null });
    return ipcFail('FORBIDDEN_SENDER', `'${channel}' accepts messages only from the app's own page`);
  }
  const [request] = args;
  if (args.length !== 1 || !isValidRequest(channel, request)) {
    return ipcFail('BAD_REQUEST', `'${channel}' received a request that does not match the IPC contract`);
  }
  const handler: IpcHandler<C> = handlers[channel];
  try {
    return await handler(request);
  } catch (error) {
    // A throw here is a bug, not an outcome: keep the details in main, give the page a code.
    options.report({ kind: 'handler-error', channel, error });
    return ipcFail('INTERNAL', `'${channel}' failed inside the main process; see the application log`);
  }
}

/** Registers every channel of the contract; returns a function that removes them again. */
export function registerIpcHandlers(ipc: IpcRegistrar, handlers: IpcHandlers, options: DispatchOptions): () => void {
  for (const channel of IPC_CHANNELS) {
    ipc.handle(channel, (event, ...args) => dispatch(channel, handlers, event, args, options));
  }
  return () => {
    for (const channel of IPC_CHANNELS) ipc.removeHandler(channel);
  };
}

/** The part of Electron's WebFrameMain an event goes through. */
export interface EventFrame extends SenderFrame {
  send(channel: string, payload: unknown): void;
}

/**
 * Events go the other way, and are checked the same way: an event is sent only to the window's
 * top-level frame while it shows the app's own page. A window that navigated elsewhere (which
 * hardening blocks, but this does not rely on it) never receives an approval request or a
 * streamed answer. Returns whether the event was sent.
 */
export function sendEvent<E extends IpcEventName>(
  frame: EventFrame | null,
  event: E,
  payload: IpcEvents[E],
  isTrustedReceiver: (frame: SenderFrame | null) => boolean,
): boolean {
  if (!frame || !isTrustedReceiver(frame)) return false;
  frame.send(event, payload);
  return true;
}
