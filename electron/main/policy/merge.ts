import { createHash } from 'node:crypto';
import { DECISION_STRICTNESS, RISKS, stricter, type Decision, type RuleSource } from '../../common/domain';
import { canonicalJson } from '../../common/canonical-json';
import { text } from '../../common/i18n';
import { ruleProblems } from './checks';
import { byRisk } from './defaults';
import { jsonPath } from './json-path';
import { mergedModelPolicy, widerModelProblems } from './model-sources';
import { isInsideResolved } from './paths';
import { parseRule, ruleToolMatches } from './rule-syntax';
import type { EffectivePolicy, Policy, PolicyLoad, PolicyProblem, SourcedRule, ToolRisk, UserSettings } from './types';

/**
 * Admin policy ⊇ user settings (DESIGN idiom 4, Continue's "a dynamic policy cannot be more lenient
 * than the base policy"). User settings can add deny/ask rules, drop allow rules, choose stricter
 * defaults and narrower workspace roots. Every attempt to widen is a problem at its JSON path, and
 * the merge fails as a whole: half-applied settings would leave the user unsure what is in force.
 */

function widerDefaultProblems(admin: Policy, user: UserSettings): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  for (const risk of RISKS) {
    const wanted = user.defaults?.[risk];
    const base = admin.defaults[risk];
    if (wanted === undefined || DECISION_STRICTNESS[wanted] >= DECISION_STRICTNESS[base]) continue;
    const allowed = (['allow', 'ask', 'deny'] as const).filter((d: Decision) => DECISION_STRICTNESS[d] >= DECISION_STRICTNESS[base]);
    problems.push({
      path: jsonPath(['defaults', risk]),
      message: text(
        `사용자 설정은 기본값을 더 엄격하게만 바꿀 수 있습니다. 관리자 정책이 ${risk} 도구에 '${base}'를 정했으니 ${allowed.map((d) => `'${d}'`).join(' 또는 ')}로 쓰거나 이 줄을 지우세요.`,
        `User settings may only make defaults stricter: the administrator's policy sets '${base}' for ${risk} tools, so write ${allowed.map((d) => `'${d}'`).join(' or ')}, or remove this line.`,
      ),
    });
  }
  return problems;
}

function widerRootProblems(admin: Policy, user: UserSettings, platform: NodeJS.Platform): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  (user.workspaceRoots ?? []).forEach((root, i) => {
    if (admin.workspaceRoots.some((adminRoot) => isInsideResolved(root, adminRoot, platform))) return;
    problems.push({
      path: jsonPath(['workspaceRoots', i]),
      message:
        admin.workspaceRoots.length === 0
          ? text(
              `'${root}': 관리자 정책에 작업 공간 폴더가 없으므로 사용자 설정으로 고를 수 없습니다. 설정에서 workspaceRoots를 지우세요.`,
              `'${root}': the administrator's policy names no workspace folders, so user settings cannot choose one; remove workspaceRoots from the settings.`,
            )
          : text(
              `'${root}'은(는) 적힌 그대로든 링크를 따라가든 관리자의 작업 공간 폴더(${admin.workspaceRoots.join(', ')}) 안이 아닙니다. 그 안의 폴더를 고르세요.`,
              `'${root}' is not inside the administrator's workspace folders (${admin.workspaceRoots.join(', ')}), as written or after following its links. Choose a folder inside one of them.`,
            ),
    });
  });
  return problems;
}

/**
 * A user `ask` rule for tools the administrator denies by default would, if it counted, turn
 * "never" into "once approved" (issue 14, class 2). Evaluation already takes the stricter of the
 * administrator's answer and the merged one, so such a rule could change nothing; it is refused
 * here so the person who wrote it learns that at once, at its JSON path, instead of wondering why
 * it never asks. A rule is refused when it tightens none of the tools it covers and would widen at
 * least one. It tightens a tool whose risk the admin does not deny by default, or one the admin
 * allows or asks for with the very same pattern (the user is turning that allow into an ask); it
 * is inert for a tool the admin denies by a name-only rule. Needs the tools' risks; without them
 * (a settings check on its own) evaluation is the only guard.
 */
