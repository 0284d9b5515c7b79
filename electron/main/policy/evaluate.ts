import { DECISION_STRICTNESS, type Decision, type RuleSource, type SubjectKind } from '../../common/domain';
import type { Text } from '../../common/i18n';
import { policyMessages } from './messages';
import { compilePattern, hasShellMetacharacter, type ValueMatcher } from './patterns';
import { builtinProtection } from './protections';
import { foldCase } from './paths';
import { parseRule, ruleToolMatches } from './rule-syntax';
import { ambiguousUrlMessage, urlAmbiguity, urlWithoutCredentials } from './url-shape';
import { readSubject, type SubjectValue, type SubjectView } from './subject-view';
import type { EffectivePolicy, PermissionEnv, PermissionQuery, PermissionVerdict, SourcedRule } from './types';

/**
 * Layer 1 of the gate (SPEC G-PERM). Precedence, strongest first:
 *   deny rules > built-in protections > ask rules > allow rules > defaults[risk]; a session grant
 *   then turns an `ask` (and only an ask) into `allow`. With user settings the verdict is the
 *   stricter of the administrator's policy alone and the merged one (SPEC §8).
 * Fail closed throughout: an unknown tool, a rule that cannot be applied, a pattern rule with no
 * subject to check, or any exception is a deny, never a pass.
 */

type RuleList = 'deny' | 'ask' | 'allow';

interface ApplicableRule {
  readonly list: RuleList;
  readonly rule: SourcedRule;
  /** null: a name-only rule, which covers every call of the tool. */
  readonly matcher: ValueMatcher | null;
}

/**
 * Rules are parsed and patterns compiled once per session, not per call: a policy of a few dozen
 * glob rules would otherwise cost more per call than the whole gate budget (p99 < 0.3 ms). Patterns
 * depend on the environment (roots, home, platform), so their cache hangs off the env object.
 */
const parsedRules = new Map<string, ReturnType<typeof parseRule>>();
const compiledPatterns = new WeakMap<PermissionEnv, Map<string, ValueMatcher | null>>();

function parseRuleOnce(text: string): ReturnType<typeof parseRule> {
  let parsed = parsedRules.get(text);
  if (!parsed) {
    parsed = parseRule(text);
    parsedRules.set(text, parsed);
  }
  return parsed;
}

function compilePatternOnce(kind: SubjectKind, pattern: string, env: PermissionEnv): ValueMatcher | null {
  let forEnv = compiledPatterns.get(env);
  if (!forEnv) compiledPatterns.set(env, (forEnv = new Map()));
  const key = `${kind}\u0000${pattern}`;
  if (!forEnv.has(key)) forEnv.set(key, compilePattern(kind, pattern, env));
  return forEnv.get(key) ?? null;
}

function verdict(decision: Decision, rule: string, source: RuleSource, resolved: readonly string[], reason?: Text): PermissionVerdict {
  return reason ? { decision, rule, source, reason, resolved } : { decision, rule, source, resolved };
}

/** deny and ask tighten, so one matching form of one value is enough. */
function matchesAny(matcher: ValueMatcher, values: readonly SubjectValue[]): boolean {
  return values.some((v) => v.forms.some(matcher));
}

/** allow widens, so every form of every value must match (a move is allowed only if both ends are). */
function matchesAll(matcher: ValueMatcher, values: readonly SubjectValue[]): boolean {
  return values.length > 0 && values.every((v) => v.forms.every(matcher));
}

function sameValues(a: readonly string[], b: readonly string[], pathPlatform: NodeJS.Platform | undefined): boolean {
  const fold = (v: string) => (pathPlatform === undefined ? v : foldCase(v, pathPlatform));
  return a.length === b.length && a.every((v, i) => fold(v) === fold(b[i]!));
}

