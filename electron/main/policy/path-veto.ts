import { compilePattern, type ValueMatcher } from './patterns';
import { parseRule, ruleToolMatches } from './rule-syntax';
import type { EffectivePolicy, PermissionEnv } from './types';

/**
 * SPEC G-PERM: deny and ask rules apply to every path a tool reads, lists or writes, not only to
 * the path it names (issue 14 class 3). The gate judges the named path; a tree walk (search.text,
 * filesystem.list recursive, filesystem.search) meets thousands of paths nobody named, and asks
 * this veto about each one it would hand out: a path a deny or ask rule for the tool covers is
 * skipped (a walk cannot stop to ask) and counted, so the tool can say how many it left out.
 *
 * `exceptRule`: the ask rule the human approved this very call under. Approving
 * "search.text in 인사" under `ask: search.text(**\/인사/**)` means searching there, so that rule
 * does not veto what the approved call reads; every deny rule still does.
 */
export interface PathVeto {
  /** The rule covering an absolute (real) path, or null when no deny/ask rule for the tool does. */
  ruleFor(absolutePath: string): string | null;
}

export function compilePathVeto(eff: EffectivePolicy, env: PermissionEnv, tool: string, exceptRule?: string): PathVeto | null {
  const matchers: { readonly text: string; readonly test: ValueMatcher }[] = [];
  for (const list of ['deny', 'ask'] as const) {
    for (const rule of eff.rules[list]) {
      if (list === 'ask' && rule.text === exceptRule) continue;
      const parsed = parseRule(rule.text);
      // A rule that cannot be parsed, or a name-only rule, already decided the call itself.
      if (!parsed.ok || parsed.rule.pattern === null || !ruleToolMatches(parsed.rule.tool, tool)) continue;
      const matcher = compilePattern('PATH', parsed.rule.pattern, env);
      // Fail closed: a pattern we cannot read for paths covers everything the walk would show.
      matchers.push({ text: rule.text, test: matcher ?? (() => true) });
    }
  }
  if (matchers.length === 0) return null;
  return {
    ruleFor(absolutePath: string): string | null {
      for (const m of matchers) if (m.test(absolutePath)) return m.text;
      return null;
    },
  };
}
