import type { ToolInfo } from '../../gate/catalog';
import { pick, type Lang } from '../../../common/i18n';
import { ENGLISH_DANGLING } from './english';
import { toWireName } from './wire-names';

/** One entry of the OpenAI `tools` array. */
export interface ToolDefinition {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: unknown };
}

export function definitionOf(tool: ToolInfo, lang: Lang): ToolDefinition {
  return { type: 'function', function: { name: toWireName(tool.name), description: pick(tool.description, lang), parameters: tool.schema } };
}

/** Most characters of an English catalog line's purpose. */
const PURPOSE_MAX = 30;

/**
 * "filesystem_write — 쓰기, 저장" / "filesystem_write — Create a text file": the wire name (what the
 * model must call) and a purpose of a few tokens. The catalog is sent with every request, so each
 * line is kept near ten Qwen3 tokens: in Korean (a token per syllable) the tool's first two Korean
 * keywords, in English the description's first clause, cut at a word.
 */
export function catalogLine(tool: ToolInfo, lang: Lang): string {
  const purpose = purposeOf(tool, lang);
  return purpose === '' ? toWireName(tool.name) : `${toWireName(tool.name)} — ${purpose}`;
}

function purposeOf(tool: ToolInfo, lang: Lang): string {
  if (lang === 'ko') {
    const korean = tool.keywords.filter((k) => /[가-힣]/.test(k)).slice(0, 2);
    if (korean.length > 0) return korean.join(', ');
  }
  const clause = pick(tool.description, 'en').split(/(?<=[.。])\s|[(:;]/)[0]!.trim().replace(/[.。]$/, '');
  if (clause.length <= PURPOSE_MAX) return clause;
  const words = clause.slice(0, PURPOSE_MAX + 1).split(' ').slice(0, -1);
  while (words.length > 1 && ENGLISH_DANGLING.has(words.at(-1)!.toLowerCase())) words.pop();
  return words.join(' ').replace(/[ ,]+$/, '');
}

/** Baram's meta tool: the model fetches a definition it was not sent (SPEC §4 "on-demand schemas"). */
export const SEARCH_TOOL_NAME = 'tool.search';

export const SEARCH_TOOL_PARAMETERS = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Tool names or keywords' },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

const SEARCH_INTRO: Readonly<Record<Lang, string>> = {
  ko: '아래 도구는 부르기 전에 이 도구로 정의를 받으세요. 다른 도구:',
  en: 'Get the definition of a tool below before calling it. Other tools:',
};
/** When every tool was sent in full (nothing left to list): the tool still answers keyword searches. */
const SEARCH_ALONE: Readonly<Record<Lang, string>> = {
  ko: '도구 이름이나 키워드로 도구 정의를 찾습니다.',
  en: 'Find tool definitions by tool name or keywords.',
};

/** The meta tool, carrying the catalog lines of every tool whose schema was not sent. */
export function searchToolDefinition(catalog: readonly string[], lang: Lang): ToolDefinition {
  const description = catalog.length > 0 ? `${SEARCH_INTRO[lang]}\n${catalog.join('\n')}` : SEARCH_ALONE[lang];
  return { type: 'function', function: { name: toWireName(SEARCH_TOOL_NAME), description, parameters: SEARCH_TOOL_PARAMETERS } };
}

/**
 * Tokens of a text, estimated without a tokenizer (the real Qwen3 tokenizer is a dev dependency,
 * 11 MB of vocabulary; the bench measures the estimate against it — see
 * docs/2026-12-03-tool-routing.md). Qwen3 spends about one token per Hangul syllable and one per
 * ~3.6 characters of JSON/English.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / ASCII_CHARS_PER_TOKEN + other * TOKENS_PER_NON_ASCII);
}

/** Fitted to the real Qwen3 count of Baram's tool definitions, ko and en (bench, 2026-12-03). */
export const ASCII_CHARS_PER_TOKEN = 3.6;
export const TOKENS_PER_NON_ASCII = 0.92;

/**
 * The fixed text a Qwen3-style template puts around a non-empty tool list ("# Tools … <tools> …
 * </tools> … <tool_call> …"), measured with the real template: 82 tokens (notes §c: ~81).
 */
export const TOOLS_PREAMBLE_TOKENS = 82;

/**
 * Estimated prompt cost of a tool list as a chat template renders it: the preamble and each
 * definition as JSON with Python-style separators (", " and ": "), one per line.
 */
export function estimateToolTokens(definitions: readonly ToolDefinition[]): number {
  if (definitions.length === 0) return 0;
  let total = TOOLS_PREAMBLE_TOKENS;
  for (const d of definitions) total += estimateTokens(JSON.stringify(d)) + 1;
  return total;
}
