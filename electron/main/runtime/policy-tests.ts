import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Lang } from '../../common/i18n';
import type { AnyTool } from '../../../tools/kit/define-tool';
import { callProbe, permissionSubjectOf } from '../gate';
import type { HostCapabilities } from '../gate/scoped-capabilities';
import { runPolicyTests, type PolicyTestReport } from '../policy';
import type { EffectivePolicy, PermissionEnv } from '../policy/types';
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
): Promise<PolicyTestReport> {
  if (adminOnly.policy.tests.length === 0) return Promise.resolve({ problems: [], warnings: [] });
  const probe = callProbe({ capabilities, shell: adminOnly.policy.shell, lang, tools });
  return runPolicyTests(adminOnly, env, (tool, args) => permissionSubjectOf(tool, args, tools), probe);
}

/**
 * The same, without a session (`baram policy check`): capabilities over the given roots and a
 * throwaway trash folder, nothing recorded, nothing run (prechecks get read-only views). A root that
 * does not exist on this machine (the check runs on the administrator's) is stood in for by an
 * empty folder for the file capability; the rules still see the root as written.
 */
export async function checkPolicyTests(adminOnly: EffectivePolicy, roots: readonly string[], lang: Lang): Promise<PolicyTestReport> {
  const scratch = await mkdtemp(join(tmpdir(), 'baram-policy-check-'));
  try {
    const standIns = await Promise.all(
      roots.map(async (root, i) => {
        if (existsSync(root)) return realpathSync(root);
        const standIn = join(scratch, `root-${i}`);
        await mkdir(standIn);
        return standIn;
      }),
    );
    const { capabilities, permissionEnv } = await createHostCapabilities({ policy: adminOnly, roots: standIns, trashDir: join(scratch, 'trash'), protectedPaths: [] });
    const env: PermissionEnv = { ...permissionEnv, roots: roots.map((r, i) => (existsSync(r) ? standIns[i]! : r)) };
    try {
      return await runAdminPolicyTests(adminOnly, env, capabilities, lang);
    } finally {
      await capabilities.processes.closeAll();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
