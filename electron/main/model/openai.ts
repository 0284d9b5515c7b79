import {
  fromWireName,
  synthesizeCallId,
  toWireName,
  turnSeed,
  type FinishReason,
  type GenerateRequest,
  type ModelBackend,
  type ModelEvent,
  type ModelMessage,
  type ToolCall,
  type Usage,
} from './backend';
import { buildActionSchema, constrainedMessages, parseAction, responseFormat } from './action-schema';
import { detailOf, errorBodyDetail, M } from './messages';
import { bodyChunks, sseEvents } from './stream';
import { normaliseArguments, TextCallFilter } from './text-calls';
import { ThinkSplitter } from './think';

/**
 * One client for every OpenAI-compatible chat-completions server: llama.cpp `llama-server`, vLLM,
 * LM Studio, Ollama's `/v1`. The shapes it survives are listed in
 * docs/2026-12-03-model-backends.md; each has a test against the scripted server.
 */
export interface OpenAiBackendOptions {
  /** `http://host:port` or `http://host:port/v1`. */
  readonly baseUrl: string;
  /** Model id; when absent, the first of `GET /v1/models`. */
  readonly model?: string;
  readonly apiKey?: string;
  /** Extra top-level request fields (e.g. `parallel_tool_calls`). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}

export function openAiBaseUrl(url: string): string {
  const u = url.replace(/\/+$/, '');
  if (/\/v1$/.test(u)) return u;
  return `${u}/v1`;
}

export class OpenAiBackend implements ModelBackend {
  readonly kind = 'openai' as const;
  private readonly base: string;
  private model: string | undefined;

  constructor(private readonly options: OpenAiBackendOptions) {
    this.base = openAiBaseUrl(options.baseUrl);
    this.model = options.model;
  }

  /** The request body exactly as sent; exported for tests and `model check`. */
  requestBody(request: GenerateRequest, model: string): Record<string, unknown> {
    const constrained = request.toolMode === 'constrained';
    const messages = constrained ? constrainedMessages(request.messages, request.tools) : request.messages;
    const body: Record<string, unknown> = {
      model,
      messages: messages.map(toOpenAiMessage),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (constrained) {
      // No `tools` with a grammar: llama-server answers 400 to the pair (trap 4).
      body.response_format = responseFormat(buildActionSchema(request.tools, request.toolChoice === 'required'));
    } else if (request.responseSchema) {
      // A schema is a grammar: llama-server refuses it together with `tools` (trap 4).
      body.response_format = responseFormat(request.responseSchema, 'baram_response');
    } else {
      if (request.tools.length > 0) {
        body.tools = request.tools.map((t) => ({
          type: 'function',
          function: { name: toWireName(t.name), description: t.description, parameters: t.parameters },
        }));
        if (request.toolChoice === 'required') body.tool_choice = 'required';
      }
    }
    return { ...body, ...this.options.extraBody };
  }

  async listModels(signal?: AbortSignal): Promise<{ id: string; raw: Record<string, unknown> }[]> {
    const res = await fetch(`${this.base}/models`, { headers: this.headers(), signal });
    if (!res.ok) throw new HttpError(res.status, errorBodyDetail(await readJsonOrText(res), res.statusText));
    const body = (await res.json()) as { data?: unknown };
    const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
    return data.filter((m) => typeof m.id === 'string').map((m) => ({ id: m.id as string, raw: m }));
  }

  headers(): Record<string, string> {
    const h: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream, application/json' };
    if (this.options.apiKey) h.authorization = `Bearer ${this.options.apiKey}`;
    return h;
  }

  get url(): string {
    return this.base;
  }

  async *generate(request: GenerateRequest): AsyncGenerator<ModelEvent> {
    const signal = request.signal;
    const seed = turnSeed(request.messages);
    let res: Response;
    try {
      if (this.model === undefined) this.model = (await this.listModels(signal))[0]?.id ?? 'default';
      res = await fetch(`${this.base}/chat/completions`, {
        method: 'POST',
        headers: this.headers(),
        body: JSON.stringify(this.requestBody(request, this.model)),
        signal,
      });
    } catch (e) {
      if (signal?.aborted) return yield* aborted();
      if (e instanceof HttpError) return yield* failed('http', M.http(e.status, e.detail));
      return yield* failed('connect', M.connect(this.base, detailOf(e)));
    }
    if (!res.ok) {
      const detail = errorBodyDetail(await readJsonOrText(res).catch(() => ''), res.statusText);
      return yield* failed('http', M.http(res.status, detail));
    }
    const known = request.tools.map((t) => t.name);
    const contentType = res.headers.get('content-type') ?? '';
    if (!res.body) return yield* failed('protocol', M.protocol('empty body'));
    if (contentType.includes('application/json')) {
      // A server that ignored `stream: true` (or a proxy that buffered it).
      let body: unknown;
      try {
        body = await res.json();
      } catch (e) {
        if (signal?.aborted) return yield* aborted();
        return yield* failed('truncated', M.truncated());
      }
      return yield* this.fromCompletion(body, request, known, seed);
    }
    yield* this.fromStream(res.body, request, known, seed);
  }

  private async *fromCompletion(body: unknown, request: GenerateRequest, known: string[], seed: string): AsyncGenerator<ModelEvent> {
    const b = (body ?? {}) as Record<string, unknown>;
    if (b.error !== undefined) return yield* failed('server', M.server(errorBodyDetail(b, 'error')));
    const choice = (Array.isArray(b.choices) ? b.choices[0] : undefined) as Record<string, unknown> | undefined;
    const message = (choice?.message ?? {}) as Record<string, unknown>;
    const acc = new Accumulator(request, known, seed);
    const reasoning = message.reasoning_content ?? message.reasoning;
    if (typeof reasoning === 'string' && reasoning) yield { type: 'reasoning', delta: reasoning };
    if (typeof message.content === 'string') yield* acc.text(message.content);
    if (Array.isArray(message.tool_calls)) acc.toolDeltas(message.tool_calls);
    acc.finishReason = choice?.finish_reason;
    acc.usage(b);
    yield* acc.end(true);
  }

  private async *fromStream(body: ReadableStream<Uint8Array>, request: GenerateRequest, known: string[], seed: string): AsyncGenerator<ModelEvent> {
    const acc = new Accumulator(request, known, seed);
    let done = false;
    try {
      for await (const ev of sseEvents(bodyChunks(body))) {
        if (ev.kind === 'error') return yield* failed('server', M.server(errorDetail(ev.data)));
        if (ev.data === '[DONE]') {
          done = true;
          break;
        }
        let chunk: Record<string, unknown>;
        try {
          chunk = JSON.parse(ev.data) as Record<string, unknown>;
        } catch (e) {
          return yield* failed('protocol', M.protocol(`${(e as Error).message}: ${ev.data.slice(0, 200)}`));
        }
        if (chunk === null || typeof chunk !== 'object') return yield* failed('protocol', M.protocol(ev.data.slice(0, 200)));
        // `{"error":…}` (llama.cpp, OpenAI), `{"object":"error","message":…}` (vLLM), `event: error`.
        if (chunk.error !== undefined || chunk.object === 'error' || ev.event === 'error') return yield* failed('server', M.server(errorBodyDetail(chunk, ev.data)));
        acc.usage(chunk);
        const choices = Array.isArray(chunk.choices) ? (chunk.choices as Record<string, unknown>[]) : [];
        for (const choice of choices.slice(0, 1)) {
          const delta = (choice.delta ?? choice.message ?? {}) as Record<string, unknown>;
          const reasoning = delta.reasoning_content ?? delta.reasoning;
          if (typeof reasoning === 'string' && reasoning) yield { type: 'reasoning', delta: reasoning };
          if (typeof delta.content === 'string' && delta.content) yield* acc.text(delta.content);
          if (Array.isArray(delta.tool_calls)) acc.toolDeltas(delta.tool_calls);
          if (choice.finish_reason !== undefined && choice.finish_reason !== null) acc.finishReason = choice.finish_reason;
        }
      }
    } catch (e) {
      if (request.signal?.aborted) return yield* aborted();
      // The connection closed mid-answer ("terminated", ECONNRESET): nothing received is executed.
      return yield* failed('truncated', M.truncated());
    }
    if (request.signal?.aborted) return yield* aborted();
    // A missing [DONE] is fine once the finish reason came; without either the stream was cut.
    if (!done && acc.finishReason === undefined) return yield* failed('truncated', M.truncated());
    yield* acc.end(done || acc.finishReason !== undefined);
  }
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`HTTP ${status}: ${detail}`);
  }
}

