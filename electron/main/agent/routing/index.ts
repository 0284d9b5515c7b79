/**
 * Tool routing and token economy (SPEC §4, issue 16 scope 3): which tools a request sends with
 * full schemas, the one-line catalog of the rest inside the tool.search meta tool, a grow-only
 * state per conversation so the tool block stays byte-identical, wire names, and output budgets.
 * See docs/2026-12-03-tool-routing.md.
 */
export { route, rankTools, RoutingState, type RouteOptions, type RouteResult } from './router';
export { answerToolSearch, type ToolSearchAnswer } from './search-tool';
export {
  catalogLine,
  definitionOf,
  estimateTokens,
  estimateToolTokens,
  searchToolDefinition,
  SEARCH_TOOL_NAME,
  SEARCH_TOOL_PARAMETERS,
  TOOLS_PREAMBLE_TOKENS,
  type ToolDefinition,
} from './tool-block';
export { toWireName, fromWireName } from './wire-names';
export { outputBudgetFor } from './budget';
export { routeCommandOutput, type ToolTokenCounter } from './route-command';
export { stemKorean, koreanStemCandidates, toJamo } from './korean';
export { stemEnglish } from './english';
export { withinOneEdit } from './fuzzy';
