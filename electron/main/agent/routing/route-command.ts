import type { ToolInfo } from '../../gate/catalog';
import type { Lang } from '../../../common/i18n';
import { route, RoutingState } from './router';
import { toWireName } from './wire-names';

/** Counts the tokens a tool list adds to a prompt; absent, the router's estimate is printed. */
export type ToolTokenCounter = (definitions: readonly unknown[]) => number;

/**
 * The text of `baram route "REQUEST" [--json]` (the CLI prints it as is): the tools whose full
 * schemas a fresh conversation would send for REQUEST, in the order sent, and the token cost of
 * the tool block, routed and with every tool's full schema. `--json` is one object:
 *   {"request", "schemas": [names in order], "catalog": [other tools' lines],
 *    "tokens": {"routed": N, "full": M, "counted": "estimate" | "tokenizer"}}
 */
export function routeCommandOutput(request: string, tools: readonly ToolInfo[], lang: Lang, json: boolean, counter?: ToolTokenCounter): string {
  const r = route(request, new RoutingState(), tools, { lang });
  let tokens = { routed: r.tokens.routed, full: r.tokens.full, counted: 'estimate' as 'estimate' | 'tokenizer' };
  if (counter) {
    const full = route('', new RoutingState(tools.map((t) => t.name)), tools, { lang });
    // Every tool offered: the search tool is left out of the full block (it has nothing to list).
    tokens = { routed: counter(r.definitions), full: counter(full.definitions.slice(0, -1)), counted: 'tokenizer' };
  }
  if (json) return `${JSON.stringify({ request, schemas: r.schemas, catalog: r.catalog, tokens })}\n`;
  const share = tokens.full > 0 ? Math.round((tokens.routed / tokens.full) * 100) : 0;
  const how = tokens.counted === 'estimate' ? (lang === 'ko' ? '추정' : 'estimated') : lang === 'ko' ? '토크나이저' : 'tokenizer';
  const lines =
    lang === 'ko'
      ? [
          `요청: ${request}`,
          r.schemas.length > 0 ? '전체 정의를 보내는 도구 (보내는 순서):' : '전체 정의를 보내는 도구: 없음 (요청에 맞는 도구가 없습니다)',
          ...r.schemas.map((n, i) => `  ${i + 1}. ${n}  (${toWireName(n)})`),
          `이름과 용도만 보내는 도구 ${r.catalog.length}개 (모델이 tool_search로 정의를 받음)`,
          `도구 블록 토큰 (${how}): 라우팅 ${tokens.routed} / 전체 ${tokens.full} (${share}%)`,
        ]
      : [
          `Request: ${request}`,
          r.schemas.length > 0 ? 'Tools sent with full schemas (in the order sent):' : 'Tools sent with full schemas: none (no tool matches the request)',
          ...r.schemas.map((n, i) => `  ${i + 1}. ${n}  (${toWireName(n)})`),
          `${r.catalog.length} more tools sent by name and purpose only (the model fetches them with tool_search)`,
          `Tool block tokens (${how}): routed ${tokens.routed} / full ${tokens.full} (${share}%)`,
        ];
  return `${lines.join('\n')}\n`;
}
