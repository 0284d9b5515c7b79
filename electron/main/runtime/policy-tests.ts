import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Lang } from '../../common/i18n';
import type { AnyTool } from '../../../tools/kit/define-tool';
import { callProbe, permissionSubjectOf } from '../gate';
import type { HostCapabilities } from '../gate/scoped-capabilities';
import { runPolicyTests } from '../policy';
import type { EffectivePolicy, PermissionEnv, PolicyProblem } from '../policy/types';
import { createHostCapabilities } from './capabilities';

/**
 * A policy's embedded tests through permission, schema and the tools' real prechecks (issue 15,
 * item 10). The tests are the administrator's examples, so they run against the admin policy alone.
 */
export function runAdminPolicyTests(
  adminOnly: EffectivePolicy,
  env: PermissionEnv,
  capabilities: HostCapabilities,
  lang: Lang,
  tools?: readonly AnyTool[],
): Promise<PolicyProblem[]> {
  const probe = callProbe({ capabilities, shell: adminOnly.policy.shell, lang, tools });
  return runPolicyTests(adminOnly, env, (tool, args) => permissionSubjectOf(tool, args, tools), probe);
}

/**
 * The same, without a session (`baram policy check`): capabilities over the given roots and a
 * throwaway trash folder, nothing recorded, nothing run (prechecks get read-only views).
 */
export async function checkPolicyTests(adminOnly: EffectivePolicy, roots: readonly string[], lang: Lang): Promise<PolicyProblem[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'baram-policy-check-'));
  try {
    const { capabilities, permissionEnv } = await createHostCapabilities({ policy: adminOnly, roots, trashDir: join(scratch, 'trash'), protectedPaths: [] });
    try {
      return await runAdminPolicyTests(adminOnly, permissionEnv, capabilities, lang);
    } finally {
      await capabilities.processes.closeAll();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
