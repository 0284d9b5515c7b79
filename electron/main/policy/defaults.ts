import type { Decision, Risk } from '../../common/domain';
import { expandHome, pathApi } from './paths';
import type { ModelPolicy, Policy, ShellPolicy } from './types';

/**
 * Built-in defaults (SPEC §8, G-PERM, S-SHELL). Used for every field a policy file leaves out and,
 * when there is no policy file at all, as the whole policy.
 */

/** Reading inside the workspace is what the assistant is for; everything that changes or reaches out asks. */
export const DEFAULT_DECISIONS: Readonly<Record<Risk, Decision>> = {
  read: 'allow',
  write: 'ask',
  destructive: 'ask',
  execute: 'ask',
  network: 'ask',
};

/**
 * Flags that turn a whitelisted read-only program into one that runs code or writes files
 * (SPEC S-SHELL). Always added to the program's denyArgs, whatever the file says: an administrator
 * listing `"git": {"denyArgs": ["--no-pager"]}` means "also", not "instead".
 */
export const BUILTIN_DENY_ARGS: Readonly<Record<string, readonly string[]>> = {
  git: ['-c', '--config-env', '--exec-path', '--ext-diff', '--upload-pack', '--output'],
  find: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'],
  curl: ['-o', '--output', '-O', '--remote-name', '-K', '--config'],
};

/** A record over every risk, spelled out so a new Risk does not compile until handled here. */
export function byRisk<T>(f: (risk: Risk) => T): Record<Risk, T> {
  return { read: f('read'), write: f('write'), destructive: f('destructive'), execute: f('execute'), network: f('network') };
}

export const DEFAULT_WORKSPACE_ROOT = '~/Documents/Baram';

/**
 * Variables a program needs to run and speak the user's language; anything else (tokens, proxies)
 * stays out of child processes.
 */
const DEFAULT_ENV = ['PATH', 'HOME', 'USERPROFILE', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TEMP', 'TMP', 'SystemRoot'];

/** Programs are resolved only here, never from the working directory. */
export function defaultTrustedDirs(platform: NodeJS.Platform): string[] {
  return platform === 'win32' ? ['C:\\Windows\\System32', 'C:\\Program Files\\Git\\cmd'] : ['/usr/bin', '/bin'];
}

export function defaultShell(platform: NodeJS.Platform): ShellPolicy {
  return {
    commands: {},
    trustedDirs: defaultTrustedDirs(platform),
    env: DEFAULT_ENV,
    defaultTimeoutMs: 120_000,
    maxTimeoutMs: 600_000,
    maxOutputChars: 30_000,
    maxCaptureBytes: 10 * 1024 * 1024,
  };
}

export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 300;
/** Two years (SPEC §3 retention). */
export const DEFAULT_RETENTION_DAYS = 730;

export function denyArgsFor(command: string, configured: readonly string[]): string[] {
  return [...new Set([...(BUILTIN_DENY_ARGS[command] ?? []), ...configured])];
}

/** The policy in force when no administrator policy file exists. */
/**
 * No `model` section: model servers on this computer only (any port), and no GGUF file until the
 * administrator lists one (docs/2026-12-03-model-policy.md).
 */
export const DEFAULT_MODEL_POLICY: ModelPolicy = { endpoints: ['loopback'], files: [] };

export function builtinPolicy(home: string, platform: NodeJS.Platform = process.platform): Policy {
  // The SPEC §8 example whitelist: read-only programs an office PC has; git with its dangerous flags denied.
  const commands = Object.fromEntries(['git', 'hostname', 'ping'].map((c) => [c, { denyArgs: denyArgsFor(c, []) }]));
  return {
    version: 1,
    workspaceRoots: [pathApi(platform).normalize(expandHome(DEFAULT_WORKSPACE_ROOT, home, platform))],
    defaults: { ...DEFAULT_DECISIONS },
    rules: { allow: [], ask: [], deny: [] },
    shell: { ...defaultShell(platform), commands },
    http: { allow: [] },
    ssh: { hosts: {} },
    schemaValidation: { builtin: 'enforce', external: 'warn' },
    approval: { timeoutSeconds: DEFAULT_APPROVAL_TIMEOUT_SECONDS },
    audit: { retentionDays: DEFAULT_RETENTION_DAYS },
    tests: [],
    model: DEFAULT_MODEL_POLICY,
  };
}
