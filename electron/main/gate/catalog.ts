import type { PermissionSubject, Risk } from '../../common/domain';
import type { Text } from '../../common/i18n';
import { normalizeNulls } from '../../common/normalize';
import type { AnyTool } from '../../../tools/kit/define-tool';
import { builtinTools } from '../../../tools/registry';
import { extractSubject } from './subject';

/** What the CLI, the app and the model layer may know about tools — never their execute. */
export interface ToolInfo {
  readonly name: string;
  readonly family: string;
  readonly risk: Risk;
  readonly concurrency: AnyTool['concurrency'];
  readonly description: Text;
  readonly keywords: readonly string[];
  readonly subjectKind: PermissionSubject['kind'] | null;
  /** JSON Schema of the input, as sent to the model. */
  readonly schema: unknown;
}

export function toolCatalog(tools: readonly AnyTool[] = builtinTools): ToolInfo[] {
  return tools.map((t) => ({
    name: t.name,
    family: t.name.split('.')[0]!,
    risk: t.risk,
    concurrency: t.concurrency,
    description: t.description,
    keywords: t.keywords,
    subjectKind: t.subject?.kind ?? null,
    // JSON round trip drops TypeBox's symbol keys: exactly the JSON Schema a model receives.
    schema: JSON.parse(JSON.stringify(t.input)) as unknown,
  }));
}

/**
 * The permission query a call would produce, without running anything — used to check a policy's
 * embedded `tests` at load (SPEC §8).
 */
export function permissionSubjectOf(
  toolName: string,
  args: Record<string, unknown>,
  tools: readonly AnyTool[] = builtinTools,
): { known: boolean; risk: Risk; subject: PermissionSubject | null } {
  const tool = tools.find((t) => t.name === toolName);
  if (!tool) return { known: false, risk: 'execute', subject: null };
  return { known: true, risk: tool.risk, subject: extractSubject(tool.subject, normalizeNulls(args) as Record<string, unknown>) };
}

export { builtinTools };
