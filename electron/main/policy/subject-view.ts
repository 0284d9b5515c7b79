import type { SubjectKind } from '../../common/domain';
import { assertNever } from '../../common/assert-never';
import { commandPieces, hasShellMetacharacter, normaliseHost } from './patterns';
import { lexicalForm, realForm } from './paths';
import type { PermissionEnv, PermissionQuery } from './types';

/**
 * A permission subject made ready for matching. Each raw value becomes the forms rules are tested
 * against: PATH has its lexical form and, where different, its real (symlink-resolved) form, and
 * BOTH must pass; the other kinds have one normalised form.
 */
export interface SubjectValue {
  readonly raw: string;
  /** Normalised form (PATH: absolute and lexically normalised). */
  readonly key: string;
  /**
   * `key` first. PATH adds the real form when it differs. COMMAND adds each piece of a line split
   * at shell metacharacters, so `git status; rm -rf /` still meets a deny rule for `rm:*`.
   */
  readonly forms: readonly string[];
}

export type SubjectView =
  | { readonly kind: SubjectKind; readonly values: readonly SubjectValue[]; readonly readable: boolean }
  | { readonly invalidPath: string };

type RawSubject = NonNullable<PermissionQuery['subject']>;

function one(raw: string, key: string): SubjectValue {
  return { raw, key, forms: [key] };
}

/** Synchronous part: every value's normalised key, or null where a value is not readable. */
function keysOf(subject: RawSubject, env: PermissionEnv): { raw: string; key: string | null }[] {
  switch (subject.kind) {
    case 'COMMAND': {
      // The argv joined by single spaces is the command line rules are written against (SPEC G-PERM).
      const line = subject.values.join(' ');
      return line.trim() === '' ? [] : [{ raw: line, key: line }];
    }
    case 'PATH':
      return subject.values.map((raw) => ({ raw, key: lexicalForm(raw, env.roots[0], env.home, env.platform) }));
    case 'URL':
      return subject.values.map((raw) => {
        try {
          return { raw, key: new URL(raw).href };
        } catch {
          return { raw, key: null };
        }
      });
    case 'HOST':
      return subject.values.map((raw) => {
        const host = normaliseHost(raw);
        return { raw, key: host === '' ? null : host };
      });
    default:
      return assertNever(subject.kind);
  }
}

export async function readSubject(subject: RawSubject, env: PermissionEnv): Promise<SubjectView> {
  const keys = keysOf(subject, env);
  if (subject.kind === 'PATH') {
    const values: SubjectValue[] = [];
    for (const { raw, key } of keys) {
      if (key === null) return { invalidPath: raw };
      const real = realForm(key, env.platform);
      values.push({ raw, key, forms: real === key ? [key] : [key, real] });
    }
    return { kind: 'PATH', values, readable: true };
  }
  const readable = keys.every((k) => k.key !== null);
  const values = keys.flatMap((k) => (k.key === null ? [] : [one(k.raw, k.key)]));
  if (subject.kind !== 'COMMAND') return { kind: subject.kind, values, readable };
  return {
    kind: 'COMMAND',
    values: values.map((v) => (hasShellMetacharacter(v.key) ? { ...v, forms: [...new Set([v.key, ...commandPieces(v.key)])] } : v)),
    readable,
  };
}
