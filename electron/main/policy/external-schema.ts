import type Ajv from 'ajv';
import { pick, text, type Lang, type Text } from '../../common/i18n';
import { MAX_PATTERN_INPUT_LENGTH, regexBudgetFinding, type RegexRule } from './external-schema-regex';
import { externalAjv, type SchemaDialect } from './external-schema-ajv';
export type { SchemaDialect } from './external-schema-ajv';

/**
 * The one door for a JSON Schema Baram did not write — an MCP server's tools/list, a vendor's tool
 * manifest, a cached copy of either (SPEC X-SCHEMA; the seed ADR-0012's single constructor). The
 * tool registry calls it for every non-built-in tool, so a path that forgets to call it still cannot
 * register an unchecked schema.
 *
 * What it refuses, and why:
 * - a `$ref` (or `$dynamicRef`/`$recursiveRef`) that is not a '#…' pointer into this document: a
 *   validator that follows it fetches an address the schema's author chose (SSRF). Nothing here ever
 *   fetches; ajv gets no `loadSchema`.
 * - a '#…' reference whose target is not a schema this function checked (it could point into an
 *   unknown keyword's value, which ajv would then compile unchecked), and an `$id` below the root
 *   (it moves the base every '#/…' below it is resolved against).
 * - a `$schema` other than draft-07, 2019-09 or 2020-12 (what this ajv implements).
 * - the regex budget (external-schema-regex.ts), `pattern` without `maxLength` ≤ 256, and
 *   `patternProperties` (a key has no place to declare a length).
 *
 * The walk knows JSON Schema's keywords, so a property *named* `pattern` or `$ref` is a name, not a
 * keyword. The schema is copied first (JSON round trip): what was checked is what gets registered
 * (less a root `$id`, see below).
 */

export type ExternalSchemaRule =
  | RegexRule
  | 'not-a-schema'
  | 'too-deep'
  | 'remote-ref'
  | 'ref-target'
  | 'embedded-id'
  | 'unknown-dialect'
  | 'pattern-needs-maxlength'
  | 'pattern-properties'
  | 'schema-does-not-compile';

export interface ExternalSchemaViolation {
  readonly rule: ExternalSchemaRule;
  /** JSON Pointer (RFC 6901) into the schema: '' is the root, '/properties/id/pattern' a keyword. */
  readonly path: string;
  /** Names the rule and says what to write instead, in the requested language. */
  readonly message: string;
  /** The same in both languages, for reports shown in a language other than the session's (window notices). */
  readonly text: Text;
}

export type ExternalSchemaAdmission =
  | { readonly ok: true; readonly schema: Record<string, unknown>; readonly dialect: SchemaDialect }
  | { readonly ok: false; readonly violations: ExternalSchemaViolation[] };

/** Deeper than any real tool input; bounds the walk (and the validator's recursion) on hostile input. */
const MAX_DEPTH = 64;

/** Each dialect's meta-schema id as ajv knows it; what an admitted copy's `$schema` is rewritten to. */
const CANONICAL: Readonly<Record<SchemaDialect, string>> = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};
const DIALECTS: Readonly<Record<string, SchemaDialect>> = {
  'json-schema.org/draft-07/schema': 'draft-07',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft/2020-12/schema': '2020-12',
};

