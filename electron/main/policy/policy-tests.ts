import type { Risk } from '../../common/domain';
import { evaluatePermission } from './evaluate';
import { jsonPath } from './json-path';
import type { EffectivePolicy, PermissionEnv, PermissionQuery, PolicyProblem } from './types';

/** How the caller (the gate, from its tool registry) turns a test's tool and args into a query. */
export type SubjectOf = (tool: string, args: Record<string, unknown>) => { known: boolean; risk: Risk; subject: PermissionQuery['subject'] };

/**
 * SPEC §8: a policy's `tests` are checked at load, and a policy whose own examples fail does not
 * load. Each test runs through the same evaluatePermission the gate uses, without session grants,
 * so a passing test means exactly what the gate will decide.
 */
export async function runPolicyTests(eff: EffectivePolicy, env: PermissionEnv, subjectOf: SubjectOf): Promise<PolicyProblem[]> {
  const problems: PolicyProblem[] = [];
  for (const [i, test] of eff.policy.tests.entries()) {
    const { known, risk, subject } = subjectOf(test.tool, { ...test.args });
    const verdict = await evaluatePermission(eff, { tool: test.tool, known, risk, subject }, env);
    if (verdict.decision === test.expect) continue;
    problems.push({
      path: jsonPath(['tests', i]),
      message: `Expected '${test.expect}' for ${test.tool} ${JSON.stringify(test.args)}, but the policy decides '${verdict.decision}' by rule '${verdict.rule}' (${verdict.source}).`,
    });
  }
  return problems;
}
