import {
  fromWireName,
  synthesizeCallId,
  toWireName,
  turnSeed,
  type GenerateRequest,
  type ModelBackend,
  type ModelEvent,
  type ModelMessage,
  type ToolCall,
  type ToolDefinition,
} from './backend';
import { buildActionSchema, constrainedMessages, parseAction } from './action-schema';
import { detailOf, errorBodyDetail, M } from './messages';
import { aborted, failed } from './openai';
import { bodyChunks, lines } from './stream';
import { normaliseArguments, TextCallFilter } from './text-calls';
import { ThinkSplitter } from './think';

/**
 * Ollama's native `/api/chat` (NDJSON). Only this API takes `options.num_ctx`: on `/v1` Ollama
 * silently cuts every prompt to its default (4096 below 24 GiB VRAM), tool block first (notes
 * trap 2). Each streamed call arrives whole, `arguments` as an object, `done_reason` stays "stop".
 */
export interface OllamaBackendOptions {
  readonly baseUrl: string;
  readonly model?: string;
  /** Context length asked of the server (`options.num_ctx`). */
  readonly numCtx?: number;
  /**
   * Tokens of the prompt as the model will see it. Without a tokenizer for the served model the
   * default is an estimate: UTF-8 bytes / 5 of everything sent — below what BPE vocabularies give
   * for Korean (≈ 2–3 bytes a token), English prose (≈ 4) and JSON (≈ 3), so it errs towards
   * "fits"; only long runs of whitespace pack more bytes into a token.
   */
  readonly countPromptTokens?: (messages: readonly ModelMessage[], tools: readonly ToolDefinition[]) => number;
}

export const DEFAULT_NUM_CTX = 8192;

export function estimatePromptTokens(messages: readonly ModelMessage[], tools: readonly ToolDefinition[]): number {
  const bytes = new TextEncoder().encode(JSON.stringify(messages) + JSON.stringify(tools)).length;
  return Math.floor(bytes / 5);
}

export class OllamaBackend implements ModelBackend {
  readonly kind = 'ollama' as const;
  private readonly base: string;
  private model: string | undefined;
  readonly numCtx: number;

