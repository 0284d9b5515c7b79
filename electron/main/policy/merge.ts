import { createHash } from 'node:crypto';
import { DECISION_STRICTNESS, RISKS, stricter, type Decision, type RuleSource } from '../../common/domain';
import { canonicalJson } from '../../common/canonical-json';
import { ruleProblems } from './checks';
import { byRisk } from './defaults';
import { jsonPath } from './json-path';
import { isInsideResolved } from './paths';
import type { EffectivePolicy, Policy, PolicyLoad, PolicyProblem, SourcedRule, UserSettings } from './types';

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
      message: `User settings may only make defaults stricter: the administrator's policy sets '${base}' for ${risk} tools, so write ${allowed.map((d) => `'${d}'`).join(' or ')}, or remove this line.`,
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
          ? `'${root}': the administrator's policy names no workspace folders, so user settings cannot choose one; remove workspaceRoots from the settings.`
          : `'${root}' is not inside the administrator's workspace folders (${admin.workspaceRoots.join(', ')}), as written or after following its links. Choose a folder inside one of them.`,
    });
  });
  return problems;
}

function sourced(texts: readonly string[], source: RuleSource): SourcedRule[] {
  return texts.map((text) => ({ text, source }));
}

export function mergePolicies(
  admin: Policy,
  adminSource: 'admin' | 'builtin',
  user?: UserSettings,
  platform: NodeJS.Platform = process.platform,
): PolicyLoad<EffectivePolicy> {
  const u: UserSettings = user ?? {};
  const problems = [
    ...widerDefaultProblems(admin, u),
    ...widerRootProblems(admin, u, platform),
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
  };
  const defaultSources = byRisk((r): RuleSource => {
    const wanted = u.defaults?.[r];
    if (wanted !== undefined && DECISION_STRICTNESS[wanted] > DECISION_STRICTNESS[admin.defaults[r]]) return 'user';
    return adminSource === 'admin' && explicit.has(r) ? 'admin' : 'builtin';
  });
  return {
    ok: true,
    value: {
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
