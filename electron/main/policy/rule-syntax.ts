import { closest } from '../../common/did-you-mean';
import { text, type Text } from '../../common/i18n';

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

export type RuleParse = { readonly ok: true; readonly rule: ParsedRule } | { readonly ok: false; readonly message: Text };

const TOOL_PART = /^(?:\*|[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*(?:\.?\*)?)$/;
const EXAMPLES = "'filesystem.read', 'filesystem.*', 'shell.execute(git status:*)'";

export function parseRule(rule: string): RuleParse {
  const fail = (ko: string, en: string): RuleParse => ({ ok: false, message: text(ko, en) });
  if (rule.trim() !== rule) return fail(`규칙 '${rule}'의 앞이나 뒤에 공백이 있습니다. 지우세요.`, `Rule '${rule}' has spaces at its start or end; remove them.`);
  if (rule.includes('\u0000')) return fail('규칙에 NUL 문자가 있습니다. 지우세요.', 'Rule contains a NUL character; remove it.');
  const open = rule.indexOf('(');
  if (open === -1 && rule.includes(')')) {
    return fail(`규칙 '${rule}'에 '(' 없이 ')'가 있습니다. 도구(패턴) 형식으로 쓰세요. 예: ${EXAMPLES}.`, `Rule '${rule}' has ')' without '('. Write tool(pattern), e.g. ${EXAMPLES}.`);
  }
  const toolPart = open === -1 ? rule : rule.slice(0, open);
  if (!TOOL_PART.test(toolPart)) {
    return fail(
      `'${toolPart}'은(는) 도구 이름이 아닙니다. 도구 이름, *로 끝나는 도구 묶음, 또는 모든 도구를 뜻하는 *를 쓰세요. 예: ${EXAMPLES}.`,
      `'${toolPart}' is not a tool name. Write a tool, a family ending in * or * for all tools, e.g. ${EXAMPLES}.`,
    );
  }
  if (open === -1) return { ok: true, rule: { tool: toolPart, pattern: null } };
  if (!rule.endsWith(')')) {
    return fail(`규칙 '${rule}'은(는) 패턴을 닫는 ')'로 끝나야 합니다. 도구(패턴) 형식으로 쓰세요. 예: ${EXAMPLES}.`, `Rule '${rule}' must end with ')' closing the pattern. Write tool(pattern), e.g. ${EXAMPLES}.`);
  }
  const pattern = rule.slice(open + 1, -1);
  if (pattern.trim() === '') {
    return fail(
      `규칙 '${rule}'의 패턴이 비어 있습니다. 모든 호출에 적용하려면 '${toolPart}'로 쓰고, 아니면 괄호 안에 패턴을 쓰세요.`,
      `Rule '${rule}' has an empty pattern. Write '${toolPart}' to cover every call, or put a pattern inside the parentheses.`,
    );
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
export function unknownToolMessage(rule: ParsedRule, knownTools: readonly string[]): Text | undefined {
  if (knownTools.some((t) => ruleToolMatches(rule.tool, t))) return undefined;
  const suggestion = rule.tool.endsWith('*') ? undefined : closest(rule.tool, knownTools);
  return suggestion
    ? text(`'${rule.tool}'라는 도구는 없습니다. '${suggestion}'을(를) 말씀하신 건가요?`, `No tool is named '${rule.tool}'. Did you mean '${suggestion}'?`)
    : text(
        `'${rule.tool}'에 맞는 도구가 없습니다. 'baram tools'에 나오는 이름, 'filesystem.*' 같은 도구 묶음, 또는 '*'를 쓰세요.`,
        `No tool matches '${rule.tool}'. Use a name from 'baram tools', a family such as 'filesystem.*', or '*'.`,
      );
}