  constructor(private readonly options: OllamaBackendOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '').replace(/\/(api|v1)$/, '');
    this.model = options.model;
    this.numCtx = options.numCtx ?? DEFAULT_NUM_CTX;
  }

  get url(): string {
    return this.base;
  }

  requestBody(request: GenerateRequest, model: string): Record<string, unknown> {
    const constrained = request.toolMode === 'constrained';
    const messages = constrained ? constrainedMessages(request.messages, request.tools) : request.messages;
    const options: Record<string, unknown> = { num_ctx: this.numCtx };
    if (request.maxTokens !== undefined) options.num_predict = request.maxTokens;
    if (request.temperature !== undefined) options.temperature = request.temperature;
    const body: Record<string, unknown> = { model, messages: messages.map(toOllamaMessage), stream: true, options };
    if (constrained) body.format = buildActionSchema(request.tools, request.toolChoice === 'required');
    else if (request.responseSchema) body.format = request.responseSchema;
    else {
      if (request.tools.length > 0) {
        body.tools = request.tools.map((t) => ({ type: 'function', function: { name: toWireName(t.name), description: t.description, parameters: t.parameters } }));
      }
    }
    return body;
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    const res = await fetch(`${this.base}/api/tags`, { signal });
    if (!res.ok) throw new Error(`HTTP ${res.status} from /api/tags`);
    const body = (await res.json()) as { models?: { name?: unknown }[] };
    return (body.models ?? []).map((m) => m.name).filter((n): n is string => typeof n === 'string');
  }

  async *generate(request: GenerateRequest): AsyncGenerator<ModelEvent> {
    const signal = request.signal;
    const seed = turnSeed(request.messages);
    const sent = (this.options.countPromptTokens ?? estimatePromptTokens)(
      request.toolMode === 'constrained' ? constrainedMessages(request.messages, request.tools) : request.messages,
      request.toolMode === 'constrained' ? [] : request.tools,
    );
    let res: Response;
    try {
      if (this.model === undefined) this.model = (await this.listModels(signal))[0] ?? 'default';
      res = await fetch(`${this.base}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(this.requestBody(request, this.model)),
        signal,
      });
    } catch (e) {
      if (signal?.aborted) return yield* aborted();
      return yield* failed('connect', M.connect(this.base, detailOf(e)));
    }
    if (!res.ok) {
      const textBody = await res.text().catch(() => '');
      let parsed: unknown = textBody;
      try {
        parsed = JSON.parse(textBody);
      } catch {
        // plain text
      }
      return yield* failed('http', M.http(res.status, errorBodyDetail(parsed, res.statusText)));
    }
    if (!res.body) return yield* failed('protocol', M.protocol('empty body'));

    const known = request.tools.map((t) => t.name);
    const filter = new TextCallFilter(known, seed);
    const pending: { id?: string; name: string; args: unknown }[] = [];
    let content = '';
    let final: Record<string, unknown> | undefined;
    const think = new ThinkSplitter();
    const afterThink = function* (part: { reasoning: string; text: string }): Generator<ModelEvent> {
      if (part.reasoning) yield { type: 'reasoning', delta: part.reasoning };
      if (!part.text) return;
      content += part.text;
      if (request.toolMode === 'constrained') return;
      const out = filter.push(part.text);
      if (out) yield { type: 'text', delta: out };
    };
    try {
      for await (const line of lines(bodyChunks(res.body))) {
        if (!line.trim()) continue;
        let obj: Record<string, unknown>;
        try {
          obj = JSON.parse(line) as Record<string, unknown>;
        } catch (e) {
          return yield* failed('protocol', M.protocol(`${(e as Error).message}: ${line.slice(0, 200)}`));
        }
        if (obj.error !== undefined) return yield* failed('server', M.server(errorBodyDetail(obj, line)));
        const message = (obj.message ?? {}) as Record<string, unknown>;
        if (typeof message.thinking === 'string' && message.thinking) yield { type: 'reasoning', delta: message.thinking };
        if (typeof message.content === 'string' && message.content) yield* afterThink(think.push(message.content));
        if (Array.isArray(message.tool_calls)) {
          for (const c of message.tool_calls as Record<string, unknown>[]) {
            const fn = (c.function ?? {}) as Record<string, unknown>;
            const entry: { id?: string; name: string; args: unknown } = { name: typeof fn.name === 'string' ? fn.name : '', args: fn.arguments };
            if (typeof c.id === 'string' && c.id) entry.id = c.id;
            pending.push(entry);
          }
        }
        if (obj.done === true) {
          final = obj;
          break;
        }
      }
    } catch {
      if (signal?.aborted) return yield* aborted();
      return yield* failed('truncated', M.truncated());
    }
    if (signal?.aborted) return yield* aborted();
    if (!final) return yield* failed('truncated', M.truncated());
    yield* afterThink(think.end());

    const evaluated = typeof final.prompt_eval_count === 'number' ? final.prompt_eval_count : undefined;
    const generated = typeof final.eval_count === 'number' ? final.eval_count : undefined;
    if (evaluated !== undefined || generated !== undefined) {
      yield { type: 'usage', usage: { ...(evaluated !== undefined ? { promptTokens: evaluated } : {}), ...(generated !== undefined ? { completionTokens: generated } : {}) } };
    }
    // Ollama cuts a long prompt to num_ctx and says so only in its log (trap 2). A prompt whose
    // lower-bound size exceeds num_ctx was cut for sure; an evaluated count that fills the whole
    // context while less than what was sent is the same cut seen from the other side.
    if (sent > this.numCtx || (evaluated !== undefined && evaluated >= this.numCtx - 16 && sent > evaluated * 0.5)) {
      return yield* failed('prompt_truncated', M.promptTruncated(sent, evaluated ?? this.numCtx, this.numCtx));
    }
    const reason = final.done_reason;
    if (reason === 'length') {
      yield { type: 'error', code: 'length', message: M.length() };
      yield { type: 'finish', reason: 'length' };
      return;
    }

    const events: ModelEvent[] = [];
    if (request.toolMode === 'constrained') {
      const action = parseAction(content, request.tools);
      const id = synthesizeCallId(seed, 0);
      if (action.kind === 'answer') events.push({ type: 'text', delta: action.text });
      else if (action.kind === 'call') events.push({ type: 'tool_call', call: { id, name: action.name, arguments: action.arguments } });
      else events.push({ type: 'malformed_call', id, name: action.name, raw: content, error: action.error });
    } else {
      const used = new Set<string>();
      pending.forEach((p, i) => {
        const id = p.id && !used.has(p.id) ? p.id : synthesizeCallId(seed, i);
        used.add(id);
        const raw = typeof p.args === 'string' ? p.args : JSON.stringify(p.args ?? {});
        if (!p.name) return void events.push({ type: 'malformed_call', id, name: null, raw, error: M.badCallShape('no function name') });
        const name = fromWireName(p.name, known);
        const args = normaliseArguments(p.args);
        if ('error' in args) events.push({ type: 'malformed_call', id, name, raw, error: M.badArguments(name, args.error) });
        else events.push({ type: 'tool_call', call: { id, name, arguments: args.value } satisfies ToolCall });
      });
      const rest = filter.end();
      if (rest.text) events.unshift({ type: 'text', delta: rest.text });
      if (pending.length === 0) {
        for (const c of rest.calls) events.push({ type: 'tool_call', call: c });
        for (const m of rest.malformed) events.push({ type: 'malformed_call', id: m.id, name: m.name, raw: m.raw, error: m.error });
      }
    }
    yield* events;
    yield { type: 'finish', reason: events.some((e) => e.type === 'tool_call' || e.type === 'malformed_call') ? 'tool_calls' : 'stop' };
  }
}

function toOllamaMessage(m: ModelMessage): Record<string, unknown> {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant':
      if (m.toolCalls && m.toolCalls.length > 0) {
        return { role: 'assistant', content: m.content, tool_calls: m.toolCalls.map((c) => ({ function: { name: toWireName(c.name), arguments: c.arguments } })) };
      }
      return { role: 'assistant', content: m.content };
    case 'tool':
      return { role: 'tool', tool_name: toWireName(m.toolName), content: m.content };
  }
}
