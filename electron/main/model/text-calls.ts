import type { Text } from '../../common/i18n';
import { fromWireName, synthesizeCallId, type ToolCall } from './backend';
import { M } from './messages';

/**
 * Tool calls a server left in the content (no chat-template parsing, LM Studio's "default"
 * support, a parser that gave up). Only tagged forms anywhere, or a whole message that is one call
 * object: JSON inside prose is never turned into a call (notes trap 7: llama.cpp's Hermes parser
 * invented a call to "Bingo" that way).
 *
 * - Hermes / Qwen: `<tool_call>{"name":…,"arguments":…}</tool_call>`, also the last block left
 *   unterminated, and a first block whose opening tag is missing (Qwen3-Coder, ollama#13093) when
 *   the message starts with the call.
 * - Qwen3-Coder XML inside the tag: `<function=NAME><parameter=P>value</parameter></function>`.
 * - LM Studio: `[TOOL_REQUEST]{…}[END_TOOL_REQUEST]`.
 * - Whole message: `{"name":…,"arguments"|"parameters":…}`, llama.cpp's generic
 *   `{"tool_call":{…}}` / `{"tool_calls":[…]}`, optionally in a ```json fence.
 */
export interface MalformedTextCall {
  readonly id: string;
  readonly name: string | null;
  readonly raw: string;
  readonly error: Text;
}

export interface TextCalls {
  /** The content with every call block removed, in order. */
  readonly text: string;
  readonly calls: ToolCall[];
  readonly malformed: MalformedTextCall[];
}

const TAGS: ReadonlyArray<readonly [open: string, close: string]> = [
  ['<tool_call>', '</tool_call>'],
  ['[TOOL_REQUEST]', '[END_TOOL_REQUEST]'],
];

/** Strings after which everything is held back from the text stream until the turn ends. */
export const CALL_MARKERS = ['<tool_call>', '[TOOL_REQUEST]', '<function='] as const;

/** Null when the content holds no call form at all. */
export function parseTextCalls(content: string, known: readonly string[], seed: string): TextCalls | null {
  const whole = wholeMessageCall(content);
  if (whole) return finish('', whole.map((raw) => ({ raw, json: true })), known, seed);

  const blocks: { raw: string; json: boolean }[] = [];
  let outside = '';
  let rest = content;

  // A first call whose opening tag is missing: the message starts with the call itself.
  const close0 = rest.indexOf('</tool_call>');
  const open0 = rest.indexOf('<tool_call>');
  if (close0 >= 0 && (open0 < 0 || open0 > close0)) {
    const head = rest.slice(0, close0).trim();
    if (head.startsWith('{') || head.startsWith('<function=')) {
      blocks.push({ raw: head, json: head.startsWith('{') });
      rest = rest.slice(close0 + '</tool_call>'.length);
    }
  }

  for (;;) {
    let best: { at: number; open: string; close: string } | null = null;
    for (const [open, close] of TAGS) {
      const at = rest.indexOf(open);
      if (at >= 0 && (best === null || at < best.at)) best = { at, open, close };
    }
    if (!best) {
      // Qwen3-Coder XML without any wrapper tag.
      const fn = rest.indexOf('<function=');
      if (fn >= 0 && rest.indexOf('</function>', fn) > fn) {
        const end = rest.indexOf('</function>', fn) + '</function>'.length;
        outside += rest.slice(0, fn);
        blocks.push({ raw: rest.slice(fn, end), json: false });
        rest = rest.slice(end);
        continue;
      }
      outside += rest;
      break;
    }
    outside += rest.slice(0, best.at);
    const bodyStart = best.at + best.open.length;
    const closeAt = rest.indexOf(best.close, bodyStart);
    const body = (closeAt >= 0 ? rest.slice(bodyStart, closeAt) : rest.slice(bodyStart)).trim();
    blocks.push({ raw: body, json: !body.startsWith('<function=') });
    if (closeAt < 0) break;
    rest = rest.slice(closeAt + best.close.length);
  }
  if (blocks.length === 0) return null;
  return finish(outside, blocks, known, seed);
}

function finish(outside: string, blocks: { raw: string; json: boolean }[], known: readonly string[], seed: string): TextCalls {
  const calls: ToolCall[] = [];
  const malformed: MalformedTextCall[] = [];
  blocks.forEach((block, index) => {
    const id = synthesizeCallId(seed, index);
    const parsed = block.json ? parseJsonCall(block.raw) : parseXmlCall(block.raw);
    if ('error' in parsed) {
      malformed.push({ id, name: parsed.name ? fromWireName(parsed.name, known) : null, raw: block.raw, error: parsed.error });
    } else {
      calls.push({ id, name: fromWireName(parsed.name, known), arguments: parsed.arguments });
    }
  });
  return { text: outside, calls, malformed };
}

type Parsed = { name: string; arguments: Record<string, unknown> } | { name: string | null; error: Text };

/** `{"name":…,"arguments":…}` (also `parameters`, and arguments given as a JSON string). */
export function parseJsonCall(raw: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    const name = /"name"\s*:\s*"([^"\\]{1,128})"/.exec(raw)?.[1] ?? null;
    return { name, error: name ? M.badArguments(name, (e as Error).message) : M.badCallShape((e as Error).message) };
  }
  return callFromObject(value);
}

