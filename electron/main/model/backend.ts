import type { Text } from '../../common/i18n';

/**
 * The one model-backend interface (SPEC §4, issue 16 scope 1). Every backend — an OpenAI-compatible
 * server, Ollama's native API, the embedded engine — turns a request into the same stream of
 * events, so the agent loop never learns which server answered. A backend never runs a tool: a call
 * leaves here as data and goes to the gate.
 */

/** A tool as offered to the model. `name` is Baram's name (`filesystem.read`) or its wire form. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: object;
}

/** A normalised call: `name` is the offered tool's own name, `arguments` always an object. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export type ModelMessage =
  /**
   * `note: 'repair'`: a user turn Baram wrote itself (the repair round's note), sent to the model as
   * a user message but not shown as something the person said. Backends never send the field.
   */
  | { readonly role: 'system' | 'user'; readonly content: string; readonly note?: 'repair' }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly toolName: string; readonly content: string };

/**
 * `native`: tools go in the request's `tools` (the server parses calls; text conventions left in
 * the content are parsed here too). `constrained`: no `tools`; the candidates are described in the
 * prompt and the output is constrained to one action (a call or an answer) — see action-schema.ts.
 */
export type ToolMode = 'native' | 'constrained';

export interface GenerateRequest {
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ToolDefinition[];
  /**
   * Structured output for the whole answer (text events carry the JSON). Sent instead of `tools`
   * (a schema is a grammar, and llama-server refuses both together). Ignored in constrained mode.
   */
  readonly responseSchema?: object;
  readonly toolMode?: ToolMode;
  /** `required`: the model must call a tool (native `tool_choice`; constrained: no answer branch). */
  readonly toolChoice?: 'auto' | 'required';
  readonly signal?: AbortSignal;
  readonly maxTokens?: number;
  readonly temperature?: number;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'error';

export type ModelErrorCode =
  | 'connect' // no connection / DNS / refused
  | 'http' // non-2xx answer
  | 'server' // an error frame inside a 200 stream
  | 'truncated' // the stream ended before the answer did
  | 'length' // the answer was cut by the token limit
  | 'prompt_truncated' // the server dropped part of the prompt (Ollama num_ctx)
  | 'protocol' // a body we cannot read
  | 'aborted'
  | 'model_file' // embedded: the GGUF is missing or invalid
  | 'engine'; // embedded: the engine failed

export interface ModelError {
  readonly code: ModelErrorCode;
  readonly message: Text;
}

export interface Usage {
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  /** Prompt tokens served from the server's cache, when it says (llama-server `timings.cache_n`). */
  readonly cachedPromptTokens?: number;
}

export type ModelEvent =
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'reasoning'; readonly delta: string }
  | { readonly type: 'tool_call'; readonly call: ToolCall }
  /** A call the model meant to make but whose arguments (or shape) do not parse. Never executed. */
  | { readonly type: 'malformed_call'; readonly id: string; readonly name: string | null; readonly raw: string; readonly error: Text }
  | { readonly type: 'usage'; readonly usage: Usage }
  | { readonly type: 'finish'; readonly reason: FinishReason }
  | ({ readonly type: 'error' } & ModelError);

export interface ModelBackend {
  readonly kind: BackendKind;
  generate(request: GenerateRequest): AsyncIterable<ModelEvent>;
  /** Releases engines / connections. Idempotent. */
  close?(): Promise<void>;
}

export type BackendKind = 'openai' | 'ollama' | 'embedded';

// ── names on the wire ──────────────────────────────────────────────────────────────────────────

/** OpenAI's rule for function names; some servers reject dots (SPEC §5). */
export const WIRE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * `filesystem.read` → `filesystem_read`. Any other character outside the wire alphabet also
 * becomes `_`; a name longer than 64 keeps its first 55 characters and a hash of the whole, so two
 * long names cannot collide into one.
 */
export function toWireName(name: string): string {
  const safe = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (safe.length === 0) return '_';
  if (safe.length <= 64) return safe;
  return `${safe.slice(0, 55)}_${fnv1a(name)}`;
}

/**
 * The model may answer with either form (`filesystem_read` or `filesystem.read`). With the offered
 * names, the one whose wire form matches wins; unknown names come back unchanged, so the gate
 * denies them with the closest real names (never guessed here).
 */
export function fromWireName(name: string, known: Iterable<string> = []): string {
  let wireMatch: string | null = null;
  for (const k of known) {
    if (k === name) return k;
    if (wireMatch === null && toWireName(k) === name) wireMatch = k;
  }
  return wireMatch ?? name;
}

function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * The seed of a turn's synthesized ids: the conversation so far. The same request gives the same
 * ids; a later turn of the same conversation (a longer history), even after a restart, gives
 * others, so a resumed conversation cannot hold two calls with one id.
 */
export function turnSeed(messages: readonly ModelMessage[]): string {
  return `${fnv1a(JSON.stringify(messages))}${messages.length.toString(36)}`;
}

/** A stable id for a call that came without one: same turn, same position → same id. */
export function synthesizeCallId(turnSeed: string, index: number): string {
  return `call_${fnv1a(`${turnSeed}#${index}`)}${index.toString(36)}`;
}
