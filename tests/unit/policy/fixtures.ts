import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mergePolicies, parsePolicyText } from '../../../electron/main/policy';
import type { EffectivePolicy, PermissionEnv, PermissionQuery, UserSettings } from '../../../electron/main/policy/types';
import type { Risk } from '../../../electron/common/domain';

/** Builds an effective policy from policy-file fields, failing the test loudly if the file is invalid. */
export function effectiveFrom(fields: Record<string, unknown>, opts: { home?: string; user?: UserSettings; platform?: NodeJS.Platform } = {}): EffectivePolicy {
  const loaded = parsePolicyText(JSON.stringify({ version: 1, ...fields }), opts.home ?? '/home/u', { platform: opts.platform ?? process.platform });
  if (!loaded.ok) throw new Error(`fixture policy invalid: ${JSON.stringify(loaded.problems)}`);
  const merged = mergePolicies(loaded.value, 'admin', opts.user, opts.platform ?? process.platform);
  if (!merged.ok) throw new Error(`fixture merge failed: ${JSON.stringify(merged.problems)}`);
  return merged.value;
}

export function rules(allow: string[] = [], ask: string[] = [], deny: string[] = []): Record<string, unknown> {
  return { rules: { allow, ask, deny } };
}

/** A real temp workspace (realpath'd, as the gate supplies roots) plus a sibling "outside" folder. */
export interface TempWorld {
  readonly base: string;
  readonly ws: string;
  readonly outside: string;
  readonly home: string;
  env(extra?: Partial<PermissionEnv>): PermissionEnv;
  cleanup(): Promise<void>;
}

export async function tempWorld(): Promise<TempWorld> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'baram-policy-')));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  const home = path.join(base, 'home');
  for (const d of [ws, outside, home]) await mkdir(d);
  return {
    base,
    ws,
    outside,
    home,
    env: (extra = {}) => ({ roots: [ws], home, platform: process.platform, protectedPaths: [], ...extra }),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

export function pathQuery(tool: string, values: string[], risk: Risk = 'read', extra: Partial<PermissionQuery> = {}): PermissionQuery {
  return { tool, known: true, risk, subject: { kind: 'PATH', values }, ...extra };
}

export function commandQuery(line: string | string[], extra: Partial<PermissionQuery> = {}): PermissionQuery {
  return { tool: 'shell.execute', known: true, risk: 'execute', subject: { kind: 'COMMAND', values: Array.isArray(line) ? line : [line] }, ...extra };
}

/** A simulated environment for pure-string checks (Windows rules on Linux); nothing on disk is consulted. */
export function fakeEnv(platform: NodeJS.Platform, roots: string[], home: string, protectedPaths: string[] = []): PermissionEnv {
  return { roots, home, platform, protectedPaths };
}

/** Problems with their English message, for assertions written against the English wording. */
export function inEnglish(problems: readonly { path: string; message: { en: string } }[]): { path: string; message: string }[] {
  return problems.map((p) => ({ path: p.path, message: p.message.en }));
}
