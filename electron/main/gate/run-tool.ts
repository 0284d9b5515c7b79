import type { Text } from '../../common/i18n';
import type { ToolResult } from '../../common/tool-result';
import type { AnyTool, ApprovedPlan, Plan, ToolContext } from '../../../tools/kit/define-tool';

/**
 * THE ONLY MODULE THAT CALLS A TOOL'S `execute` (SPEC G-GATE). tests/architecture/gate.test.ts fails
 * the build if any other module calls it, by name or by method reference. Everything that reaches
 * here has passed permission, schema, precheck and approval in gate.ts.
 */

export type ExecutionContext = Omit<ToolContext, 'plan'>;

/** Only the gate brands a plan as approved (DESIGN idiom 7). */
export function approvePlan(plan: Plan, digest: string): ApprovedPlan {
  return Object.assign({}, plan, { digest }) as ApprovedPlan;
}

/**
 * Runs the tool and turns any exception into an `error` value (SPEC G-NOTHROW): a tool bug must cost
 * one call, never the turn or the process.
 */
export async function runTool(
  tool: AnyTool,
  input: Record<string, unknown>,
  ctx: ExecutionContext,
  plan: ApprovedPlan,
  crashText: Text,
): Promise<{ result: ToolResult; crash?: unknown }> {
  try {
    // Object.assign for the reason given at CallRun.event in gate.ts.
    const result = await tool.execute(input, Object.assign({}, ctx, { plan }));
    return { result };
  } catch (crash) {
    return { result: { outcome: 'error', text: ctx.lang === 'en' ? crashText.en : crashText.ko }, crash };
  }
}
