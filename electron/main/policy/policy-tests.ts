import type { Risk } from '../../common/domain';
import { text, type Text } from '../../common/i18n';
import { evaluatePermission } from './evaluate';
import { jsonPath } from './json-path';
import type { EffectivePolicy, PermissionEnv, PermissionQuery, PolicyExpectation, PolicyProblem } from './types';

/** How the caller (the gate, from its tool registry) turns a test's tool and args into a query. */
export type SubjectOf = (tool: string, args: Record<string, unknown>) => { known: boolean; risk: Risk; subject: PermissionQuery['subject'] };

/** What the layers after permission make of a call: its schema, then the tool's own precheck. */
export type ProbeOutcome =
  | { readonly kind: 'passes' }
  | { readonly kind: 'invalid'; readonly message: Text }
  | { readonly kind: 'refused'; readonly message: Text };

/**
 * Runs a test's call through schema validation and the tool's real precheck (with read-only
 * capabilities), as the gate would. The policy layer cannot reach tools, so the caller wires it
 * (runtime/ from gate/'s callProbe).
 */
export type CallProbe = (tool: string, args: Record<string, unknown>) => Promise<ProbeOutcome>;

/** Problems stop the policy from loading; warnings are shown by `baram policy check` only. */
export interface PolicyTestReport {
  readonly problems: PolicyProblem[];
  readonly warnings: PolicyProblem[];
}

/**
 * SPEC §8: a policy's `tests` are checked at load, and a policy whose own examples fail does not
 * load. Each test runs through the same evaluatePermission the gate uses, without session grants,
 * then (given a probe) through the schema and the precheck, so a test means what the gate will do
 * (issue 15, item 10): a command that is not whitelisted is refused before anyone is asked.
 *   - `expect: "deny"` is met by any block before approval (a rule or the precheck: for an
 *     administrator both mean "never runs"); `expect: "refuse"` asserts the precheck's refusal.
 *   - `allow`/`ask` judge the rules. A refusal of such a call is a warning, not a problem: it
 *     depends on this machine (the example's file is not in the workspace, git is not installed),
 *     and a policy must not stop loading because `notes.txt` does not exist yet.
 * Without a probe only the permission layer is judged (unit tests of the rules alone).
 */
export async function runPolicyTests(eff: EffectivePolicy, env: PermissionEnv, subjectOf: SubjectOf, probe?: CallProbe): Promise<PolicyTestReport> {
  const problems: PolicyProblem[] = [];
  const warnings: PolicyProblem[] = [];
  for (const [i, test] of eff.policy.tests.entries()) {
    const args = { ...test.args };
    const path = jsonPath(['tests', i]);
    const call = `${test.tool} ${JSON.stringify(test.args)}`;
    const { known, risk, subject } = subjectOf(test.tool, args);
    const verdict = await evaluatePermission(eff, { tool: test.tool, known, risk, subject }, env);
    const after = verdict.decision === 'deny' || !probe ? ({ kind: 'passes' } as const) : await probe(test.tool, args);
    if (after.kind === 'invalid') {
      problems.push({
        path,
        message: text(
          `${call}의 인수가 도구의 형식에 맞지 않아 이 예시는 아무것도 확인하지 못합니다: ${after.message.ko} 'baram tools --json'의 형식대로 args를 고치세요.`,
          `The arguments of ${call} do not fit the tool's schema, so this example checks nothing: ${after.message.en} Fix args to match 'baram tools --json'.`,
        ),
      });
      continue;
    }
    const outcome: PolicyExpectation = after.kind === 'refused' ? 'refuse' : verdict.decision;
    if (outcome === test.expect || (test.expect === 'deny' && outcome === 'refuse')) continue;
    if (after.kind === 'refused' && test.expect === verdict.decision) {
      warnings.push({
        path,
        message: text(
          `규칙은 ${call}에 '${test.expect}'를 주지만, 이 컴퓨터에서는 지금 승인을 묻기 전에 사전 점검에서 거절됩니다: ${after.message.ko} 거절이 맞다면 "expect": "refuse"로 쓰세요.`,
          `The rules give ${call} '${test.expect}', but on this machine the call is now refused before approval by the precheck: ${after.message.en} If that is intended, write "expect": "refuse".`,
        ),
      });
      continue;
    }
    problems.push({
      path,
      message:
        after.kind === 'refused'
          ? text(
              `${call}에 '${test.expect}'를 기대했지만, 정책은 '${verdict.rule}' 규칙(${verdict.source})으로 '${verdict.decision}'로 정하고, 게다가 이 호출은 승인을 묻기 전에 사전 점검에서 거절됩니다: ${after.message.ko}`,
              `Expected '${test.expect}' for ${call}, but the policy decides '${verdict.decision}' by rule '${verdict.rule}' (${verdict.source}), and the call is refused before approval by the precheck: ${after.message.en}`,
            )
          : text(
              `${call}에 '${test.expect}'를 기대했지만, 정책은 '${verdict.rule}' 규칙(${verdict.source})으로 '${verdict.decision}'로 정합니다.`,
              `Expected '${test.expect}' for ${call}, but the policy decides '${verdict.decision}' by rule '${verdict.rule}' (${verdict.source}).`,
            ),
    });
  }
  return { problems, warnings };
}
