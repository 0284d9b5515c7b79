import type { Static } from '@sinclair/typebox';
import type { ApprovalRequest } from './approval';
import type { Outcome, Risk } from './domain';
import type { Lang, Text } from './i18n';
import type { requestSchemas } from './ipc-schemas';
import type { GrantView, ModelCheckView, ModelStatus, ModelUseResult, PolicyView, SettingsView } from './settings-view';

/**
 * The one typed IPC contract (DESIGN idiom 5), in two halves:
 *   requests  channel → [request, response]: the page asks, main answers with an IpcResult;
 *   events    event → payload: main pushes to the page (approval requests, progress, streamed text).
 * Each request is a TypeBox schema (ipc-schemas.ts): the static type the page and the handlers see
 * and the runtime check main applies (ipc-validate.ts) come from the same object, so they cannot
 * drift. This file imports the schemas as types only, so the page and preload bundles stay small.
 * The preload bridge, the preview bridge and the main-process handlers are all generated from the
 * channel lists below. Pure TypeScript: no node:*, no electron, no DOM
 * (docs/2026-12-03-ipc-contract.md).
 */

export type IpcChannel = keyof typeof requestSchemas;
export type IpcRequest<C extends IpcChannel> = Static<(typeof requestSchemas)[C]>;

/** Request of a channel that takes no arguments: always the empty object `{}`. */
export type NoArgs = IpcRequest<'app:info'>;

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

export interface ChatStarted {
  /** Names the run in every `chat:event` and in `chat:stop`. */
  readonly runId: string;
}

export interface ConversationSummary {
  readonly id: string;
  readonly title: string;
  /** ISO time of the last change. */
  readonly updatedAt: string;
  readonly status: RunStatus | 'running';
}

/** What the window shows of a saved conversation: the person's requests and the answers. */
export interface ConversationView {
  readonly id: string;
  readonly title: string;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly text: string }[];
}

/** One event as the audit viewer lists it; `event` is the full stored event for the detail pane. */
export interface AuditRowView {
  readonly seq: number;
  /** As stored: ISO 8601 UTC. */
  readonly time: string;
  /** The office's wall-clock time at the event (`2026-12-03 23:05:01`) and its offset (`+09:00`). */
  readonly localTime: string;
  readonly utcOffset: string;
  readonly type: string;
  readonly typeLabel: Text;
  readonly osUser: string;
  readonly appUser: string;
  readonly tool: string;
  /** The first target (path, command, URL) and how many more there are. */
  readonly target: string;
  readonly moreTargets: number;
  readonly outcome: string;
  readonly decision: string;
  readonly callId: string;
  readonly requestId: string;
  readonly event: Readonly<Record<string, unknown>>;
}

/** A filter the query engine refused: which field, and what to send instead. */
export interface AuditFilterProblem {
  readonly field: string;
  readonly message: Text;
}

export type AuditPage =
  | {
      readonly events: readonly AuditRowView[];
      /** Pass as beforeSeq for the next (older) page; absent when nothing older can match. */
      readonly nextBeforeSeq?: number;
      /** The call used its scan time before the page filled: keep asking ("searching…"). */
      readonly scanLimitReached?: boolean;
    }
  | { readonly problem: AuditFilterProblem };

/** `baram audit verify`'s answer: the verdict and the CLI's report, in both languages. */
export interface AuditVerifyResult {
  readonly ok: boolean;
  readonly rows: number;
  readonly firstBadSeq?: number;
  /** What was wrong at firstBadSeq (the CLI's reason words). */
  readonly reason?: Text;
  /** Search indexes that do not match the rows (a filtered view could hide records). */
  readonly indexProblems: readonly string[];
  /** The whole report, line by line, as `baram audit verify --lang ko|en` prints it. */
  readonly report: Text;
}

export type AuditExportResult =
  | { readonly saved: true; readonly file: string; readonly rows: number; readonly fromSeq: number; readonly toSeq: number; readonly sha256: string }
  | { readonly saved: false; readonly cancelled: true }
  | { readonly saved: false; readonly cancelled: false; readonly problem: Text };

/** A QR code as SVG path data in module units (rendered as inline SVG: no data: URL under the CSP). */
export interface QrPicture {
  readonly size: number;
  readonly path: string;
}

export interface AuditCheckpointView {
  /** The checkpoint text exactly as `baram audit checkpoint` prints it; absent when none was taken yet. */
  readonly text?: string;
  readonly qr?: QrPicture;
}

/**
 * Something the session reports on its own, outside any request: an MCP server of the admin
 * policy that could not start, stopped, or was restarted (issue 19). The same reports go to the
 * ledger and, in the CLI, to stderr.
 */
export interface AppNotice {
  readonly id: number;
  /** ISO 8601, when the session reported it. */
  readonly at: string;
  readonly text: Text;
}

interface Responses {
  readonly 'app:info': AppInfo;
  readonly 'notices:list': readonly AppNotice[];
  readonly 'tools:list': readonly ToolSummary[];
  readonly 'settings:get': SettingsView;
  readonly 'settings:set-lang': { readonly lang: Lang };
  readonly 'model:status': ModelStatus;
  readonly 'model:check': ModelCheckView;
  readonly 'model:use': ModelUseResult;
  readonly 'policy:view': PolicyView;
  readonly 'grants:list': readonly GrantView[];
  readonly 'grants:revoke': { readonly revoked: number };
  readonly 'chat:send': ChatStarted;
  readonly 'chat:stop': { readonly stopped: boolean };
  readonly 'conversations:list': readonly ConversationSummary[];
  readonly 'conversations:load': ConversationView;
  readonly 'approval:pending': readonly ApprovalRequest[];
  readonly 'approval:answer': { readonly accepted: boolean };
  readonly 'audit:page': AuditPage;
  readonly 'audit:verify': AuditVerifyResult;
  readonly 'audit:export': AuditExportResult;
  readonly 'audit:checkpoint': AuditCheckpointView;
}

