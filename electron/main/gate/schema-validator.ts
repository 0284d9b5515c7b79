import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { SchemaMode } from '../../common/domain';
import { closest } from '../../common/did-you-mean';
import { externalAjv, type SchemaDialect } from '../policy/external-schema-ajv';
import { re2Engine } from '../policy/regexp-engine';

/**
 * Layer 2 of the gate (SPEC G-SCHEMA). Messages are a contract with the model: small models learn
 * from them, so the wording is the same wherever it is produced, names parameters and types only,
 * and echoes a value only for enum violations (the allowed values are public anyway, and the model
 * cannot fix the call without seeing what it sent).
 */
export interface SchemaViolation {
  /** Parameter path as the model knows it: `path`, `args[0]`, `headers.Accept`. */
  readonly parameter: string;
  readonly keyword: string;
  /** One English sentence ending in "The tool was not executed." */
  readonly message: string;
}

export interface SchemaCheck {
  readonly violations: readonly SchemaViolation[];
}

const NOT_EXECUTED = 'The tool was not executed.';

export class SchemaValidator {
  private readonly ajv = new Ajv({ allErrors: true, verbose: true, strict: false, code: { regExp: re2Engine } });
  /** Schemas we did not write, one validator per dialect they declare (admitExternalSchema chose it). */
  private readonly external = new Map<SchemaDialect, Ajv>();
  private readonly compiled = new Map<string, { validate: ValidateFunction; schema: SchemaNode; external?: { ajv: Ajv; schema: object } }>();

  /**
   * Compiles at registration so a broken schema fails at start, not at the first call. `dialect` is
   * given for an admitted external schema only (ToolRegistry.add), never for a built-in one.
   */
  register(toolName: string, schema: object, dialect?: SchemaDialect): void {
    let ajv = this.ajv;
    if (dialect) {
      ajv = this.external.get(dialect) ?? externalAjv(dialect);
      this.external.set(dialect, ajv);
    }
    const validate = ajv.compile(schema);
    this.compiled.set(toolName, { validate, schema: schema as SchemaNode, ...(dialect ? { external: { ajv, schema } } : {}) });
  }

  unregister(toolName: string): void {
    // ajv keeps every schema it compiled; an MCP server whose list changes often re-registers its
    // tools, so an external schema leaves the cache with its tool.
    const external = this.compiled.get(toolName)?.external;
    if (external) external.ajv.removeSchema(external.schema);
    this.compiled.delete(toolName);
  }

  check(toolName: string, args: unknown): SchemaCheck {
    const entry = this.compiled.get(toolName);
    if (!entry) throw new Error(`No schema registered for ${toolName}`);
    if (entry.validate(args)) return { violations: [] };
    const seen = new Set<string>();
    const violations: SchemaViolation[] = [];
    for (const error of entry.validate.errors ?? []) {
      const v = describe(error, entry.schema);
      if (!v || seen.has(v.message)) continue;
      seen.add(v.message);
      violations.push(v);
    }
    return { violations };
  }
}

export function violationText(violations: readonly SchemaViolation[]): string {
  return violations.map((v) => v.message).join('\n');
}

export function modeBlocks(mode: SchemaMode, check: SchemaCheck): boolean {
  return mode === 'enforce' && check.violations.length > 0;
}

function describe(error: ErrorObject, root: SchemaNode): SchemaViolation | null {
  const base = pathToParameter(error.instancePath);
  switch (error.keyword) {
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      const parameter = base ? `${base}.${missing}` : missing;
      const type = typeName(subSchema(root, `${error.instancePath}/${missing}`));
      return { parameter, keyword: 'required', message: `Parameter '${parameter}' is required (${type}). ${NOT_EXECUTED}` };
    }
    case 'type': {
      const expected = String((error.params as { type: string | string[] }).type);
      return { parameter: base, keyword: 'type', message: `Parameter '${base}' must be ${article(expected)}. ${NOT_EXECUTED}` };
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map(String);
      const actual = valueAt(error);
      return {
        parameter: base,
        keyword: 'enum',
        message: `Parameter '${base}' must be one of [${allowed.join(', ')}], but was '${actual}'. ${NOT_EXECUTED}`,
      };
    }
    case 'additionalProperties': {
      const unknown = String((error.params as { additionalProperty: string }).additionalProperty);
      const parameter = base ? `${base}.${unknown}` : unknown;
      const known = Object.keys(propertiesAt(root, error.instancePath));
      const suggestion = closest(unknown, known);
      const hint = suggestion ? `Did you mean '${suggestion}'?` : `Known parameters: ${known.join(', ')}.`;
      return { parameter, keyword: 'additionalProperties', message: `Unknown parameter '${parameter}'. ${hint} ${NOT_EXECUTED}` };
    }
    case 'anyOf':
    case 'oneOf':
      // The branch errors were reported too; the umbrella error adds nothing a model can act on.
      return null;
    default: {
      // Shape rules beyond the four the model commonly breaks (maxLength, pattern, minItems, const…).
      // ajv's own phrase names the rule, never the value.
      const parameter = base || '(arguments)';
      return { parameter, keyword: error.keyword, message: `Parameter '${parameter}' ${error.message ?? 'is invalid'}. ${NOT_EXECUTED}` };
    }
  }
}

function article(type: string): string {
  switch (type) {
    case 'integer':
    case 'object':
    case 'array':
      return `an ${type}`;
    case 'string':
    case 'number':
    case 'boolean':
      return `a ${type}`;
    default:
      return `of type ${type}`;
  }
}

/** '/args/0' → 'args[0]', '/headers/Accept' → 'headers.Accept', '' → ''. */
function pathToParameter(instancePath: string): string {
  if (!instancePath) return '';
  return instancePath
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
}

function subSchema(root: SchemaNode, instancePath: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = root;
  for (const seg of instancePath.split('/').slice(1)) {
    if (!node) return undefined;
    node = /^\d+$/.test(seg) ? node.items : node.properties?.[seg];
  }
  return node;
}

function propertiesAt(root: SchemaNode, instancePath: string): Record<string, SchemaNode> {
  return subSchema(root, instancePath)?.properties ?? {};
}

function typeName(node: SchemaNode | undefined): string {
  if (!node) return 'value';
  if (Array.isArray(node.type)) return node.type.join(' or ');
  if (node.type === 'array' && node.items?.type) return `array of ${String(node.items.type)}`;
  if (node.type) return node.type;
  if (node.anyOf) return node.anyOf.map(typeName).join(' or ');
  return 'value';
}

function valueAt(error: ErrorObject): string {
  const data = (error as ErrorObject & { data?: unknown }).data;
  return typeof data === 'string' ? data : JSON.stringify(data);
}
