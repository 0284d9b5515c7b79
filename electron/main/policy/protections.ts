import type { Risk } from '../../common/domain';
import type { Text } from '../../common/i18n';
import { policyMessages } from './messages';
import { isInside } from './paths';
import type { SubjectValue } from './subject-view';
import type { PermissionEnv } from './types';

/**
 * Built-in protections for PATH subjects. They rank below explicit deny rules and above everything
 * that can allow (session grants, ask and allow rules, defaults), so no policy and no approval can
 * switch them off. Every form of every value is checked: the lexical form catches `..` escapes,
 * the real form catches symlinks that lead out.
 */
export interface Protection {
  readonly rule: 'workspaceRoots' | 'protected' | 'execution-equivalent-write';
  readonly reason: Text;
}

/** SPEC G-APPROVE: writes that amount to execution. Scripts run on double-click; macros on open. */
const EXECUTION_EXTENSIONS = ['.bat', '.cmd', '.ps1', '.sh', '.xlsm', '.docm', '.pptm'];

/**
 * Win32 drops trailing dots and spaces from names and writes `a.bat::$DATA` to `a.bat` itself, so
 * both are removed before looking at a name there. Lowercased on every platform: `RUN.BAT` runs on
 * Windows, and `X.SH` is as runnable by `sh` as `x.sh`.
 */
function segmentsForExecutionCheck(p: string, platform: NodeJS.Platform): string[] {
  const segments = p.replace(/\\/g, '/').toLowerCase().split('/');
  if (platform !== 'win32') return segments;
  return segments.map((s, i) => (i === 0 ? s : s.replace(/:.*$/, '').replace(/[. ]+$/, '')));
}

export function isExecutionEquivalent(p: string, platform: NodeJS.Platform): boolean {
  const segments = segmentsForExecutionCheck(p, platform);
  const name = segments[segments.length - 1] ?? '';
  if (EXECUTION_EXTENSIONS.some((ext) => name.endsWith(ext))) return true;
  for (let i = 0; i + 1 < segments.length; i++) {
    if (segments[i] !== '.git') continue;
    // Anything in (or the folder) .git/hooks runs on the next git command; .git/config can name programs (core.pager, …).
    if (segments[i + 1] === 'hooks') return true;
    if (segments[i + 1] === 'config' && i + 2 === segments.length) return true;
  }
  return false;
}

// Protected paths ignore case everywhere: the audit directory must not be reachable as `AUDIT` on a
// case-insensitive volume, and refusing a same-named folder on a case-sensitive one costs nothing.
function insideProtected(form: string, protectedPath: string, platform: NodeJS.Platform): boolean {
  return isInside(form.toLowerCase(), protectedPath.toLowerCase(), platform);
}

export function builtinProtection(values: readonly SubjectValue[], risk: Risk, env: PermissionEnv): Protection | null {
  for (const value of values) {
    for (const form of value.forms) {
      if (!env.roots.some((root) => isInside(form, root, env.platform))) {
        const throughLink = form !== value.key && env.roots.some((root) => isInside(value.key, root, env.platform));
        return { rule: 'workspaceRoots', reason: policyMessages.outsideRoots(value.raw, env.roots[0], throughLink) };
      }
    }
  }
  for (const value of values) {
    if (value.forms.some((form) => env.protectedPaths.some((p) => insideProtected(form, p, env.platform)))) {
      return { rule: 'protected', reason: policyMessages.protectedPath(value.raw) };
    }
  }
  if (risk === 'write' || risk === 'destructive') {
    for (const value of values) {
      if (value.forms.some((form) => isExecutionEquivalent(form, env.platform))) {
        return { rule: 'execution-equivalent-write', reason: policyMessages.executionEquivalent(value.raw) };
      }
    }
  }
  return null;
}