export type IpcResponse<C extends IpcChannel> = Responses[C];

// ── events pushed to the window ─────────────────────────────────────────────────────────────

export type RunStatus = 'answered' | 'failed' | 'cancelled' | 'step_limit';

/** Progress of one agent run, as the window shows it. */
export type ChatEvent = { readonly runId: string } & (
  | { readonly type: 'thinking'; readonly step: number }
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'calling'; readonly callId: string; readonly tool: string; readonly args: Readonly<Record<string, unknown>> }
  | { readonly type: 'called'; readonly callId: string; readonly tool: string; readonly outcome: Outcome; readonly text: string }
  | { readonly type: 'waiting'; readonly tool: string; readonly summary: Text }
  | { readonly type: 'done'; readonly status: RunStatus; readonly answer: string; readonly conversationId: string }
);

/** An approval that is no longer open (answered, timed out, stopped): the dialog closes. */
export interface ApprovalClosed {
  readonly callId: string;
}

export interface IpcEvents {
  readonly 'app:notice': AppNotice;
  readonly 'chat:event': ChatEvent;
  readonly 'approval:request': ApprovalRequest;
  readonly 'approval:closed': ApprovalClosed;
}

export type IpcEventName = keyof IpcEvents;

/** The runtime event list; `satisfies` makes a missing or extra name a compile error. */
const EVENT_NAMES = { 'app:notice': true, 'chat:event': true, 'approval:request': true, 'approval:closed': true } as const satisfies Record<IpcEventName, true>;
export const IPC_EVENTS: readonly IpcEventName[] = Object.freeze(Object.keys(EVENT_NAMES) as IpcEventName[]);

export function isIpcEvent(value: unknown): value is IpcEventName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(EVENT_NAMES, value);
}

// ── results ─────────────────────────────────────────────────────────────────────────────────

/**
 * Why a call failed. Results cross IPC as values because an exception thrown through
 * `ipcMain.handle` reaches the renderer as a bare message string, losing code and structure.
 *   FORBIDDEN_SENDER  the message did not come from the app's own top-level page
 *   BAD_REQUEST       the request does not have the contract's shape
 *   UNAVAILABLE       the feature behind the channel is not connected in this build
 *   BUSY              a request is already running (one run at a time per window)
 *   NOT_FOUND         the run or approval named is not open (finished, timed out)
 *   INTERNAL          a bug in the main process (details stay in the main-process log)
 */
export type IpcErrorCode = 'FORBIDDEN_SENDER' | 'BAD_REQUEST' | 'UNAVAILABLE' | 'BUSY' | 'NOT_FOUND' | 'INTERNAL';

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

/** The runtime channel list; `satisfies` makes a channel missing here (or extra) a compile error. */
const CHANNEL_NAMES = {
  'app:info': true,
  'notices:list': true,
  'tools:list': true,
  'settings:get': true,
  'settings:set-lang': true,
  'model:status': true,
  'model:check': true,
  'model:use': true,
  'policy:view': true,
  'grants:list': true,
  'grants:revoke': true,
  'chat:send': true,
  'chat:stop': true,
  'conversations:list': true,
  'conversations:load': true,
  'approval:pending': true,
  'approval:answer': true,
  'audit:page': true,
  'audit:verify': true,
  'audit:export': true,
  'audit:checkpoint': true,
} as const satisfies Record<IpcChannel, true>;

export const IPC_CHANNELS: readonly IpcChannel[] = Object.freeze(Object.keys(CHANNEL_NAMES) as IpcChannel[]);

export function isIpcChannel(value: unknown): value is IpcChannel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CHANNEL_NAMES, value);
}

// ── the bridge ──────────────────────────────────────────────────────────────────────────────

export type EventListener<E extends IpcEventName> = (payload: IpcEvents[E]) => void;

/**
 * What the preload exposes as `window.baram`: one function per channel, plus `on` to listen to
 * the contract's events (returns the function that stops listening). Nothing else.
 */
export type BaramApi = {
  readonly [C in IpcChannel]: (request: IpcRequest<C>) => Promise<IpcResult<IpcResponse<C>>>;
} & {
  readonly on: <E extends IpcEventName>(event: E, listener: EventListener<E>) => () => void;
};

/** The transport underneath the API: `ipcRenderer.invoke` in the preload, HTTP in the preview. */
export type IpcInvoke = (channel: IpcChannel, request: unknown) => Promise<unknown>;
export type IpcSubscribe = (event: IpcEventName, listener: (payload: unknown) => void) => () => void;

/**
 * Builds the bridge object from the channel and event lists. The transport's answers are trusted
 * to be IpcResults and event payloads because main's dispatcher and emitter are the only things
 * that produce them; an unknown event name is refused here, before the transport sees it.
 */
export function createBaramApi(invoke: IpcInvoke, subscribe: IpcSubscribe): BaramApi {
  const api: Record<string, unknown> = {};
  for (const channel of IPC_CHANNELS) {
    api[channel] = (request: unknown) => invoke(channel, request);
  }
  api['on'] = (event: unknown, listener: unknown) => {
    if (!isIpcEvent(event) || typeof listener !== 'function') throw new TypeError(`not an event of the IPC contract: ${String(event)}`);
    return subscribe(event, (payload) => (listener as (p: unknown) => void)(payload));
  };
  return Object.freeze(api) as unknown as BaramApi;
}
