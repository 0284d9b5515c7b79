import type { Text } from '../../common/i18n';
import { fromWireName, toWireName, type ModelMessage, type ToolDefinition } from './backend';
import { M } from './messages';
import { normaliseArguments } from './text-calls';

/**
 * Constrained decoding (SPEC §4: "JSON-schema/grammar-constrained output of one tool call"). One
 * action per turn: a call of one offered tool, or a final answer.
 *
 *   {"name": "<wire name>", "arguments": {…}}   |   {"answer": "…"}
 *
 * How each backend really applies it (notes trap 1 and 4):
 * - OpenAI-compatible servers: `response_format: {type:"json_schema", json_schema:{name, schema,
 *   strict}}` — the nested form; llama-server reads the README's flat form as an empty schema.
 *   llama-server answers 400 to `tools` together with a grammar, so no `tools` are sent: the
 *   candidates are described in the prompt (actionPrompt). vLLM ≥ 0.12 ignores `guided_json`.
 * - Ollama native: `format: <schema>`.
 * - Embedded: node-llama-cpp's JSON-schema grammar, after toGrammarSchema (its grammar ignores
 *   `required`, so optional fields become `oneOf:[{type:"null"},T]`; G-NULL removes the nulls).
 * Whatever the server claims, the gate validates the call again: a constraint is an optimisation.
 */
export const ACTION_SCHEMA_NAME = 'baram_action';

export function buildActionSchema(tools: readonly ToolDefinition[], callRequired = false): object {
  const answer = {
    type: 'object',
    properties: { answer: { type: 'string' } },
    required: ['answer'],
    additionalProperties: false,
  };
  return {
    oneOf: [
      ...tools.map((t) => ({
        type: 'object',
        properties: { name: { const: toWireName(t.name) }, arguments: t.parameters },
        required: ['name', 'arguments'],
        additionalProperties: false,
      })),
      ...(callRequired && tools.length > 0 ? [] : [answer]),
    ],
  };
}

/** The OpenAI-compatible request fields for a schema (nested form; see trap 1). */
export function responseFormat(schema: object, name = ACTION_SCHEMA_NAME): object {
  return { type: 'json_schema', json_schema: { name, schema, strict: true } };
}

/** Candidates in the prompt: the constrained request carries no `tools`. */
export function actionPrompt(tools: readonly ToolDefinition[]): string {
  const lines = [
    'Reply with exactly one JSON object and nothing else.',
    'To call a tool: {"name": "<tool name>", "arguments": {<arguments matching its parameters>}}',
    'To answer the user: {"answer": "<your answer>"}',
    'Tools:',
  ];
  for (const t of tools) lines.push(`- ${toWireName(t.name)}: ${t.description}\n  parameters: ${JSON.stringify(t.parameters)}`);
  return lines.join('\n');
}

/**
 * History for a request without `tools`: earlier calls as the action JSON the model itself wrote,
 * results as user turns (a server may refuse `tool` roles when no tools are declared).
 */
export function constrainedMessages(messages: readonly ModelMessage[], tools: readonly ToolDefinition[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  const prompt = actionPrompt(tools);
  let placed = false;
  for (const m of messages) {
    if (m.role === 'system' && !placed) {
      out.push({ role: 'system', content: `${m.content}\n\n${prompt}` });
      placed = true;
    } else if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
      for (const c of m.toolCalls) out.push({ role: 'assistant', content: JSON.stringify({ name: toWireName(c.name), arguments: c.arguments }) });
    } else if (m.role === 'tool') {
      out.push({ role: 'user', content: `Result of ${toWireName(m.toolName)} (${m.toolCallId}):\n${m.content}` });
    } else {
      out.push(m);
    }
  }
  if (!placed) out.unshift({ role: 'system', content: prompt });
  return out;
}