export function callFromObject(value: unknown): Parsed {
  if (!isObject(value)) return { name: null, error: M.badCallShape('not a JSON object') };
  const fn = isObject(value.function) ? value.function : value;
  const name = fn.name;
  if (typeof name !== 'string' || name.length === 0) return { name: null, error: M.badCallShape("no 'name'") };
  const args = 'arguments' in fn ? fn.arguments : fn.parameters;
  const normalised = normaliseArguments(args);
  if ('error' in normalised) return { name, error: M.badArguments(name, normalised.error) };
  return { name, arguments: normalised.value };
}

/** Arguments as an object, a JSON string of an object, or absent (→ `{}`). */
export function normaliseArguments(args: unknown): { value: Record<string, unknown> } | { error: string } {
  const checked = normaliseArgumentsShape(args);
  if ('value' in checked && hasNonFinite(checked.value)) {
    // `1E709` parses to Infinity (grammars allow exponents): it would be re-serialised as null, so
    // what ran and what the history and the ledger show would differ.
    return { error: 'a number is out of range' };
  }
  return checked;
}

function hasNonFinite(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isFinite(v);
  if (Array.isArray(v)) return v.some(hasNonFinite);
  if (v !== null && typeof v === 'object') return Object.values(v).some(hasNonFinite);
  return false;
}

function normaliseArgumentsShape(args: unknown): { value: Record<string, unknown> } | { error: string } {
  if (args === undefined || args === null || args === '') return { value: {} };
  if (isObject(args)) return { value: args };
  if (typeof args === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch (e) {
      return { error: (e as Error).message };
    }
    if (isObject(parsed)) return { value: parsed };
    return { error: 'arguments are not a JSON object' };
  }
  return { error: 'arguments are not a JSON object' };
}

/** Qwen3-Coder: `<function=NAME>\n<parameter=P>\nvalue\n</parameter>\n</function>`. */
function parseXmlCall(raw: string): Parsed {
  const head = /^<function=([^>\s]{1,128})>/.exec(raw.trim());
  if (!head) return { name: null, error: M.badCallShape('no <function=NAME>') };
  const name = head[1]!;
  if (!raw.includes('</function>')) return { name, error: M.badArguments(name, 'missing </function>') };
  const args: Record<string, unknown> = {};
  const re = /<parameter=([^>\s]{1,128})>([\s\S]*?)<\/parameter>/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const value = m[2]!.replace(/^\n/, '').replace(/\n$/, '');
    let v: unknown = value;
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed !== 'string') v = parsed;
    } catch {
      // a plain string value
    }
    Object.defineProperty(args, m[1]!, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return { name, arguments: args };
}

/** The raw JSON texts of the call(s) when the whole message is one call object, else null. */
function wholeMessageCall(content: string): string[] | null {
  let s = content.trim();
  const fence = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(s);
  if (fence) s = fence[1]!.trim();
  if (!s.startsWith('{') || !s.endsWith('}')) return null;
  let value: unknown;
  try {
    value = JSON.parse(s);
  } catch {
    // Looks like a call but does not parse: only when it names itself as one.
    return /^\{\s*"(name|tool_call|tool_calls)"\s*:/.test(s) ? [s] : null;
  }
  if (!isObject(value)) return null;
  if (typeof value.name === 'string' && ('arguments' in value || 'parameters' in value)) return [s];
  if (isObject(value.tool_call)) return [JSON.stringify(value.tool_call)];
  if (Array.isArray(value.tool_calls) && value.tool_calls.length > 0) return value.tool_calls.map((c) => JSON.stringify(c));
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Streams content to the user while holding back anything that may turn out to be a call: from the
 * first marker on, and the whole message when it starts like a JSON object or a fence. `end()`
 * parses what was held.
 */
export class TextCallFilter {
  private full = '';
  private emitted = 0;
  private held = false;

  constructor(
    private readonly known: readonly string[],
    private readonly seed: string,
  ) {}

  /** Returns the text that is safe to show now. */
  push(delta: string): string {
    this.full += delta;
    if (this.held) return '';
    if (this.emitted === 0) {
      const lead = this.full.trimStart();
      if (lead === '' || '```'.startsWith(lead)) return '';
      if (lead.startsWith('{') || lead.startsWith('```') || lead.startsWith('</') || lead.startsWith('<function=')) {
        this.held = true;
        return '';
      }
    }
    let cut = this.full.length;
    for (const marker of CALL_MARKERS) {
      const at = this.full.indexOf(marker, this.emitted);
      if (at >= 0 && at < cut) {
        cut = at;
        this.held = true;
      }
    }
    if (!this.held) {
      // Keep back a tail that could be the start of a marker split across deltas.
      for (const marker of CALL_MARKERS) {
        for (let k = Math.min(marker.length - 1, this.full.length - this.emitted); k > 0; k--) {
          if (this.full.endsWith(marker.slice(0, k))) {
            cut = Math.min(cut, this.full.length - k);
            break;
          }
        }
      }
    }
    const out = this.full.slice(this.emitted, cut);
    this.emitted = cut;
    return out;
  }

  end(): { text: string; calls: ToolCall[]; malformed: MalformedTextCall[] } {
    const parsed = parseTextCalls(this.full, this.known, this.seed);
    if (!parsed) return { text: this.full.slice(this.emitted), calls: [], malformed: [] };
    // What was emitted holds no marker, so it is a prefix of the text outside the blocks.
    return { text: parsed.text.slice(this.emitted), calls: parsed.calls, malformed: parsed.malformed };
  }

  get content(): string {
    return this.full;
  }
}
