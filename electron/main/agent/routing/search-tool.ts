import type { ToolInfo } from '../../gate/catalog';
import type { Lang } from '../../../common/i18n';
import { rankTools } from './router';
import { definitionOf, SEARCH_TOOL_NAME } from './tool-block';
import { fromWireName, toWireName } from './wire-names';

export interface ToolSearchAnswer {
  /** Baram names of the tools whose definitions the answer carries, in registry order. */
  readonly names: string[];
  /** The tool result the model reads: one JSON definition per line, after a line that says how to use them. */
  readonly text: string;
}

/** Most definitions one keyword search returns (each costs ~150–300 tokens). */
const SEARCH_LIMIT = 3;
/** …each scoring at least this share of the best (the router's own cut-off). */
const SEARCH_CUTOFF = 0.35;

const MESSAGES = {
  found: { ko: '도구 정의입니다. 이 이름으로 바로 부르세요:', en: 'Tool definitions; call them by these names:' },
  none: { ko: '맞는 도구가 없습니다. 다른 낱말로 찾거나 아래 이름 중 하나를 쓰세요:', en: 'No tool matched. Try other words, or one of these names:' },
  bad: { ko: 'query(도구 이름 또는 키워드)를 문자열로 주세요.', en: 'Give query (tool names or keywords) as a string.' },
} as const;

/**
 * Answers the model's tool.search call from the tool cards. `query` may name tools (wire or
 * dotted names, separated by spaces or commas: "filesystem_write, filesystem_edit") — those are
 * returned as asked — or be keywords, Korean or English, answered with the best few matches the
 * router would choose. Deterministic; reads no state. The definitions come back as a tool result,
 * appended to the conversation, so the tool block (and the server's cached prefix) stays as it
 * was; the gate validates a call of such a tool against its full schema like any other.
 */
export function answerToolSearch(args: unknown, tools: readonly ToolInfo[], lang: Lang): ToolSearchAnswer {
  const query = typeof args === 'object' && args !== null ? (args as { query?: unknown }).query : undefined;
  if (typeof query !== 'string' || query.trim() === '') return { names: [], text: MESSAGES.bad[lang] };
  const known = tools.map((t) => t.name).filter((n) => n !== SEARCH_TOOL_NAME);
  const named = query
    .split(/[\s,]+/)
    .map((w) => fromWireName(w, known))
    .filter((n) => known.includes(n));
  const ranked = rankTools(query, tools).filter((r) => r.name !== SEARCH_TOOL_NAME);
  const best = ranked[0]?.score ?? 0;
  const names = named.length > 0 ? [...new Set(named)] : ranked.filter((r) => r.score >= best * SEARCH_CUTOFF).slice(0, SEARCH_LIMIT).map((r) => r.name);
  if (names.length === 0) return { names: [], text: `${MESSAGES.none[lang]}\n${known.map(toWireName).join(', ')}` };
  const ordered = tools.filter((t) => names.includes(t.name));
  return {
    names: ordered.map((t) => t.name),
    text: [MESSAGES.found[lang], ...ordered.map((t) => JSON.stringify(definitionOf(t, lang)))].join('\n'),
  };
}
