import type { ToolInfo } from '../../gate/catalog';
import type { Lang } from '../../../common/i18n';
import { routingIndex, scoreTools, type RoutingIndex } from './cards';
import { catalogLine, definitionOf, estimateTokens, searchToolDefinition, TOOLS_PREAMBLE_TOKENS, type ToolDefinition } from './tool-block';

/**
 * Which tools of a conversation have been sent with their full schema. Grow-only: a tool once
 * offered stays offered, in the order it was first offered, so the tool block of the next request
 * is byte-identical unless a new request needs a tool that was not offered yet (the server's
 * prompt cache then holds everything up to the system message's tool list, and every turn of one
 * user request reuses it whole). One per conversation; persist `offered` with it to resume.
 */
export class RoutingState {
  readonly #offered: string[];

  constructor(offered: readonly string[] = []) {
    this.#offered = [...new Set(offered)];
  }

  get offered(): readonly string[] {
    return this.#offered;
  }

  /** Adds names not yet offered, in the order given; returns those that were new. */
  admit(names: readonly string[]): string[] {
    const added = [...new Set(names)].filter((n) => !this.#offered.includes(n));
    this.#offered.push(...added);
    return added;
  }
}

export interface RouteOptions {
  /** Language of the descriptions and catalog lines (the session language). Default 'ko'. */
  readonly lang?: Lang;
  /** Most tools admitted by one request. Default 4. */
  readonly maxNew?: number;
  /** Most tools offered in a conversation; later needs go through tool.search. Default 8. */
  readonly maxOffered?: number;
  /**
   * The routed block may cost at most this share of all tools' full schemas, by the runtime
   * estimate. Default 0.23: the target is 25% in real Qwen3 tokens, and the estimate runs up to
   * ~3% under the real count on some blocks (full ko: 0.97) (tests/bench/tool-routing.bench.ts prints the ratio).
   */
  readonly budgetShare?: number;
}

export interface RouteResult {
  /** Tools whose full schemas are sent, in the order sent (Baram names). */
  readonly schemas: string[];
  /** "wire_name — purpose" for every other tool, in registry order (inside tool.search's description). */
  readonly catalog: string[];
  /** Exactly what is sent as `tools`: JSON of the definitions, the search tool last. */
  readonly toolBlock: string;
  readonly definitions: readonly ToolDefinition[];
  /** Estimated tokens (see estimateToolTokens): this block, and every tool's full schema instead. */
  readonly tokens: { readonly routed: number; readonly full: number };
  /** Tools this request added to the state. */
  readonly added: string[];
}

const DEFAULT_BUDGET_SHARE = 0.23;

/** A tool is a candidate when it scores at least this share of the best tool's score… */
const RELATIVE_CUTOFF = 0.5;
/** …and at least this much (one keyword of a rare-ish word, roughly). */
const MIN_SCORE = 2.0;

/** Tools ranked for a text, best first, ties in registry order; zero scores left out. */
export function rankTools(text: string, tools: readonly ToolInfo[]): { name: string; score: number }[] {
  const scores = scoreTools(routingIndex(tools), text);
  return tools
    .map((t, i) => ({ name: t.name, score: scores[i]!, i }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ name, score }) => ({ name, score }));
}

/** Per tool list and language: each definition's JSON and estimated tokens, each catalog line's. */
interface Costs {
  readonly definitions: readonly ToolDefinition[];
  readonly json: readonly string[];
  readonly tokens: readonly number[];
  readonly lines: readonly string[];
  readonly lineTokens: readonly number[];
  /** The search tool with an empty catalog. */
  readonly searchBase: number;
  /** Every tool's full schema, no search tool. */
  readonly full: number;
  /** Tool name → registry position. */
  readonly position: ReadonlyMap<string, number>;
  /** The search tool per set of schemas sent (key: the positions, comma-joined). */
  readonly searchTools: Map<string, { readonly definition: ToolDefinition; readonly json: string; readonly tokens: number; readonly catalog: string[] }>;
}

/** Search-tool variants kept per tool list and language (one per distinct set of offered tools). */
const KEPT_SEARCH_TOOLS = 64;

const costCache = new WeakMap<RoutingIndex, Map<Lang, Costs>>();

