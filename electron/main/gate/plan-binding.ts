import { createHash } from 'node:crypto';
import { canonicalJson } from '../../common/canonical-json';
import { isFileAccessError, sameFingerprint, type Fingerprint } from '../../common/file-access';
import type { ProcessCapability } from '../../common/process-capability';
import type { Plan, PlannedTarget, ReadOnlyFileAccess } from '../../../tools/kit/define-tool';

/**
 * Binds an approval to what runs (SPEC G-APPROVE). The digest covers the canonical request and
 * the whole plan (targets with their fingerprints, program, destination, preview); the broker's
 * answer must name it. Just before execute the gate takes every target's fingerprint again and
 * resolves the program again: what changed since the human looked is reported and left alone.
 */

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Over the arguments with secrets replaced: the digest is recorded in the ledger, where a digest
 * over a short secret could be brute-forced (audit-args.ts); within one call the input never
 * changes, so binding the approval to the plan loses nothing.
 */
export function approvalDigest(tool: string, redactedArgs: unknown, plan: Plan): string {
  return sha256Hex(
    canonicalJson({
      tool,
      args: redactedArgs,
      targets: plan.targets.map((t) => [t.path, t.to ?? null, t.fingerprint, t.trashId ?? null, t.contains ?? null]),
      program: plan.program ?? null,
      destination: plan.destination ?? null,
      network: plan.network ?? null,
      preview: plan.preview ?? null,
    }),
  );
}

export interface ChangedTarget {
  readonly target: PlannedTarget;
  /** What the gate found instead (null: gone; undefined: it could not be looked at). */
  readonly now: Fingerprint | null | undefined;
}

export interface Rebound {
  /** The plan with only the targets still as approved. */
  readonly plan: Plan;
  readonly changed: readonly ChangedTarget[];
  /** Set when the program is no longer the approved file: nothing may run. */
  readonly programChanged?: string;
}

/** Takes every target's state again (with content where the plan took it) and resolves the program again. */
export async function rebind(plan: Plan, files: ReadOnlyFileAccess, processes: Pick<ProcessCapability, 'resolve'>): Promise<Rebound> {
  const kept: PlannedTarget[] = [];
  const changed: ChangedTarget[] = [];
  for (const target of plan.targets) {
    let now: Fingerprint | null | undefined;
    try {
      const content = target.fingerprint?.sha256 !== undefined;
      now = await files.fingerprint(target.path, content ? { content } : {});
    } catch (e) {
      if (!isFileAccessError(e)) throw e;
      // Moved out of the roots, now protected, unreadable: not what was approved.
      now = undefined;
    }
    if (now !== undefined && sameFingerprint(target.fingerprint, now)) kept.push(target);
    else changed.push({ target, now });
  }
  const rebound: Plan = changed.length === 0 ? plan : { ...plan, targets: kept };
  const programChanged = plan.program ? await programDiffers(plan.program, processes) : undefined;
  return { plan: rebound, changed, ...(programChanged ? { programChanged } : {}) };
}

async function programDiffers(program: NonNullable<Plan['program']>, processes: Pick<ProcessCapability, 'resolve'>): Promise<string | undefined> {
  const now = await processes.resolve(program.command);
  if (now.kind !== 'resolved') return `${program.command}: ${now.message.en}`;
  if (now.realPath !== program.realPath) return `${program.command} now resolves to ${now.realPath}, approved ${program.realPath}`;
  if (now.sha256 !== program.sha256) return `${program.realPath} changed since it was approved (SHA-256 ${now.sha256})`;
  return undefined;
}
