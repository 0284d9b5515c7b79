import type { Lang } from '../../common/i18n';
import { text } from '../../common/i18n';
import { normalizeNulls } from '../../common/normalize';
import type { AnyTool, PlanContext, ToolPolicyView } from '../../../tools/kit/define-tool';
import type { CallProbe } from '../policy';
import type { ShellPolicy } from '../policy/types';
import { builtinTools } from './catalog';
import { readOnlyCapabilities, type HostCapabilities } from './scoped-capabilities';
import { SchemaValidator, violationText } from './schema-validator';

/** What a tool may know of the policy: the same view for precheck, plan and execute. */
export function toolPolicyView(shell: ShellPolicy): ToolPolicyView {
  return {
    maxOutputChars: shell.maxOutputChars,
    defaultTimeoutMs: shell.defaultTimeoutMs,
    maxTimeoutMs: shell.maxTimeoutMs,
    denyArgsOf: (command: string) => shell.commands[command]?.denyArgs ?? [],
  };
}

/** The context precheck and plan get: read-only capabilities, never a write, a request or a process. */
export function precheckContext(capabilities: HostCapabilities, shell: ShellPolicy, lang: Lang): PlanContext {
  return { lang, policy: toolPolicyView(shell), ...readOnlyCapabilities(capabilities) };
}

/**
 * The layers after permission for a policy's embedded tests (issue 15, item 10): the tool's schema,
 * then its real precheck with read-only capabilities, exactly as the gate runs them. A precheck that
 * throws lets the call through, as in the gate (G-PRECHECK). An unknown tool passes here: the
 * permission layer has denied it already.
 */
export function callProbe(options: {
  readonly capabilities: HostCapabilities;
  readonly shell: ShellPolicy;
  readonly lang: Lang;
  readonly tools?: readonly AnyTool[] | undefined;
}): CallProbe {
  const tools = options.tools ?? builtinTools;
  // Compiled on first use: most policies test a few tools, and a session start should not pay for all.
  const schemas = new SchemaValidator();
  const compiled = new Set<string>();
  const context = precheckContext(options.capabilities, options.shell, options.lang);
  return async (name, rawArgs) => {
    const tool = tools.find((t) => t.name === name);
    if (!tool) return { kind: 'passes' };
    const args = normalizeNulls(rawArgs) as Record<string, unknown>;
    if (!compiled.has(name)) {
      schemas.register(name, tool.input);
      compiled.add(name);
    }
    const check = schemas.check(name, args);
    if (check.violations.length > 0) {
      const why = violationText(check.violations).replace(/\n/g, ' ');
      return { kind: 'invalid', message: text(why, why) };
    }
    if (!tool.precheck) return { kind: 'passes' };
    try {
      const refusal = await tool.precheck(args, context);
      return refusal ? { kind: 'refused', message: refusal.failure } : { kind: 'passes' };
    } catch {
      return { kind: 'passes' };
    }
  };
}