function costsOf(index: RoutingIndex, lang: Lang): Costs {
  let byLang = costCache.get(index);
  if (!byLang) costCache.set(index, (byLang = new Map()));
  const cached = byLang.get(lang);
  if (cached) return cached;
  const definitions = index.tools.map((t) => definitionOf(t, lang));
  const json = definitions.map((d) => JSON.stringify(d));
  const tokens = json.map(estimateTokens);
  const lines = index.tools.map((t) => catalogLine(t, lang));
  // A line costs its text and the escaped newline before it inside the description string.
  const lineTokens = lines.map((l) => estimateTokens(JSON.stringify(`\n${l}`).slice(1, -1)));
  const costs: Costs = {
    definitions,
    json,
    tokens,
    lines,
    lineTokens,
    searchBase: estimateTokens(JSON.stringify(searchToolDefinition([], lang))),
    full: TOOLS_PREAMBLE_TOKENS + tokens.reduce((a, b) => a + b + 1, 0),
    position: new Map(index.tools.map((t, i) => [t.name, i])),
    searchTools: new Map(),
  };
  byLang.set(lang, costs);
  return costs;
}

/** The search tool listing every tool not in `schemaIdx`, built once per set. */
function searchToolFor(costs: Costs, schemaIdx: readonly number[], lang: Lang) {
  const key = [...schemaIdx].sort((a, b) => a - b).join(',');
  let entry = costs.searchTools.get(key);
  if (!entry) {
    const inBlock = new Set(schemaIdx);
    const catalog = costs.lines.filter((_, i) => !inBlock.has(i));
    const definition = searchToolDefinition(catalog, lang);
    const json = JSON.stringify(definition);
    entry = { definition, json, tokens: estimateTokens(json), catalog };
    if (costs.searchTools.size >= KEPT_SEARCH_TOOLS) costs.searchTools.delete(costs.searchTools.keys().next().value!);
    costs.searchTools.set(key, entry);
  }
  return entry;
}

/** Estimated block cost when the tools at `sent` (indices) get schemas: additive, for the budget loop. */
function approxCost(costs: Costs, sent: ReadonlySet<number>): number {
  let total = TOOLS_PREAMBLE_TOKENS + costs.searchBase + 1;
  for (let i = 0; i < costs.tokens.length; i++) total += sent.has(i) ? costs.tokens[i]! + 1 : costs.lineTokens[i]!;
  return total;
}

/**
 * Routes one request of a conversation. Deterministic: the same request, state and tools give the
 * same block, and routing the same request again adds nothing. The request's tools are the
 * best-scoring ones above the cut-offs (at most maxNew); those not yet offered are admitted, in
 * registry order, after the tools already offered, while the block stays within the budget (the
 * request's best tool always: a tool the request clearly needs beats the budget).
 */
export function route(request: string, state: RoutingState, tools: readonly ToolInfo[], options: RouteOptions = {}): RouteResult {
  const lang = options.lang ?? 'ko';
  const maxNew = options.maxNew ?? 4;
  const maxOffered = options.maxOffered ?? 8;
  const index = routingIndex(tools);
  const costs = costsOf(index, lang);
  const budget = costs.full * (options.budgetShare ?? DEFAULT_BUDGET_SHARE);
  const position = costs.position;
  const sent = new Set<number>();
  for (const name of state.offered) {
    const i = position.get(name);
    if (i !== undefined) sent.add(i);
  }
  const ranked = rankTools(request, tools);
  const best = ranked[0]?.score ?? 0;
  const fresh: number[] = [];
  let picked = 0;
  for (const r of ranked) {
    if (picked >= maxNew || r.score < MIN_SCORE || r.score < best * RELATIVE_CUTOFF) break;
    const i = position.get(r.name)!;
    if (sent.has(i) && !fresh.includes(i)) {
      picked++;
      continue;
    }
    if (state.offered.length + fresh.length >= maxOffered) break;
    sent.add(i);
    if (picked > 0 && approxCost(costs, sent) > budget) {
      sent.delete(i);
      continue;
    }
    fresh.push(i);
    picked++;
  }
  const added = state.admit(fresh.sort((a, b) => a - b).map((i) => tools[i]!.name));
  const schemaIdx: number[] = [];
  for (const n of state.offered) {
    const i = position.get(n);
    if (i !== undefined) schemaIdx.push(i);
  }
  const search = searchToolFor(costs, schemaIdx, lang);
  let routed = TOOLS_PREAMBLE_TOKENS + search.tokens + 1;
  const json: string[] = [];
  const definitions: ToolDefinition[] = [];
  for (const i of schemaIdx) {
    routed += costs.tokens[i]! + 1;
    json.push(costs.json[i]!);
    definitions.push(costs.definitions[i]!);
  }
  json.push(search.json);
  definitions.push(search.definition);
  return {
    schemas: schemaIdx.map((i) => tools[i]!.name),
    catalog: [...search.catalog],
    toolBlock: `[${json.join(',')}]`,
    definitions,
    tokens: { routed, full: costs.full },
    added,
  };
}
