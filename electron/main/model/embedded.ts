import { cpus } from 'node:os';
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, Llama, LlamaChat, LlamaContext, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import {
  fromWireName,
  synthesizeCallId,
  toWireName,
  turnSeed,
  type GenerateRequest,
  type ModelBackend,
  type ModelEvent,
  type ModelMessage,
  type ToolDefinition,
} from './backend';
import { actionPrompt, buildActionSchema, parseAction, toGrammarSchema, type GrammarSchemaOptions } from './action-schema';
import { checkGguf, type GgufInfo } from './gguf';
import { detailOf, M } from './messages';
import { aborted, failed } from './openai';
import { normaliseArguments } from './text-calls';

/**
 * The embedded engine: node-llama-cpp 3.21.1 runs a GGUF file in this process, so one desktop needs
 * no server. Three rules from the notes:
 * - `LlamaChat.generateResponse`, never `LlamaChatSession` with function handlers: the session
 *   would run a handler itself, around the gate (trap 9). Here a call leaves as an event.
 * - The GGUF header is checked first (gguf.ts): llama.cpp aborts the process on a bad one.
 * - node-llama-cpp is imported on first use only: the CLI and the app start without loading the
 *   native addon (≈ 1 s, and 30 MB of binaries) unless a GGUF is really used.
 */
export interface EmbeddedBackendOptions {
  readonly modelPath: string;
  /** CPU threads for generation. Default: the machine's cores, at most 4 (≥ 4 on 2 cores was ~300× slower). */
  readonly threads?: number;
  /** Context size in tokens (default 4096, never above the model's own context length). */
  readonly contextSize?: number;
  readonly gpu?: false | 'auto';
  /** Sampling seed, for reproducible runs (tests). */
  readonly seed?: number;
  /** Passed to the grammar conversion (e.g. a default string maxLength for test models). */
  readonly grammar?: GrammarSchemaOptions;
}

interface Engine {
  readonly llama: Llama;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly chat: LlamaChat;
  readonly info: GgufInfo;
}

export class EmbeddedBackend implements ModelBackend {
  readonly kind = 'embedded' as const;
  private engine: Promise<Engine> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  private turn = 0;

  constructor(private readonly options: EmbeddedBackendOptions) {}

  get threads(): number {
    return this.options.threads ?? Math.max(1, Math.min(4, cpus().length));
  }

  /** Loads the engine (once). Rejects with a ModelError-shaped value when the file is refused. */
  load(): Promise<Engine> {
    this.engine ??= this.open();
    return this.engine;
  }

  private async open(): Promise<Engine> {
    const check = checkGguf(this.options.modelPath);
    if (!check.ok) throw new EngineError('model_file', M.modelFile(this.options.modelPath, check.problem.en), check.problem, this.options.modelPath);
    try {
      const { getLlama, LlamaChat } = await import('node-llama-cpp');
      // build: "never" — no compiling or downloading at run time (air-gapped); the prebuilt binary
      // comes from the @node-llama-cpp/<platform> optional dependency.
      const llama = await getLlama({ gpu: this.options.gpu ?? false, build: 'never', maxThreads: this.threads, logLevel: 'error' as never, progressLogs: false, skipDownload: true });
      const model = await llama.loadModel({ modelPath: this.options.modelPath });
      const contextSize = Math.min(this.options.contextSize ?? 4096, check.info.contextLength ?? 4096);
      const context = await model.createContext({ contextSize, threads: this.threads, sequences: 1 });
      const chat = new LlamaChat({ contextSequence: context.getSequence() });
      return { llama, model, context, chat, info: check.info };
    } catch (e) {
      throw new EngineError('engine', M.engine(detailOf(e)));
    }
  }

  async close(): Promise<void> {
    const engine = this.engine;
    this.engine = undefined;
    if (!engine) return;
    const e = await engine.catch(() => undefined);
    if (!e) return;
    e.chat.dispose({ disposeSequence: true });
    await e.context.dispose();
    await e.model.dispose();
    await e.llama.dispose();
  }

  async *generate(request: GenerateRequest): AsyncGenerator<ModelEvent> {
    // One sequence: generations run one after another.
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((r) => (release = r));
    await previous;
    try {
      yield* this.run(request);
    } finally {
      release();
    }
  }

  private grammarFor(engine: Engine, schema: object): Promise<LlamaGrammar> {
    const converted = toGrammarSchema(schema, this.options.grammar);
    const key = JSON.stringify(converted);
    let g = this.grammars.get(key);
    if (!g) {
      g = engine.llama.createGrammarForJsonSchema(converted as never) as Promise<LlamaGrammar>;
      this.grammars.set(key, g);
    }
    return g;
  }

