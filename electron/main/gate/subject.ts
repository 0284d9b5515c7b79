import type { TObject } from '@sinclair/typebox';
import type { PermissionSubject } from '../../common/domain';
import type { SubjectSpec } from '../../../tools/kit/define-tool';

/**
 * Whether every subject field can be read: a string (or an array of strings where the field takes
 * several), or absent where the schema makes it optional (it then takes its documented default, the
 * first workspace root). A field missing, misspelled or of the wrong type is not readable.
 */
export function subjectFieldsReadable(spec: SubjectSpec | null, schema: TObject, args: Record<string, unknown>): boolean {
  if (!spec) return true;
  const required = new Set(schema.required ?? []);
  return spec.fields.every((field) => {
    const value = args[field];
    if (value === undefined) return !required.has(field);
    if (typeof value === 'string') return true;
    return Array.isArray(value) && value.every((v) => typeof v === 'string');
  });
}

/**
 * Reads the permission subject from RAW arguments, before schema validation (SPEC G-ORDER). It
 * therefore trusts nothing: non-string values contribute nothing, and an empty result is handed to
 * the permission layer, which denies when a pattern rule applies (fail closed).
 */
export function extractSubject(spec: SubjectSpec | null, args: Record<string, unknown>): PermissionSubject | null {
  if (!spec) return null;
  const parts: string[] = [];
  for (const field of spec.fields) {
    const value = args[field];
    // A blank path is how small models say "no path" (like null); for a PATH subject it means the
    // first workspace root, exactly what an omitted field means. The tool still refuses a blank
    // path where it needs one (read, write), before approval.
    if (typeof value === 'string') {
      parts.push(spec.kind === 'PATH' && value.trim() === '' ? '.' : value);
    } else if (Array.isArray(value)) {
      for (const v of value) if (typeof v === 'string') parts.push(v);
    } else if (value === undefined && spec.kind === 'PATH') {
      // An omitted optional path means the first workspace root (SPEC §9: relative paths resolve
      // there). Braces matter: without them this `else` bound to the loop's `if` above, and an
      // omitted path gave no subject at all (issue 13: filesystem.search denied as "no target").
      parts.push('.');
    }
  }
  if (spec.kind === 'COMMAND') return { kind: 'COMMAND', values: parts.length ? [parts.join(' ')] : [] };
  return { kind: spec.kind, values: parts };
}