function widerAskProblems(admin: Policy, user: UserSettings, tools: readonly ToolRisk[] | undefined): PolicyProblem[] {
  if (!tools) return [];
  const problems: PolicyProblem[] = [];
  const adminRules = (list: readonly string[]) => list.flatMap((rule) => {
    const parsed = parseRule(rule);
    return parsed.ok ? [parsed.rule] : [];
  });
  const adminDeny = adminRules(admin.rules.deny);
  const adminLifting = adminRules([...admin.rules.allow, ...admin.rules.ask]);
  (user.rules?.ask ?? []).forEach((rule, i) => {
    const parsed = parseRule(rule);
    if (!parsed.ok) return; // ruleProblems reports it
    const { tool: ruleTool, pattern } = parsed.rule;
    const effect = (t: ToolRisk): 'tightens' | 'inert' | 'widens' => {
      if (adminDeny.some((d) => d.pattern === null && ruleToolMatches(d.tool, t.name))) return 'inert';
      if (admin.defaults[t.risk] !== 'deny') return 'tightens';
      return adminLifting.some((a) => ruleToolMatches(a.tool, t.name) && (a.pattern === null || a.pattern === pattern)) ? 'tightens' : 'widens';
    };
    const covered = tools.filter((t) => ruleToolMatches(ruleTool, t.name));
    const widened = covered.filter((t) => effect(t) === 'widens');
    // A family rule (`filesystem.*`, `*`) that tightens some of its tools is what a careful user
    // writes ("ask me before any file tool"); only a rule that tightens nothing can only widen.
    if (widened.length === 0 || covered.some((t) => effect(t) === 'tightens')) return;
    const names = widened.slice(0, 5).map((t) => t.name).join(', ') + (widened.length > 5 ? `, … (+${widened.length - 5})` : '');
    const risks = [...new Set(widened.map((t) => t.risk))].map((r) => `defaults.${r} is 'deny'`).join(', ');
    problems.push({
      path: jsonPath(['rules', 'ask', i]),
      message: text(
        `'${rule}' 규칙은 ${names}을(를) 승인 한 번으로 실행되게 하지만, 관리자 정책은 이를 막고 있습니다(${risks}). ` +
          `사용자 설정은 조이기만 할 수 있습니다. 이 규칙을 지우거나 rules.deny로 옮기세요. 이 도구를 쓰려면 관리자에게 정책에서 허용(allow)이나 확인(ask)을 정해 달라고 하세요.`,
        `'${rule}' would let ${names} run once approved, but the administrator's policy denies ${widened.length === 1 ? 'it' : 'them'} (${risks}). ` +
          `User settings can only tighten: remove this rule or move it to rules.deny; to use ${widened.length === 1 ? 'this tool' : 'these tools'}, ask the administrator to allow or ask for ${widened.length === 1 ? 'it' : 'them'} in the policy.`,
      ),
    });
  });
  return problems;
}

function sourced(texts: readonly string[], source: RuleSource): SourcedRule[] {
  return texts.map((rule) => ({ text: rule, source }));
}

export function mergePolicies(
  admin: Policy,
  adminSource: 'admin' | 'builtin',
  user?: UserSettings,
  platform: NodeJS.Platform = process.platform,
  /** The registered tools and their risks: lets the merge refuse an ask rule that could only widen. */
  tools?: readonly ToolRisk[],
): PolicyLoad<EffectivePolicy> {
  const u: UserSettings = user ?? {};
  const problems = [
    ...widerDefaultProblems(admin, u),
    ...widerRootProblems(admin, u, platform),
    ...widerAskProblems(admin, u, tools),
    ...widerModelProblems(admin.model, u.model, platform),
    // Settings can be built in code as well as parsed, so their rule syntax is checked here too.
    ...ruleProblems({ ask: u.rules?.ask, deny: u.rules?.deny, dropAllow: u.rules?.dropAllow }, ['rules'], undefined),
  ];
  if (problems.length > 0) return { ok: false, problems };

  // A dropAllow naming no admin rule is harmless and not an error: the admin may have removed the rule since.
  const dropped = new Set(u.rules?.dropAllow ?? []);
  const explicit = new Set(admin.explicitDefaults ?? RISKS);
  const policy: Policy = {
    ...admin,
    workspaceRoots: u.workspaceRoots ?? admin.workspaceRoots,
    defaults: byRisk((r) => stricter(admin.defaults[r], u.defaults?.[r] ?? admin.defaults[r])),
    rules: {
      allow: admin.rules.allow.filter((r) => !dropped.has(r)),
      ask: [...admin.rules.ask, ...(u.rules?.ask ?? [])],
      deny: [...admin.rules.deny, ...(u.rules?.deny ?? [])],
    },
    model: mergedModelPolicy(admin.model, u.model),
  };
  const defaultSources = byRisk((r): RuleSource => {
    const wanted = u.defaults?.[r];
    if (wanted !== undefined && DECISION_STRICTNESS[wanted] > DECISION_STRICTNESS[admin.defaults[r]]) return 'user';
    return adminSource === 'admin' && explicit.has(r) ? 'admin' : 'builtin';
  });
  // The administrator's policy alone, kept beside the merge: evaluation takes the stricter of both.
  let adminOnly: EffectivePolicy | undefined;
  if (user !== undefined) {
    const alone = mergePolicies(admin, adminSource, undefined, platform);
    if (!alone.ok) return alone;
    adminOnly = alone.value;
  }
  return {
    ok: true,
    value: {
      ...(adminOnly ? { adminOnly } : {}),
      policy,
      rules: {
        allow: sourced(policy.rules.allow, adminSource),
        ask: [...sourced(admin.rules.ask, adminSource), ...sourced(u.rules?.ask ?? [], 'user')],
        deny: [...sourced(admin.rules.deny, adminSource), ...sourced(u.rules?.deny ?? [], 'user')],
      },
      defaultSources,
      digest: createHash('sha256').update(canonicalJson(policy)).digest('hex'),
    },
  };
}
