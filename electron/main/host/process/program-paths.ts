import { FileAccessError, type FileAccess } from '../../../common/file-access';
import { evaluatePermission } from '../../policy';
import { parseRule, ruleToolMatches } from '../../policy/rule-syntax';
import type { EffectivePolicy, PermissionEnv } from '../../policy/types';

/** The file tools' confinement, and whether the policy hides paths from reading at all. */
export type ProgramPathConfinement = Pick<FileAccess, 'check' | 'roots'> & {
  /** A deny rule with a path pattern applies to filesystem.read: some paths are hidden. */
  readonly hidesPaths?: boolean;
};

/**
 * The confinement of program path arguments (docs/2026-12-03-programs-confined-by-grammar.md):
 * the file tools' own (inside a root after realpath, never a protected path), plus the deny rules a
 * `filesystem.read` of the same path would meet — a program that reads a file is reading it, so
 * `git log -- .ssh/id_rsa` or `find 인사` is refused where filesystem.read is denied.
 */
export function programPathConfinement(files: Pick<FileAccess, 'check' | 'roots'>, policy: EffectivePolicy, env: PermissionEnv): ProgramPathConfinement {
  const hidesPaths = policy.rules.deny.some((rule) => {
    const parsed = parseRule(rule.text);
    // A rule that cannot be read counts: fail closed.
    return !parsed.ok || (parsed.rule.pattern !== null && ruleToolMatches(parsed.rule.tool, 'filesystem.read'));
  });
  return {
    roots: files.roots,
    hidesPaths,
    async check(p: string): Promise<string> {
      const checked = await files.check(p);
      const verdict = await evaluatePermission(policy, { tool: 'filesystem.read', known: true, risk: 'read', subject: { kind: 'PATH', values: [checked] } }, env);
      if (verdict.decision === 'deny') throw new FileAccessError('FORBIDDEN', p, `denied by ${verdict.rule}`);
      return checked;
    },
  };
}