async function decide(eff: EffectivePolicy, q: PermissionQuery, env: PermissionEnv): Promise<PermissionVerdict> {
  if (!q.known) return verdict('deny', 'unknown-tool', 'builtin', [], policyMessages.unknownTool(q.tool));

  const view = q.subject === null ? null : await readSubject(q.subject, env);
  if (view !== null && 'invalidPath' in view) {
    // Without a workspace a relative path has nothing to be relative to; say what is really missing.
    if (env.roots.length === 0) return verdict('deny', 'workspaceRoots', 'builtin', [], policyMessages.outsideRoots(view.invalidPath, undefined, false));
    return verdict('deny', 'invalid-path', 'builtin', [], policyMessages.invalidPath);
  }
  if (view?.kind === 'URL') {
    // Before any rule: an allow prefix would not match such a URL, but neither would a deny rule
    // for where the server actually goes (`/wiki/..%2fadmin` is `/admin` to nginx).
    for (const v of view.values) {
      const url = new URL(v.key);
      const ambiguity = urlAmbiguity(url, v.raw);
      if (!ambiguity) continue;
      const shown = urlWithoutCredentials(url);
      return verdict('deny', 'ambiguous-url', 'builtin', [shown], ambiguousUrlMessage(shown, ambiguity));
    }
  }
  const merged = await judge(eff, q, env, view);
  // SPEC §8: each decision is the stricter of the admin policy's alone and the user's. Judging the
  // admin policy on its own makes "settings only tighten" a property of the evaluation, not of how
  // carefully the merge ranked each list: whatever the user's rules say (an `ask` under a default
  // deny, say), they cannot end looser than the administrator's own answer. On a tie the merged
  // verdict is kept, so a user's rule is still named as the rule that decided.
  const admin = adminAlone(eff);
  if (admin === null || merged.decision === 'deny') return merged;
  const alone = await judge(admin, q, env, view);
  return DECISION_STRICTNESS[alone.decision] > DECISION_STRICTNESS[merged.decision] ? alone : merged;
}

/**
 * The administrator's policy on its own: what mergePolicies kept for it, or — for an effective
 * policy built some other way — the merged one without the user's rules (its defaults can only be
 * stricter than the administrator's, so this errs on the strict side). null: there are no user
 * settings, the merged policy is the administrator's.
 */
function adminAlone(eff: EffectivePolicy): EffectivePolicy | null {
  if (eff.adminOnly) return eff.adminOnly;
  const fromUser = (r: SourcedRule) => r.source === 'user';
  if (!eff.rules.ask.some(fromUser) && !eff.rules.deny.some(fromUser)) return null;
  return {
    ...eff,
    rules: { allow: eff.rules.allow, ask: eff.rules.ask.filter((r) => !fromUser(r)), deny: eff.rules.deny.filter((r) => !fromUser(r)) },
  };
}

/** One policy's verdict. A session grant only turns that policy's `ask` into `allow`, never a deny. */
async function judge(eff: EffectivePolicy, q: PermissionQuery, env: PermissionEnv, view: Exclude<SubjectView, { invalidPath: string }> | null): Promise<PermissionVerdict> {
  const ruled = await byRules(eff, q, env, view);
  if (ruled.decision !== 'ask') return ruled;
  const kind = view?.kind ?? null;
  // A grant remembers the resolved subject the human approved (PermissionVerdict.resolved).
  if (view === null || view.readable) {
    const granted = (q.sessionGrants ?? []).some(
      (g) => g.tool === q.tool && g.kind === kind && sameValues(g.values, ruled.resolved, kind === 'PATH' ? env.platform : undefined),
    );
    if (granted) return verdict('allow', 'session-grant', 'session', ruled.resolved);
  }
  return ruled;
}