  private async *run(request: GenerateRequest): AsyncGenerator<ModelEvent> {
    const signal = request.signal;
    const seed = turnSeed(request.messages);
    this.turn++;
    let engine: Engine;
    try {
      engine = await this.load();
    } catch (e) {
      this.engine = undefined;
      if (e instanceof EngineError) return yield* failed(e.code, e.text);
      return yield* failed('engine', M.engine(detailOf(e)));
    }
    if (signal?.aborted) return yield* aborted();
    const constrained = request.toolMode === 'constrained';
    const known = request.tools.map((t) => t.name);
    const chunks: string[] = [];
    const common = {
      signal,
      stopOnAbortSignal: true,
      ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(this.options.seed !== undefined ? { seed: this.options.seed + this.turn } : {}),
    };
    try {
      if (constrained || request.responseSchema) {
        const schema = constrained ? buildActionSchema(request.tools, request.toolChoice === 'required') : request.responseSchema!;
        const grammar = await this.grammarFor(engine, schema);
        const history = toHistory(request.messages, constrained ? request.tools : null);
        const result = await engine.chat.generateResponse(history, {
          ...common,
          grammar,
          onTextChunk: (t: string) => void chunks.push(t),
        });
        const stop = result.metadata.stopReason;
        if (stop === 'abort' || signal?.aborted) return yield* aborted();
        if (stop === 'maxTokens') return yield* cut();
        if (!constrained) {
          yield { type: 'text', delta: result.response };
          yield { type: 'finish', reason: 'stop' };
          return;
        }
        const action = parseAction(result.response, request.tools);
        const id = synthesizeCallId(seed, 0);
        if (action.kind === 'answer') {
          yield { type: 'text', delta: action.text };
          yield { type: 'finish', reason: 'stop' };
        } else if (action.kind === 'call') {
          yield { type: 'tool_call', call: { id, name: action.name, arguments: action.arguments } };
          yield { type: 'finish', reason: 'tool_calls' };
        } else {
          yield { type: 'malformed_call', id, name: action.name, raw: result.response, error: action.error };
          yield { type: 'finish', reason: 'tool_calls' };
        }
        return;
      }

      // Native: the chat wrapper renders the functions its own way and parses the calls; no
      // handlers exist, so nothing runs here (the response stops at `functionCalls`).
      const functions: Record<string, { description: string; params: object }> = {};
      for (const t of request.tools) functions[toWireName(t.name)] = { description: t.description, params: toGrammarSchema(t.parameters, this.options.grammar) };
      const history = toHistory(request.messages, null);
      const texts: string[] = [];
      const result = await engine.chat.generateResponse(history, {
        ...common,
        ...(request.tools.length > 0 ? { functions: functions as ChatModelFunctions } : {}),
        onTextChunk: (t: string) => void texts.push(t),
      });
      const stop = result.metadata.stopReason;
      if (stop === 'abort' || signal?.aborted) return yield* aborted();
      if (result.response) yield { type: 'text', delta: result.response };
      if (stop === 'maxTokens') return yield* cut();
      const calls = result.functionCalls ?? [];
      for (let i = 0; i < calls.length; i++) {
        const c = calls[i]!;
        const id = synthesizeCallId(seed, i);
        const name = fromWireName(c.functionName, known);
        const args = normaliseArguments(c.params ?? {});
        if ('error' in args) yield { type: 'malformed_call', id, name, raw: JSON.stringify(c.params), error: M.badArguments(name, args.error) };
        else yield { type: 'tool_call', call: { id, name, arguments: args.value } };
      }
      yield { type: 'finish', reason: calls.length > 0 ? 'tool_calls' : 'stop' };
    } catch (e) {
      if (signal?.aborted) return yield* aborted();
      return yield* failed('engine', M.engine(detailOf(e)));
    }
  }
}

function* cut(): Generator<ModelEvent> {
  yield { type: 'error', code: 'length', message: M.length() };
  yield { type: 'finish', reason: 'length' };
}

export class EngineError extends Error {
  constructor(
    readonly code: 'model_file' | 'engine',
    readonly text: import('../../common/i18n').Text,
    readonly problem?: import('../../common/i18n').Text,
    readonly path?: string,
  ) {
    super(text.en);
  }
}

/**
 * Baram's messages → node-llama-cpp history. Constrained: calls as the action JSON the model wrote
 * and results as user turns, with the candidates in the system text. Native: a call and its result
 * become one `functionCall` item of the model's response, as the chat wrappers expect.
 */
function toHistory(messages: readonly ModelMessage[], constrainedTools: readonly ToolDefinition[] | null): ChatHistoryItem[] {
  const out: ChatHistoryItem[] = [];
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m.content);
  let systemPlaced = false;
  const system = (text: string) => (constrainedTools && !systemPlaced ? `${text}\n\n${actionPrompt(constrainedTools)}` : text);
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        out.push({ type: 'system', text: system(m.content) });
        systemPlaced = true;
        break;
      case 'user':
        out.push({ type: 'user', text: m.content });
        break;
      case 'assistant': {
        const response: (string | ChatModelFunctionCall)[] = [];
        if (m.content) response.push(m.content);
        for (const c of m.toolCalls ?? []) {
          if (constrainedTools) response.push(JSON.stringify({ name: toWireName(c.name), arguments: c.arguments }));
          else response.push({ type: 'functionCall', name: toWireName(c.name), params: c.arguments, result: results.get(c.id) ?? '' });
        }
        out.push({ type: 'model', response });
        break;
      }
      case 'tool':
        if (constrainedTools) out.push({ type: 'user', text: `Result of ${toWireName(m.toolName)} (${m.toolCallId}):\n${m.content}` });
        break;
    }
  }
  if (constrainedTools && !systemPlaced) out.unshift({ type: 'system', text: actionPrompt(constrainedTools) });
  const last = out[out.length - 1];
  if (!last || last.type !== 'model') out.push({ type: 'model', response: [] });
  return out;
}
