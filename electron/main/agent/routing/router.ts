import type { ToolInfo } from '../../gate/catalog';
import type { Lang } from '../../../common/i18n';
import { routingIndex, scoreTools } from './cards';
import { catalogLine, definitionOf, estimateToolTokens, searchToolDefinition, type ToolDefinition } from './tool-block';

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
    const added = names.filter((n) => !this.#offered.includes(n));
    this.#offered.push(...new Set(added));
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
  /** The routed block may cost at most this share of all tools' full schemas. Default 0.25. */
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

/** A tool is a candidate when it scores at least this share of the best tool's score… */
const RELATIVE_CUTOFF = 0.35;
/** …and at least this much (one keyword of a rare-ish word, roughly). */
const MIN_SCORE = 1.2;

/** Tools ranked for a text, best first, ties in registry order; zero scores left out. */
export function rankTools(text: string, tools: readonly ToolInfo[]): { name: string; score: number }[] {
  const scores = scoreTools(routingIndex(tools), text);
  return tools
    .map((t, i) => ({ name: t.name, score: scores[i]!, i }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ name, score }) => ({ name, score }));
}

const fullCost = new WeakMap<readonly ToolInfo[], Map<Lang, number>>();
function fullTokens(tools: readonly ToolInfo[], lang: Lang): number {
  let m = fullCost.get(tools);
  if (!m) fullCost.set(tools, (m = new Map()));
  let n = m.get(lang);
  if (n === undefined) m.set(lang, (n = estimateToolTokens(tools.map((t) => definitionOf(t, lang)))));
  return n;
}

function build(names: readonly string[], tools: readonly ToolInfo[], lang: Lang) {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const schemas = names.filter((n) => byName.has(n));
  const sent = new Set(schemas);
  const catalog = tools.filter((t) => !sent.has(t.name)).map((t) => catalogLine(t, lang));
  const definitions = [...schemas.map((n) => definitionOf(byName.get(n)!, lang)), searchToolDefinition(catalog, lang)];
  return { schemas, catalog, definitions };
}

/**
 * Routes one request of a conversation. Deterministic: the same request, state and tools give the
 * same block. New tools are the best-scoring ones above the cut-offs, admitted in registry order
 * after those already offered, while the block stays within the budget.
 */
export function route(request: string, state: RoutingState, tools: readonly ToolInfo[], options: RouteOptions = {}): RouteResult {
  const lang = options.lang ?? 'ko';
  const maxNew = options.maxNew ?? 4;
  const maxOffered = options.maxOffered ?? 8;
  const full = fullTokens(tools, lang);
  const budget = full * (options.budgetShare ?? 0.25);
  const ranked = rankTools(request, tools);
  const best = ranked[0]?.score ?? 0;
  const order = new Map(tools.map((t, i) => [t.name, i]));
  const chosen: string[] = [];
  for (const r of ranked) {
    if (chosen.length >= maxNew || state.offered.length + chosen.length >= maxOffered) break;
    if (r.score < MIN_SCORE || r.score < best * RELATIVE_CUTOFF) break;
    if (state.offered.includes(r.name)) continue;
    const trial = [...chosen, r.name].sort((a, b) => order.get(a)! - order.get(b)!);
    // The first new tool is always admitted (a tool the request clearly needs beats the budget).
    if (chosen.length > 0 && estimateToolTokens(build([...state.offered, ...trial], tools, lang).definitions) > budget) continue;
    chosen.splice(0, chosen.length, ...trial);
  }
  const added = state.admit(chosen);
  const { schemas, catalog, definitions } = build(state.offered, tools, lang);
  return {
    schemas,
    catalog,
    toolBlock: JSON.stringify(definitions),
    definitions,
    tokens: { routed: estimateToolTokens(definitions), full },
    added,
  };
}