async function byRules(eff: EffectivePolicy, q: PermissionQuery, env: PermissionEnv, view: Exclude<SubjectView, { invalidPath: string }> | null): Promise<PermissionVerdict> {
  const values = view?.values ?? [];
  const kind = view?.kind ?? null;
  // PATH: every form that was judged (lexical, and real where it differs); others: the normalised value.
  const resolved = kind === 'PATH' ? values.flatMap((v) => v.forms) : values.map((v) => v.key);

  // Interpret every rule that names this tool before deciding anything: a rule we cannot apply
  // must deny even if a later list would have allowed the call.
  const applicable: ApplicableRule[] = [];
  for (const list of ['deny', 'ask', 'allow'] as const) {
    for (const rule of eff.rules[list]) {
      const parsed = parseRuleOnce(rule.text);
      if (!parsed.ok) return verdict('deny', rule.text, rule.source, resolved, policyMessages.uninterpretable(rule.text));
      if (!ruleToolMatches(parsed.rule.tool, q.tool)) continue;
      const pattern = parsed.rule.pattern;
      if (pattern === null) {
        applicable.push({ list, rule, matcher: null });
        continue;
      }
      if (view === null) {
        // A family rule (`filesystem.*(…)`) speaks about subjects; a member that declares none
        // (filesystem.restore takes a trash id) has nothing it could mean. A rule naming such a
        // tool exactly was written in error and cannot be applied.
        if (parsed.rule.tool.endsWith('*')) continue;
        return verdict('deny', rule.text, rule.source, resolved, policyMessages.uninterpretable(rule.text));
      }
      if (values.length === 0 || !view.readable) {
        return verdict('deny', rule.text, rule.source, resolved, policyMessages.emptySubject(rule.text));
      }
      const matcher = compilePatternOnce(view.kind, pattern, env);
      if (matcher === null) return verdict('deny', rule.text, rule.source, resolved, policyMessages.uninterpretable(rule.text));
      applicable.push({ list, rule, matcher });
    }
  }
  const inList = (list: RuleList) => applicable.filter((a) => a.list === list);

  for (const { rule, matcher } of inList('deny')) {
    if (matcher === null || matchesAny(matcher, values)) {
      return verdict('deny', rule.text, rule.source, resolved, policyMessages.deniedByRule(rule.text, kind));
    }
  }

  if (kind === 'PATH') {
    const protection = builtinProtection(values, q.risk, env);
    if (protection) return verdict('deny', protection.rule, 'builtin', resolved, protection.reason);
  }

  for (const { rule, matcher } of inList('ask')) {
    if (matcher === null || matchesAny(matcher, values)) return verdict('ask', rule.text, rule.source, resolved);
  }

  // A command line with shell metacharacters is never what an allow rule was written for
  // (`git status; rm -rf /` must not ride on `git status:*`); deny and ask above still saw it.
  // That holds for a name-only allow too: "never matches an allow rule" (SPEC G-PERM).
  const allowBlocked = kind === 'COMMAND' && values.some((v) => hasShellMetacharacter(v.key));
  if (!allowBlocked) {
    for (const { rule, matcher } of inList('allow')) {
      if (matcher === null || matchesAll(matcher, values)) return verdict('allow', rule.text, rule.source, resolved);
    }
  }

  const decision = eff.policy.defaults[q.risk];
  // A hand-built policy or an unknown risk must not yield "no decision"; the catch below denies.
  if (decision !== 'allow' && decision !== 'ask' && decision !== 'deny') throw new Error(`No default decision for risk '${q.risk}'`);
  const source = eff.defaultSources[q.risk];
  return verdict(decision, `defaults.${q.risk}`, source, resolved, decision === 'deny' ? policyMessages.deniedByDefault(q.risk) : undefined);
}

export async function evaluatePermission(eff: EffectivePolicy, q: PermissionQuery, env: PermissionEnv): Promise<PermissionVerdict> {
  try {
    return await decide(eff, q, env);
  } catch (e) {
    // The exception goes to the audit log; the model only learns that the call was blocked.
    const error = e instanceof Error ? `${(e as NodeJS.ErrnoException).code ?? e.name}: ${e.message}` : String(e);
    return { ...verdict('deny', 'evaluation-error', 'builtin', [], policyMessages.evaluationError), error };
  }
}
