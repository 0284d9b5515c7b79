import type { Risk } from './domain';
import type { Lang, Text } from './i18n';

/**
 * The one typed IPC contract (DESIGN idiom 5): channel → [request, response]. The preload bridge
 * and the main-process handlers are both generated from this file, so a channel cannot exist on one
 * side only. Pure TypeScript: no node:*, no electron, no DOM.
 */

/** Request of a channel that takes no arguments: always the empty object `{}`. */
export type NoArgs = Readonly<Record<string, never>>;

export interface AppInfo {
  /** Application version (package.json). */
  readonly version: string;
  /** Language the UI starts in; Korean unless configured otherwise. */
  readonly lang: Lang;
}

/** What the UI may know about a tool: never its schema internals or its execute. */
export interface ToolSummary {
  readonly name: string;
  readonly family: string;
  readonly risk: Risk;
  readonly description: Text;
}

export interface IpcContract {
  readonly 'app:info': readonly [request: NoArgs, response: AppInfo];
  readonly 'tools:list': readonly [request: NoArgs, response: readonly ToolSummary[]];
}

export type IpcChannel = keyof IpcContract;
export type IpcRequest<C extends IpcChannel> = IpcContract[C][0];
export type IpcResponse<C extends IpcChannel> = IpcContract[C][1];

/**
 * Why a call failed. Results cross IPC as values because an exception thrown through
 * `ipcMain.handle` reaches the renderer as a bare message string, losing code and structure.
 *   FORBIDDEN_SENDER  the message did not come from the app's own top-level page
 *   BAD_REQUEST       the request does not have the contract's shape
 *   UNAVAILABLE       the feature behind the channel is not connected in this build
 *   INTERNAL          a bug in the main process (details stay in the main-process log)
 */
export type IpcErrorCode = 'FORBIDDEN_SENDER' | 'BAD_REQUEST' | 'UNAVAILABLE' | 'INTERNAL';

export interface IpcError {
  readonly code: IpcErrorCode;
  /** Diagnostic text for developers; the UI shows its own ko/en text chosen by `code`. */
  readonly message: string;
}

export type IpcResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: IpcError };

export function ipcOk<T>(value: T): IpcResult<T> {
  return { ok: true, value };
}

export function ipcFail<T = never>(code: IpcErrorCode, message: string): IpcResult<T> {
  return { ok: false, error: { code, message } };
}

type RequestGuard<C extends IpcChannel> = (value: unknown) => value is IpcRequest<C>;

function isNoArgs(value: unknown): value is NoArgs {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Reflect.ownKeys(value).length === 0;
}

/**
 * Runtime shape check per channel: the renderer is untrusted, so main validates every request.
 * Keyed by every channel (the mapped type makes a missing one a compile error), which also makes
 * it the source of the runtime channel list.
 */
const requestGuards: { readonly [C in IpcChannel]: RequestGuard<C> } = {
  'app:info': isNoArgs,
  'tools:list': isNoArgs,
};

export const IPC_CHANNELS: readonly IpcChannel[] = Object.freeze(Object.keys(requestGuards) as IpcChannel[]);

export function isIpcChannel(value: unknown): value is IpcChannel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(requestGuards, value);
}

export function isValidRequest<C extends IpcChannel>(channel: C, value: unknown): value is IpcRequest<C> {
  const guard: RequestGuard<C> = requestGuards[channel];
  return guard(value);
}

/** What the preload exposes as `window.baram`: one function per channel, nothing else. */
export type BaramApi = {
  readonly [C in IpcChannel]: (request: IpcRequest<C>) => Promise<IpcResult<IpcResponse<C>>>;
};

/** The transport underneath the API: `ipcRenderer.invoke` in the preload, a direct binding in e2e tests. */
export type IpcInvoke = (channel: IpcChannel, request: unknown) => Promise<unknown>;

/**
 * Builds the bridge object from the channel list. The transport's answer is trusted to be an
 * IpcResult because main's dispatcher is the only thing that produces it.
 */
export function createBaramApi(invoke: IpcInvoke): BaramApi {
  const api: Record<string, (request: unknown) => Promise<unknown>> = {};
  for (const channel of IPC_CHANNELS) {
    api[channel] = (request: unknown) => invoke(channel, request);
  }
  return Object.freeze(api) as unknown as BaramApi;
}
