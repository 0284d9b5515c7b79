import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { closest } from '../../common/did-you-mean';
import { jsonPath, pointerSegments, type PathSegment } from './json-path';
import { re2Engine } from './regexp-engine';
import type { PolicyProblem } from './types';

/**
 * Schema validation of policy and settings files, with every ajv error turned into a problem an
 * administrator can act on: the JSON path of the offending value and a sentence saying what to
 * write instead (ajv's own "must NOT have additional properties" names neither the field nor a fix).
 */

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, code: { regExp: re2Engine } });
const compiled = new WeakMap<TSchema, ValidateFunction>();

interface SchemaNode {
  readonly type?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
}

/** Optional per-file wording for unknown fields (user settings explain why there is no allow list). */
export type UnknownFieldHint = (segments: readonly PathSegment[], field: string) => string | undefined;

const TYPE_NOUNS: Readonly<Record<string, string>> = {
  string: 'text in double quotes',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list [ … ]',
  object: 'an object { … }',
  null: 'null',
};

function nounOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : 'a number with a fraction';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'boolean') return 'true/false';
  return 'an object';
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

function messageFor(e: ErrorObject, hint: UnknownFieldHint | undefined, segments: readonly PathSegment[]): { path: string; message: string } {
  const path = jsonPath(segments);
  const parent = e.parentSchema as SchemaNode | undefined;
  switch (e.keyword) {
    case 'additionalProperties': {
      const field = String((e.params as { additionalProperty: string }).additionalProperty);
      const allowed = Object.keys(parent?.properties ?? {});
      const custom = hint?.(segments, field);
      const suggestion = closest(field, allowed);
      const message =
        custom ??
        (suggestion
          ? `Unknown field '${field}'. Did you mean '${suggestion}'?`
          : `Unknown field '${field}'. Allowed fields here: ${allowed.join(', ') || 'none'}.`);
      return { path: jsonPath([...segments, field]), message };
    }
    case 'required': {
      const field = String((e.params as { missingProperty: string }).missingProperty);
      const what = parent?.properties?.[field]?.description;
      const example = field === 'version' ? ' Write "version": 1.' : what ? ` Add it: ${what}` : '';
      return { path, message: `Missing required field '${field}'.${example}` };
    }
    case 'type': {
      const expected = String((e.params as { type: string }).type);
      return { path, message: `Expected ${TYPE_NOUNS[expected] ?? expected}, found ${nounOf(e.data)}.` };
    }
    case 'enum': {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
      const suggestion = typeof e.data === 'string' ? closest(e.data, allowed) : undefined;
      return {
        path,
        message: `Must be one of: ${allowed.join(', ')} (found ${describe(e.data)}).${suggestion ? ` Did you mean '${suggestion}'?` : ''}`,
      };
    }
    case 'const':
      return { path, message: `Must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)} (found ${describe(e.data)}).` };
    case 'minimum':
    case 'maximum': {
      const limit = (e.params as { limit: number }).limit;
      return { path, message: `Must be ${e.keyword === 'minimum' ? 'at least' : 'at most'} ${limit} (found ${describe(e.data)}).` };
    }
    case 'minLength':
      return { path, message: 'Must not be empty; remove the entry or write a value.' };
    case 'pattern':
      return { path, message: `${describe(e.data)} is not ${parent?.description ?? `text matching ${String((e.params as { pattern: string }).pattern)}`}.` };
    default:
      return { path, message: `Invalid value: ${e.message ?? e.keyword}.` };
  }
}

/** Validates `data` against a TypeBox schema; [] when it conforms. */
export function schemaProblems(schema: TSchema, data: unknown, hint?: UnknownFieldHint): PolicyProblem[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(data)) return [];
  const errors = validate.errors ?? [];
  // A value of the wrong type also fails its range/length checks; only the type error helps.
  const typeErrorAt = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const problems: PolicyProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword !== 'type' && typeErrorAt.has(e.instancePath)) continue;
    const problem = messageFor(e, hint, pointerSegments(e.instancePath, data));
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}
