import { randomUUID } from 'node:crypto';
import { pick, type Lang } from '../../common/i18n';
import { ipcFail, ipcOk, type ChatStarted, type IpcResult } from '../../common/ipc-contract';
import { Agent, AgentError, type AgentEvent, type AgentGate } from '../agent/agent';
import type { ConversationStore } from '../agent/conversations';
import type { ModelBackend, ToolMode } from '../model';
import { toChatEvent } from './chat-events';
import type { EmitEvent } from './emit';

export interface ChatServiceOptions {
  readonly gate: AgentGate;
  /** The model in use now (settings can change it between requests); null → UNAVAILABLE. */
  readonly model: () => { readonly backend: ModelBackend; readonly label: string } | null;
  readonly store: ConversationStore;
  readonly lang: Lang;
  readonly workspace: string;
  readonly toolMode?: ToolMode;
  readonly emit: EmitEvent;
}

interface Running {
  readonly runId: string;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

/**
 * Runs the agent for the window: one request at a time (the window has one chat), progress
 * pushed as `chat:event`, Stop through the run's signal. `chat:send` answers at once with the run
 * id; the answer itself streams.
 */
export class ChatService {
  #running: Running | null = null;

  constructor(private readonly o: ChatServiceOptions) {}

  send(text: string, conversationId?: string): IpcResult<ChatStarted> {
    if (this.#running) return ipcFail('BUSY', 'a request is already running; stop it or wait for its answer');
    const model = this.o.model();
    if (!model) return ipcFail('UNAVAILABLE', 'no model is configured for the desktop app');
    const runId = randomUUID();
    const controller = new AbortController();
    const agent = new Agent({
      gate: this.o.gate,
      backend: model.backend,
      store: this.o.store,
      lang: this.o.lang,
      workspace: this.o.workspace,
      modelLabel: model.label,
      ...(this.o.toolMode ? { toolMode: this.o.toolMode } : {}),
      onEvent: (e) => this.relay(e),
    });
    const done = agent
      .run(text, { signal: controller.signal, ...(conversationId !== undefined ? { conversationId } : {}) })
      .then(
        () => undefined,
        (error: unknown) => {
          const answer = error instanceof AgentError ? pick(error.text, this.o.lang) : String(error);
          this.o.emit('chat:event', { runId, type: 'done', status: 'failed', answer, conversationId: conversationId ?? '' });
        },
      )
      .finally(() => {
        if (this.#running?.runId === runId) this.#running = null;
      });
    this.#running = { runId, controller, done };
    return ipcOk({ runId });
  }

  /** A request is running (the model is not swapped under it). */
  get busy(): boolean {
    return this.#running !== null;
  }

  stop(runId: string): IpcResult<{ stopped: boolean }> {
    if (this.#running?.runId !== runId) return ipcFail('NOT_FOUND', 'no running request has that id');
    this.#running.controller.abort();
    return ipcOk({ stopped: true });
  }

  /** Agent progress (and the broker's "waiting") of the current run, to the window. */
  relay(e: AgentEvent): void {
    const running = this.#running;
    if (!running) return;
    const event = toChatEvent(running.runId, e);
    if (event) this.o.emit('chat:event', event);
  }

  /** Stops the current run and waits for it to end (quit, preview shutdown). */
  async close(): Promise<void> {
    const running = this.#running;
    if (!running) return;
    running.controller.abort();
    await running.done;
  }
}