async function readJsonOrText(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorDetail(data: string): string {
  try {
    return errorBodyDetail({ error: JSON.parse(data) }, data);
  } catch {
    return data.slice(0, 500);
  }
}

interface PendingCall {
  id?: string;
  name: string;
  args: string;
  argsObject?: unknown;
}

/** Collects one turn: content through the text-call filter, tool-call deltas per index. */
class Accumulator {
  finishReason: unknown;
  private readonly calls: PendingCall[] = [];
  private readonly byIndex = new Map<number, PendingCall>();
  private readonly filter: TextCallFilter;
  private readonly think = new ThinkSplitter();
  private lastUsage: Usage | undefined;
  private content = '';

  constructor(
    private readonly request: GenerateRequest,
    private readonly known: string[],
    private readonly seed: string,
  ) {
    this.filter = new TextCallFilter(known, seed);
  }

  *text(delta: string): Generator<ModelEvent> {
    yield* this.afterThink(this.think.push(delta));
  }

  private *afterThink(part: { reasoning: string; text: string }): Generator<ModelEvent> {
    if (part.reasoning) yield { type: 'reasoning', delta: part.reasoning };
    if (!part.text) return;
    this.content += part.text;
    if (this.request.toolMode === 'constrained') return; // one JSON action, read at the end
    const out = this.filter.push(part.text);
    if (out) yield { type: 'text', delta: out };
  }

  toolDeltas(deltas: unknown[]): void {
    deltas.forEach((raw) => {
      if (raw === null || typeof raw !== 'object') return;
      const d = raw as Record<string, unknown>;
      const fn = (d.function ?? {}) as Record<string, unknown>;
      const id = typeof d.id === 'string' && d.id ? d.id : typeof d.id === 'number' ? String(d.id) : undefined;
      const name = typeof fn.name === 'string' && fn.name ? fn.name : undefined;
      let call: PendingCall | undefined;
      if (typeof d.index === 'number') call = this.byIndex.get(d.index);
      else if (id !== undefined) call = this.calls.find((c) => c.id === id);
      else if (name === undefined) call = this.calls[this.calls.length - 1];
      // No index, no id, a name: a new call (servers that send each call whole, without index).
      if (!call) {
        call = { name: '', args: '' };
        this.calls.push(call);
        if (typeof d.index === 'number') this.byIndex.set(d.index, call);
      }
      if (id !== undefined && call.id === undefined) call.id = id;
      if (name !== undefined && !call.name) call.name = name;
      const args = fn.arguments;
      if (typeof args === 'string') call.args += args;
      else if (args !== undefined && args !== null) call.argsObject = args;
    });
  }

  usage(chunk: Record<string, unknown>): void {
    const u = chunk.usage as Record<string, unknown> | undefined;
    const t = chunk.timings as Record<string, unknown> | undefined;
    if ((!u || typeof u !== 'object') && (!t || typeof t !== 'object')) return;
    const usage: { -readonly [K in keyof Usage]: Usage[K] } = { ...this.lastUsage };
    if (u && typeof u === 'object') {
      if (typeof u.prompt_tokens === 'number') usage.promptTokens = u.prompt_tokens;
      if (typeof u.completion_tokens === 'number') usage.completionTokens = u.completion_tokens;
      const details = u.prompt_tokens_details as Record<string, unknown> | undefined;
      if (details && typeof details.cached_tokens === 'number') usage.cachedPromptTokens = details.cached_tokens;
    }
    if (t && typeof t === 'object' && typeof t.cache_n === 'number') usage.cachedPromptTokens = t.cache_n;
    this.lastUsage = usage;
  }

  *end(complete: boolean): Generator<ModelEvent> {
    const reason = normaliseFinish(this.finishReason);
    if (!complete) return yield* failed('truncated', M.truncated());
    yield* this.afterThink(this.think.end());
    if (reason === 'length') {
      // Whatever was received of a call is cut: show the prose, never a call.
      if (this.request.toolMode !== 'constrained') {
        const rest = this.filter.end();
        if (rest.text && rest.calls.length === 0 && rest.malformed.length === 0) yield { type: 'text', delta: rest.text };
      }
      if (this.lastUsage) yield { type: 'usage', usage: this.lastUsage };
      yield { type: 'error', code: 'length', message: M.length() };
      yield { type: 'finish', reason: 'length' };
      return;
    }
    if (reason === 'error') {
      return yield* failed('server', M.server(`finish_reason ${String(this.finishReason)}`));
    }
    const events: ModelEvent[] = [];
    if (this.request.toolMode === 'constrained') {
      const action = parseAction(this.content, this.request.tools);
      if (action.kind === 'answer') events.push({ type: 'text', delta: action.text });
      else if (action.kind === 'call') events.push({ type: 'tool_call', call: { id: synthesizeCallId(this.seed, 0), name: action.name, arguments: action.arguments } });
      else events.push({ type: 'malformed_call', id: synthesizeCallId(this.seed, 0), name: action.name, raw: this.content, error: action.error });
    } else {
      const usedIds = new Set<string>();
      this.calls.forEach((c, i) => {
        const id = c.id && !usedIds.has(c.id) ? c.id : synthesizeCallId(this.seed, i);
        usedIds.add(id);
        const raw = c.argsObject !== undefined ? JSON.stringify(c.argsObject) : c.args;
        if (!c.name) {
          events.push({ type: 'malformed_call', id, name: null, raw, error: M.badCallShape("no function name") });
          return;
        }
        const name = fromWireName(c.name, this.known);
        const args = normaliseArguments(c.argsObject !== undefined ? c.argsObject : c.args);
        if ('error' in args) events.push({ type: 'malformed_call', id, name, raw, error: M.badArguments(name, args.error) });
        else events.push({ type: 'tool_call', call: { id, name, arguments: args.value } satisfies ToolCall });
      });
      const rest = this.filter.end();
      if (rest.text) events.unshift({ type: 'text', delta: rest.text });
      if (this.calls.length === 0) {
        for (const c of rest.calls) events.push({ type: 'tool_call', call: c });
        for (const m of rest.malformed) events.push({ type: 'malformed_call', id: m.id, name: m.name, raw: m.raw, error: m.error });
      }
    }
    yield* events;
    if (this.lastUsage) yield { type: 'usage', usage: this.lastUsage };
    const anyCall = events.some((e) => e.type === 'tool_call' || e.type === 'malformed_call');
    yield { type: 'finish', reason: anyCall ? 'tool_calls' : 'stop' };
  }
}

/** `stop`/`eos`/`end_turn` → stop; `tool_calls`/`tool`/`function_call` → tool_calls; `length`/`max_tokens` → length. */
export function normaliseFinish(reason: unknown): FinishReason {
  switch (reason) {
    case 'tool_calls':
    case 'tool':
    case 'tool_call':
    case 'function_call':
      return 'tool_calls';
    case 'length':
    case 'max_tokens':
    case 'model_length':
      return 'length';
    case 'error':
    case 'content_filter':
      return 'error';
    default:
      return 'stop';
  }
}

export function* failed(code: 'connect' | 'http' | 'server' | 'truncated' | 'protocol' | 'prompt_truncated' | 'engine' | 'model_file', message: import('../../common/i18n').Text): Generator<ModelEvent> {
  yield { type: 'error', code, message };
  yield { type: 'finish', reason: 'error' };
}

export function* aborted(): Generator<ModelEvent> {
  yield { type: 'error', code: 'aborted', message: M.aborted() };
  yield { type: 'finish', reason: 'error' };
}

function toOpenAiMessage(m: ModelMessage): Record<string, unknown> {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant':
      if (m.toolCalls && m.toolCalls.length > 0) {
        return {
          role: 'assistant',
          content: m.content || null,
          // Only validated, re-serialised arguments go back (trap 5: invalid JSON in history → 500).
          tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: toWireName(c.name), arguments: JSON.stringify(c.arguments) } })),
        };
      }
      return { role: 'assistant', content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, name: toWireName(m.toolName), content: m.content };
  }
}
