import { closest } from '../../common/did-you-mean';

/**
 * Rule strings (SPEC G-PERM): `tool` or `tool(pattern)`; the tool part may end in `*` for a family
 * (`filesystem.*`) and `*` alone means every tool. What the pattern means is NOT decided here: only
 * the tool knows whether `git:*` is a command prefix or `/tmp/**` a path (its subject kind), so the
 * matcher interprets the pattern at evaluation time and denies when it cannot (fail closed).
 */
export interface ParsedRule {
  readonly tool: string;
  /** null for a name-only rule, which covers every call of the tool. */
  readonly pattern: string | null;
}

export type RuleParse = { readonly ok: true; readonly rule: ParsedRule } | { readonly ok: false; readonly message: string };

const TOOL_PART = /^(?:\*|[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*(?:\.?\*)?)$/;
const EXAMPLES = "e.g. 'filesystem.read', 'filesystem.*' or 'shell.execute(git status:*)'";

export function parseRule(text: string): RuleParse {
  if (text.trim() !== text) return { ok: false, message: `Rule '${text}' has spaces at its start or end; remove them.` };
  if (text.includes('\u0000')) return { ok: false, message: 'Rule contains a NUL character; remove it.' };
  const open = text.indexOf('(');
  if (open === -1 && text.includes(')')) return { ok: false, message: `Rule '${text}' has ')' without '('. Write tool(pattern), ${EXAMPLES}.` };
  const toolPart = open === -1 ? text : text.slice(0, open);
  if (!TOOL_PART.test(toolPart)) {
    return {
      ok: false,
      message: `'${toolPart}' is not a tool name. Write a tool, a family ending in * or * for all tools, ${EXAMPLES}.`,
    };
  }
  if (open === -1) return { ok: true, rule: { tool: toolPart, pattern: null } };
  if (!text.endsWith(')')) {
    return { ok: false, message: `Rule '${text}' must end with ')' closing the pattern. Write tool(pattern), ${EXAMPLES}.` };
  }
  const pattern = text.slice(open + 1, -1);
  if (pattern.trim() === '') {
    return { ok: false, message: `Rule '${text}' has an empty pattern. Write '${toolPart}' to cover every call, or put a pattern inside the parentheses.` };
  }
  return { ok: true, rule: { tool: toolPart, pattern } };
}

/** `*` = every tool; `prefix*` = every tool whose name starts with prefix; otherwise the exact name. */
export function ruleToolMatches(ruleTool: string, tool: string): boolean {
  if (ruleTool.endsWith('*')) return tool.startsWith(ruleTool.slice(0, -1));
  return ruleTool === tool;
}

/**
 * With the registry's tool names at hand (`baram policy check`), a rule naming no tool is a
 * mistake worth stopping for: a misspelt deny rule would silently protect nothing.
 */
export function unknownToolMessage(rule: ParsedRule, knownTools: readonly string[]): string | undefined {
  if (knownTools.some((t) => ruleToolMatches(rule.tool, t))) return undefined;
  const suggestion = rule.tool.endsWith('*') ? undefined : closest(rule.tool, knownTools);
  return suggestion
    ? `No tool is named '${rule.tool}'. Did you mean '${suggestion}'?`
    : `No tool matches '${rule.tool}'. Use a name from 'baram tools', a family such as 'filesystem.*', or '*'.`;
}
