import { statSync } from 'node:fs';
import type { ProgramRefusal, ResolvedProgram, RunRequest, StartFailure } from '../../../common/process-capability';
import type { ShellPolicy } from '../../policy/types';
import { refusal, startFailureText } from './messages';
import { pathApiFor } from './program-files';

/** SPEC S-SHELL: "Timeout: default 120 s, max 600 s, min 1 s (clamped)"; the max comes from the policy. */
export const MIN_TIMEOUT_MS = 1000;

export interface RunLimits {
  readonly timeoutMs: number;
  readonly maxCaptureBytes: number;
}

/** Clamps what the caller asked for into what the policy allows (never above it, never unbounded). */
export function runLimits(request: Pick<RunRequest, 'timeoutMs' | 'maxCaptureBytes'>, shell: ShellPolicy): RunLimits {
  const maxTimeout = Math.max(MIN_TIMEOUT_MS, shell.maxTimeoutMs);
  const asked = request.timeoutMs;
  const timeoutMs =
    asked === undefined || !Number.isFinite(asked)
      ? Math.min(Math.max(shell.defaultTimeoutMs, MIN_TIMEOUT_MS), maxTimeout)
      : Math.min(Math.max(Math.round(asked), MIN_TIMEOUT_MS), maxTimeout);
  const cap = request.maxCaptureBytes;
  const maxCaptureBytes =
    cap === undefined || !Number.isFinite(cap) ? shell.maxCaptureBytes : Math.min(Math.max(Math.floor(cap), 0), shell.maxCaptureBytes);
  return { timeoutMs, maxCaptureBytes };
}

/** Arguments go to the OS as they are; only NUL cannot (C strings end there). */
export function argumentProblem(command: string, args: readonly unknown[]): ProgramRefusal | null {
  for (const arg of args) {
    if (typeof arg !== 'string' || arg.includes('\u0000')) return refusal('INVALID_ARGUMENT', command, {});
  }
  return null;
}

/** The working folder: the caller confines it to the workspace; a relative one is a bug. */
export async function cwdProblem(program: ResolvedProgram, cwd: string, platform: NodeJS.Platform): Promise<StartFailure | null> {
  if (!pathApiFor(platform).isAbsolute(cwd)) {
    throw new Error(`ProcessCapability: cwd must be an absolute, confined folder, got ${JSON.stringify(cwd)}`);
  }
  try {
    // Synchronous for the reason given in program-files.ts: one local lookup, not a thread-pool trip.
    if (statSync(cwd).isDirectory()) return null;
  } catch {
    /* reported below */
  }
  return {
    kind: 'failed-to-start',
    program,
    code: 'CWD_NOT_FOUND',
    message: startFailureText(program.command, 'CWD_NOT_FOUND', cwd),
    durationMs: 0,
  };
}