/** http or https, with or without the empty fragment: generators write all four. */
function dialectOf(value: unknown): SchemaDialect | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^https?:\/\/(json-schema\.org\/[^#]*)#?$/.exec(value);
  return match ? DIALECTS[match[1] as string] : undefined;
}

/** MCP (SEP-1613): a tool schema without `$schema` is JSON Schema 2020-12. */
const DEFAULT_DIALECT: SchemaDialect = '2020-12';

const SCHEMA_VALUED = new Set([
  'additionalProperties',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
const SCHEMA_ARRAYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_MAPS = new Set(['properties', 'definitions', '$defs', 'dependentSchemas']);
const REF_KEYWORDS = new Set(['$ref', '$dynamicRef', '$recursiveRef']);

interface Finding {
  readonly rule: ExternalSchemaRule;
  readonly path: string;
  readonly message: Text;
}

interface Walk {
  readonly findings: Finding[];
  /** Pointers of every place the walk checked as a schema: the only places a '#…' ref may go. */
  readonly schemaPointers: Set<string>;
  readonly anchors: Set<string>;
  readonly refs: { path: string; ref: string }[];
  readonly rootDialect: SchemaDialect;
}

export function admitExternalSchema(schema: unknown, lang: Lang = 'ko'): ExternalSchemaAdmission {
  const findings = admissionFindings(schema);
  if (findings.violations.length > 0) {
    return { ok: false, violations: findings.violations.map((f) => {
        const both = text(`[${f.rule}] ${f.message.ko}`, `[${f.rule}] ${f.message.en}`);
        return { rule: f.rule, path: f.path, message: pick(both, lang), text: both };
      }),
    };
  }
  return { ok: true, schema: findings.copy, dialect: findings.dialect };
}

function admissionFindings(schema: unknown): { violations: Finding[]; copy: Record<string, unknown>; dialect: SchemaDialect } {
  const copy = jsonCopy(schema);
  if (copy === undefined || copy === null || typeof copy !== 'object' || Array.isArray(copy)) {
    return {
      violations: [
        {
          rule: 'not-a-schema',
          path: '',
          message: text('입력 스키마는 JSON 객체여야 합니다({"type": "object", …}).', 'An input schema must be a JSON object ({"type": "object", …}).'),
        },
      ],
      copy: {},
      dialect: DEFAULT_DIALECT,
    };
  }
  const root = copy as Record<string, unknown>;
  // Read first: a subschema listed before the root's `$schema` key is judged against it too.
  const walk: Walk = { findings: [], schemaPointers: new Set(), anchors: new Set(), refs: [], rootDialect: dialectOf(root.$schema) ?? DEFAULT_DIALECT };
  walkSchema(root, '', 0, walk);
  checkRefTargets(walk);
  // Every reference left is a '#…' fragment, so the base URI a root $id sets changes nothing; kept,
  // it would register the schema in the validator under a name two tools could share.
  if (typeof root.$id === 'string' && !root.$id.startsWith('#')) delete root.$id;
  if (walk.findings.length === 0) {
    const compileError = compileFinding(root, walk.rootDialect);
    if (compileError) walk.findings.push(compileError);
  }
  return { violations: walk.findings, copy: root, dialect: walk.rootDialect };
}

/** A JSON copy (no getters, functions or cycles survive); undefined when the value is not JSON. */
function jsonCopy(value: unknown): unknown {
  try {
    const serialised = JSON.stringify(value);
    return serialised === undefined ? undefined : JSON.parse(serialised);
  } catch {
    return undefined;
  }
}

function child(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function walkSchema(node: unknown, pointer: string, depth: number, walk: Walk): void {
  if (typeof node === 'boolean') {
    walk.schemaPointers.add(pointer);
    return;
  }
  if (node === null || typeof node !== 'object' || Array.isArray(node)) {
    walk.findings.push({
      rule: 'not-a-schema',
      path: pointer,
      message: text('여기에는 스키마(객체 또는 true/false)가 와야 합니다.', 'A schema (an object, or true/false) belongs here.'),
    });
    return;
  }
  if (depth > MAX_DEPTH) {
    walk.findings.push({
      rule: 'too-deep',
      path: pointer,
      message: text(`스키마가 ${MAX_DEPTH}단계보다 깊습니다. 구조를 얕게 만드세요.`, `The schema nests deeper than ${MAX_DEPTH} levels. Flatten it.`),
    });
    return;
  }
  walk.schemaPointers.add(pointer);
  const obj = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(obj)) {
    const at = child(pointer, key);
    if (key === '$schema') {
      if (checkDialect(value, at, pointer === '', walk)) obj.$schema = CANONICAL[walk.rootDialect];
    }
    else if (REF_KEYWORDS.has(key)) checkRef(value, at, walk);
    else if (key === '$id') checkId(value, at, pointer === '', walk);
    else if ((key === '$anchor' || key === '$dynamicAnchor') && typeof value === 'string') walk.anchors.add(value);
    else if (key === 'pattern' && typeof value === 'string') checkPattern(value, obj, at, pointer, walk);
    else if (key === 'patternProperties') {
      walk.findings.push({
        rule: 'pattern-properties',
        path: at,
        message: text(
          'patternProperties는 쓸 수 없습니다(키에는 길이 상한을 둘 곳이 없습니다). 키를 properties로 나열하거나 배열로 바꾸세요.',
          'patternProperties is refused (a key has no place to declare a length limit). List the keys under properties, or use an array of objects instead.',
        ),
      });
    } else if (SCHEMA_VALUED.has(key)) walkSchema(value, at, depth + 1, walk);
    else if (SCHEMA_ARRAYS.has(key) || (key === 'items' && Array.isArray(value))) {
      if (Array.isArray(value)) value.forEach((item, i) => walkSchema(item, child(at, i), depth + 1, walk));
      else walkSchema(value, at, depth + 1, walk);
    } else if (key === 'items') walkSchema(value, at, depth + 1, walk);
    else if (SCHEMA_MAPS.has(key) || key === 'dependencies') {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue; // ajv's meta-schema check reports it
      for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
        // `dependencies` mixes schemas with lists of property names.
        if (key === 'dependencies' && Array.isArray(sub)) continue;
        walkSchema(sub, child(at, name), depth + 1, walk);
      }
    }
    // Any other key is data (default, enum, examples…) or an annotation ajv does not evaluate.
  }
}

/** True when `value` names the document's dialect (the root's `$schema` sets it). */
function checkDialect(value: unknown, at: string, isRoot: boolean, walk: Walk): boolean {
  const dialect = dialectOf(value);
  if (dialect && (isRoot || dialect === walk.rootDialect)) return true;
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  walk.findings.push({
    rule: 'unknown-dialect',
    path: at,
    message: dialect
      ? text(
          `스키마 안에서 dialect를 바꿀 수 없습니다(${shown}). 문서 전체에 하나의 $schema만 쓰세요.`,
          `A schema may not switch dialect inside the document (${shown}). Use one $schema for the whole document.`,
        )
      : text(
          `알 수 없는 $schema '${shown}'입니다. draft-07, 2019-09, 2020-12 중 하나를 쓰거나 $schema를 빼세요(2020-12로 읽습니다): ${Object.values(CANONICAL).join(', ')}.`,
          `Unknown $schema '${shown}'. Use draft-07, 2019-09 or 2020-12, or leave $schema out (read as 2020-12): ${Object.values(CANONICAL).join(', ')}.`,
        ),
  });
  return false;
}

function checkRef(value: unknown, at: string, walk: Walk): void {
  if (typeof value === 'string' && value.startsWith('#')) {
    walk.refs.push({ path: at, ref: value });
    return;
  }
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  walk.findings.push({
    rule: 'remote-ref',
    path: at,
    message: text(
      `문서 밖을 가리키는 참조 '${shown}'는 거부합니다(바람은 스키마를 가져오지 않습니다). 참조할 스키마를 $defs에 넣고 '#/$defs/…'로 가리키세요.`,
      `The reference '${shown}' leaves the document and is refused (Baram never fetches a schema). Put the referenced schema under $defs and point to it with '#/$defs/…'.`,
    ),
  });
}

function checkId(value: unknown, at: string, isRoot: boolean, walk: Walk): void {
  // draft-07 writes a plain-name anchor as `$id: "#name"`; that names a place, it moves no base.
  if (typeof value === 'string' && value.startsWith('#') && value.length > 1) {
    walk.anchors.add(value.slice(1));
    return;
  }
  if (isRoot) return;
  walk.findings.push({
    rule: 'embedded-id',
    path: at,
    message: text(
      '스키마 안쪽의 $id는 거부합니다(그 아래 참조가 가리키는 곳을 바꿉니다). 이 $id를 지우고 $defs와 \'#/$defs/…\' 참조를 쓰세요.',
      "An $id inside the schema is refused (it changes where the references below it point). Remove this $id and use $defs with '#/$defs/…' references.",
    ),
  });
}

function checkPattern(pattern: string, owner: Record<string, unknown>, at: string, ownerPointer: string, walk: Walk): void {
  const finding = regexBudgetFinding(pattern);
  if (finding) walk.findings.push({ rule: finding.rule, path: at, message: finding.message });
  const maxLength = owner.maxLength;
  if (typeof maxLength === 'number' && Number.isInteger(maxLength) && maxLength >= 0 && maxLength <= MAX_PATTERN_INPUT_LENGTH) return;
  walk.findings.push({
    rule: 'pattern-needs-maxlength',
    path: child(ownerPointer, 'maxLength'),
    message: text(
      `pattern이 있는 문자열에는 ${MAX_PATTERN_INPUT_LENGTH} 이하의 maxLength가 함께 있어야 합니다${maxLength === undefined ? '' : `(지금은 ${JSON.stringify(maxLength)})`}. 같은 곳에 "maxLength": ${MAX_PATTERN_INPUT_LENGTH} 이하를 쓰세요.`,
      `A string with a pattern must declare maxLength of at most ${MAX_PATTERN_INPUT_LENGTH}${maxLength === undefined ? '' : ` (found ${JSON.stringify(maxLength)})`}. Add "maxLength": ${MAX_PATTERN_INPUT_LENGTH} or less next to the pattern.`,
    ),
  });
}

/** RFC 6901 pointer from a '#/…' fragment (which is also URI-encoded). */
function fragmentPointer(ref: string): string | undefined {
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
}

function checkRefTargets(walk: Walk): void {
  for (const { path, ref } of walk.refs) {
    const fragment = ref.slice(1);
    const found = fragment === '' || (fragment.startsWith('/') ? walk.schemaPointers.has(fragmentPointer(ref) ?? '\0') : walk.anchors.has(fragment));
    if (found) continue;
    walk.findings.push({
      rule: 'ref-target',
      path,
      message: text(
        `참조 '${ref}'가 이 문서에서 검사한 스키마를 가리키지 않습니다. $defs 아래의 스키마를 '#/$defs/이름'으로 가리키세요.`,
        `The reference '${ref}' does not point to a schema checked in this document. Point to a schema under $defs with '#/$defs/name'.`,
      ),
    });
  }
}

// One validator per dialect, only to prove the schema compiles before it is registered.
const compilers = new Map<SchemaDialect, Ajv>();

function compileFinding(schema: Record<string, unknown>, dialect: SchemaDialect): Finding | null {
  let ajv = compilers.get(dialect);
  if (!ajv) {
    ajv = externalAjv(dialect);
    compilers.set(dialect, ajv);
  }
  try {
    ajv.compile(schema);
    return null;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      rule: 'schema-does-not-compile',
      path: '',
      message: text(`스키마가 ${dialect} 규칙으로 컴파일되지 않습니다: ${detail}. 스키마를 고치세요.`, `The schema does not compile as ${dialect}: ${detail}. Fix the schema.`),
    };
  } finally {
    ajv.removeSchema(schema);
  }
}
