import type { FinishReason, ModelBackend, ModelError, ModelEvent, GenerateRequest, ToolCall, Usage } from './backend';
import { EmbeddedBackend, type EmbeddedBackendOptions } from './embedded';
import type { ModelCheck } from './check';
import { OllamaBackend } from './ollama';
import { OpenAiBackend } from './openai';

/** One turn, gathered: what the agent loop needs after the stream ended. */
export interface Turn {
  readonly text: string;
  readonly reasoning: string;
  readonly calls: readonly ToolCall[];
  readonly malformed: readonly Extract<ModelEvent, { type: 'malformed_call' }>[];
  readonly usage?: Usage;
  readonly finish: FinishReason;
  readonly error?: ModelError;
}

/** Folds events into a Turn; `onEvent` sees each one as it arrives (progress, streaming text). */
export async function collectTurn(events: AsyncIterable<ModelEvent>, onEvent?: (e: ModelEvent) => void): Promise<Turn> {
  let text = '';
  let reasoning = '';
  const calls: ToolCall[] = [];
  const malformed: Extract<ModelEvent, { type: 'malformed_call' }>[] = [];
  let usage: Usage | undefined;
  let finish: FinishReason = 'error';
  let error: ModelError | undefined;
  for await (const e of events) {
    onEvent?.(e);
    switch (e.type) {
      case 'text':
        text += e.delta;
        break;
      case 'reasoning':
        reasoning += e.delta;
        break;
      case 'tool_call':
        calls.push(e.call);
        break;
      case 'malformed_call':
        malformed.push(e);
        break;
      case 'usage':
        usage = e.usage;
        break;
      case 'finish':
        finish = e.reason;
        break;
      case 'error':
        error = { code: e.code, message: e.message };
        break;
    }
  }
  return { text, reasoning, calls, malformed, finish, ...(usage ? { usage } : {}), ...(error ? { error } : {}) };
}

export function generateTurn(backend: ModelBackend, request: GenerateRequest, onEvent?: (e: ModelEvent) => void): Promise<Turn> {
  return collectTurn(backend.generate(request), onEvent);
}

export interface CreateBackendOptions {
  /** For URLs: `ollama` uses the native /api/chat (num_ctx); default `openai`. checkModel tells which. */
  readonly kind?: 'openai' | 'ollama';
  readonly model?: string;
  readonly apiKey?: string;
  readonly numCtx?: number;
  readonly embedded?: Omit<EmbeddedBackendOptions, 'modelPath'>;
}

/** `--model URL|FILE.gguf` → a backend. Nothing is contacted or loaded until the first generate. */
export function createBackend(target: URL | string, options: CreateBackendOptions = {}): ModelBackend {
  const isUrl = target instanceof URL || /^https?:\/\//i.test(target);
  if (!isUrl) return new EmbeddedBackend({ modelPath: String(target), ...options.embedded });
  const baseUrl = String(target);
  if (options.kind === 'ollama') {
    return new OllamaBackend({ baseUrl, ...(options.model ? { model: options.model } : {}), ...(options.numCtx ? { numCtx: options.numCtx } : {}) });
  }
  return new OpenAiBackend({ baseUrl, ...(options.model ? { model: options.model } : {}), ...(options.apiKey ? { apiKey: options.apiKey } : {}) });
}

/** The backend a `checkModel` result calls for: Ollama through its native API (num_ctx), the rest as OpenAI. */
export function backendForCheck(check: ModelCheck, options: Omit<CreateBackendOptions, 'kind'> = {}): ModelBackend {
  const model = options.model ?? check.model ?? undefined;
  return createBackend(check.target, { ...options, ...(model ? { model } : {}), kind: check.kind === 'ollama' ? 'ollama' : 'openai' });
}
