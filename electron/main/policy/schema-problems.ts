import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { closest } from '../../common/did-you-mean';
import { text, type Text } from '../../common/i18n';
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
export type UnknownFieldHint = (segments: readonly PathSegment[], field: string) => Text | undefined;

const TYPE_NOUNS: Readonly<Record<string, Text>> = {
  string: text('큰따옴표로 감싼 문자열', 'text in double quotes'),
  integer: text('정수', 'a whole number'),
  number: text('숫자', 'a number'),
  boolean: text('true 또는 false', 'true or false'),
  array: text('목록 [ … ]', 'a list [ … ]'),
  object: text('객체 { … }', 'an object { … }'),
  null: text('null', 'null'),
};

function nounOf(value: unknown): Text {
  if (value === null) return text('null', 'null');
  if (Array.isArray(value)) return text('목록', 'a list');
  if (typeof value === 'number') return Number.isInteger(value) ? text('정수', 'a whole number') : text('소수', 'a number with a fraction');
  if (typeof value === 'string') return text('문자열', 'text');
  if (typeof value === 'boolean') return text('true/false', 'true/false');
  return text('객체', 'an object');
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

function messageFor(e: ErrorObject, hint: UnknownFieldHint | undefined, segments: readonly PathSegment[]): PolicyProblem {
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
          ? text(`알 수 없는 필드 '${field}'입니다. '${suggestion}'을(를) 말씀하신 건가요?`, `Unknown field '${field}'. Did you mean '${suggestion}'?`)
          : text(
              `알 수 없는 필드 '${field}'입니다. 여기에 쓸 수 있는 필드: ${allowed.join(', ') || '없음'}.`,
              `Unknown field '${field}'. Allowed fields here: ${allowed.join(', ') || 'none'}.`,
            ));
      return { path: jsonPath([...segments, field]), message };
    }
    case 'required': {
      const field = String((e.params as { missingProperty: string }).missingProperty);
      const what = parent?.properties?.[field]?.description;
      // The schema's descriptions are English (they are what editors show); the sentence around them is not.
      const example = field === 'version' ? text(' "version": 1을 쓰세요.', ' Write "version": 1.') : what ? text(` 추가하세요: ${what}`, ` Add it: ${what}`) : text('', '');
      return { path, message: text(`필수 필드 '${field}'이(가) 없습니다.${example.ko}`, `Missing required field '${field}'.${example.en}`) };
    }
    case 'type': {
      const expected = String((e.params as { type: string }).type);
      const want = TYPE_NOUNS[expected] ?? text(expected, expected);
      const found = nounOf(e.data);
      return { path, message: text(`${want.ko}이(가) 와야 하는데 ${found.ko}이(가) 있습니다.`, `Expected ${want.en}, found ${found.en}.`) };
    }
    case 'enum': {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
      const suggestion = typeof e.data === 'string' ? closest(e.data, allowed) : undefined;
      return {
        path,
        message: text(
          `${allowed.join(', ')} 중 하나여야 합니다(지금은 ${describe(e.data)}).${suggestion ? ` '${suggestion}'을(를) 말씀하신 건가요?` : ''}`,
          `Must be one of: ${allowed.join(', ')} (found ${describe(e.data)}).${suggestion ? ` Did you mean '${suggestion}'?` : ''}`,
        ),
      };
    }
    case 'const': {
      const want = JSON.stringify((e.params as { allowedValue: unknown }).allowedValue);
      return { path, message: text(`${want}이어야 합니다(지금은 ${describe(e.data)}).`, `Must be ${want} (found ${describe(e.data)}).`) };
    }
    case 'minimum':
    case 'maximum': {
      const limit = (e.params as { limit: number }).limit;
      const min = e.keyword === 'minimum';
      return {
        path,
        message: text(`${limit} ${min ? '이상' : '이하'}여야 합니다(지금은 ${describe(e.data)}).`, `Must be ${min ? 'at least' : 'at most'} ${limit} (found ${describe(e.data)}).`),
      };
    }
    case 'minLength':
      return { path, message: text('비어 있으면 안 됩니다. 항목을 지우거나 값을 쓰세요.', 'Must not be empty; remove the entry or write a value.') };
    case 'pattern': {
      const what = parent?.description ?? `text matching ${String((e.params as { pattern: string }).pattern)}`;
      return { path, message: text(`${describe(e.data)}은(는) 올바른 형식이 아닙니다. 필요한 것: ${what}.`, `${describe(e.data)} is not ${what}.`) };
    }
    default:
      return { path, message: text(`잘못된 값입니다: ${e.message ?? e.keyword}.`, `Invalid value: ${e.message ?? e.keyword}.`) };
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
    const key = `${problem.path}\u0000${problem.message.en}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}
