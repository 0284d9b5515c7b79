import type { AnyTool } from '../../../tools/kit/define-tool';
import { admitExternalSchema, type ExternalSchemaViolation } from '../policy/external-schema';
import { SchemaValidator } from './schema-validator';
import { toolsetDigest } from './toolset';

/**
 * The tools in force, which can change while a session runs: MCP servers come and go (SPEC
 * X-SCHEMA). Every tool has a source, which decides its schema-validation mode (built-in tools
 * ENFORCE, external ones WARN by default). The gate records the toolset digest again whenever the
 * set changes, so the ledger always says which tools a call could reach.
 */
export type ToolSource = 'builtin' | `mcp:${string}`;

export interface RegisteredTool {
  readonly tool: AnyTool;
  readonly source: ToolSource;
}

/** Built-in names are `family.action` (defineTool checks that); an MCP server's are `mcp.<server>.<tool>`. */
const MCP_NAME = /^mcp\.[a-z0-9][a-z0-9_-]{0,31}\.[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** An external tool whose input schema broke X-SCHEMA: only this tool is refused, never its server. */
export class ExternalSchemaRefused extends Error {
  constructor(
    readonly toolName: string,
    readonly violations: readonly ExternalSchemaViolation[],
  ) {
    super(`The input schema of ${toolName} was refused: ${violations.map((v) => `${v.path || '(root)'}: ${v.message}`).join('; ')}`);
    this.name = 'ExternalSchemaRefused';
  }
}

export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  readonly schemas = new SchemaValidator();
  private digest: string | undefined;

  constructor(builtin: readonly AnyTool[]) {
    for (const tool of builtin) this.add(tool, 'builtin');
  }

  /**
   * Compiles the schema first: a tool whose schema does not compile is not added. A schema from
   * any source but `builtin` must pass admitExternalSchema (SPEC X-SCHEMA) here, whatever path
   * brought it in, and is validated as the copy that was checked; a refusal throws
   * ExternalSchemaRefused for this one tool.
   */
  add(tool: AnyTool, source: ToolSource): void {
    if (this.tools.has(tool.name)) throw new Error(`Duplicate tool name ${tool.name}`);
    if (source === 'builtin') {
      this.schemas.register(tool.name, tool.input);
    } else {
      const server = source.slice('mcp:'.length);
      if (!MCP_NAME.test(tool.name) || !tool.name.startsWith(`mcp.${server}.`)) {
        throw new Error(`An external tool of ${source} must be named mcp.${server}.<tool>: ${tool.name}`);
      }
      const admitted = admitExternalSchema(tool.input, 'en');
      if (!admitted.ok) throw new ExternalSchemaRefused(tool.name, admitted.violations);
      this.schemas.register(tool.name, admitted.schema, admitted.dialect);
    }
    this.tools.set(tool.name, { tool, source });
    this.digest = undefined;
  }

  remove(name: string): boolean {
    if (!this.tools.delete(name)) return false;
    this.schemas.unregister(name);
    this.digest = undefined;
    return true;
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  list(): AnyTool[] {
    return [...this.tools.values()].map((r) => r.tool);
  }

  sourceOf(name: string): ToolSource | undefined {
    return this.tools.get(name)?.source;
  }

  /** Names, schemas, risks and sources of every tool, plus the frozen file digests (F-FROZEN). */
  toolsetDigest(): string {
    return (this.digest ??= toolsetDigest(this.list(), (name) => this.sourceOf(name) ?? 'builtin'));
  }
}