export type Action =
  | { readonly kind: 'call'; readonly name: string; readonly arguments: Record<string, unknown> }
  | { readonly kind: 'answer'; readonly text: string }
  | { readonly kind: 'invalid'; readonly name: string | null; readonly error: Text };

/** Reads a constrained answer. The name is mapped back to the offered tool's own name. */
export function parseAction(raw: string, tools: readonly ToolDefinition[]): Action {
  let value: unknown;
  try {
    value = JSON.parse(raw.trim());
  } catch (e) {
    return { kind: 'invalid', name: null, error: M.badCallShape((e as Error).message) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'invalid', name: null, error: M.badCallShape('not a JSON object') };
  const v = value as Record<string, unknown>;
  if (typeof v.answer === 'string' && !('name' in v)) return { kind: 'answer', text: v.answer };
  if (typeof v.name !== 'string') return { kind: 'invalid', name: null, error: M.badCallShape("neither 'name' nor 'answer'") };
  const name = fromWireName(v.name, tools.map((t) => t.name));
  const args = normaliseArguments(v.arguments);
  if ('error' in args) return { kind: 'invalid', name, error: M.badArguments(name, args.error) };
  return { kind: 'call', name, arguments: args.value };
}

// ── node-llama-cpp's grammar subset ────────────────────────────────────────────────────────────

export interface GrammarSchemaOptions {
  /** A maxLength for strings that have none (random-weight test models need one; tiny-gguf.md). */
  readonly defaultMaxLength?: number;
}

type Node = Record<string, unknown>;

/**
 * JSON Schema → the subset node-llama-cpp's GbnfJsonSchema accepts: `anyOf` → `oneOf`; optional
 * properties → `oneOf:[{type:"null"},T]` (every property is forced); no `pattern`, ranges,
 * `multipleOf`, `required`. Dropped keywords are still enforced by ajv in the gate.
 */
export function toGrammarSchema(schema: unknown, options: GrammarSchemaOptions = {}): object {
  return convert(schema, options) as object;
}

const KEEP = new Set(['type', 'const', 'enum', 'description', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', '$ref']);
const FORMATS = new Set(['date-time', 'time', 'date']);

function convert(schema: unknown, options: GrammarSchemaOptions): unknown {
  if (schema === true || schema === undefined) return { type: ['string', 'number', 'boolean', 'null'] };
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const s = schema as Node;
  const out: Node = {};
  for (const [k, v] of Object.entries(s)) {
    if (KEEP.has(k)) out[k] = v;
    else if (k === 'format' && typeof v === 'string' && FORMATS.has(v)) out[k] = v;
  }
  const alternatives = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) out.oneOf = alternatives.map((a) => convert(a, options));
  if (Array.isArray(s.allOf) && s.allOf.length === 1) Object.assign(out, convert(s.allOf[0], options) as Node);
  if (s.$defs && typeof s.$defs === 'object') {
    out.$defs = Object.fromEntries(Object.entries(s.$defs as Node).map(([k, v]) => [k, convert(v, options)]));
  }
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string') && out.maxLength === undefined && out.enum === undefined && out.const === undefined && options.defaultMaxLength !== undefined) {
    out.maxLength = options.defaultMaxLength;
  }
  if (s.items !== undefined && !Array.isArray(s.items)) out.items = convert(s.items, options);
  if (Array.isArray(s.prefixItems)) out.prefixItems = s.prefixItems.map((i) => convert(i, options));
  if (s.properties && typeof s.properties === 'object') {
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const props: Node = {};
    for (const [name, sub] of Object.entries(s.properties as Node)) {
      const c = convert(sub, options);
      props[name] = required.has(name) ? c : { oneOf: [{ type: 'null' }, c] };
    }
    out.properties = props;
    if (out.type === undefined) out.type = 'object';
  }
  if (s.additionalProperties !== undefined && typeof s.additionalProperties === 'object') out.additionalProperties = convert(s.additionalProperties, options);
  else if (s.additionalProperties === false) out.additionalProperties = false;
  return out;
}
