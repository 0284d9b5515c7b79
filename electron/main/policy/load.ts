import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { RISKS } from '../../common/domain';
import { absoluteDir, dirListProblems, ruleProblems } from './checks';
import {
  byRisk,
  DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  DEFAULT_DECISIONS,
  DEFAULT_RETENTION_DAYS,
  defaultShell,
  denyArgsFor,
} from './defaults';
import { jsonPath } from './json-path';
import { parseJsonc } from './jsonc';
import { schemaProblems } from './schema-problems';
import { PolicyFileSchema, type PolicyFile } from './schema';
import { urlAmbiguity } from './url-shape';
import type { Policy, PolicyLoad, PolicyProblem, SshHostPolicy } from './types';

/**
 * Reading an administrator policy (SPEC §8): JSONC → schema → checks a schema cannot express →
 * defaults filled and `~` expanded. Each stage reports all its problems at once, each with its
 * JSON path; the later checks need the shape the schema guarantees, so they run once it holds.
 */
export interface PolicyLoadOptions {
  /** Platform whose path rules apply (default: this machine's). */
  readonly platform?: NodeJS.Platform;
  /** Registry tool names; when given, rules and tests naming no tool are problems (a misspelt deny protects nothing). */
  readonly knownTools?: readonly string[];
}

function commandNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'A command name cannot be empty.';
  if (/[\\/]/.test(name)) {
    return `Write the program's bare name (e.g. 'git', not '${name}'); programs are found only in shell.trustedDirs.`;
  }
  if (/\s/.test(name)) return `'${name}' contains a space; write only the program name and put arguments in rules or tests.`;
  return undefined;
}

function httpPrefixProblem(prefix: string): string | undefined {
  let url: URL;
  try {
    url = new URL(prefix);
  } catch {
    return `'${prefix}' is not a URL. Write a full prefix such as 'http://intranet.example/wiki/'.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `'${prefix}' must start with http:// or https://.`;
  if (url.username || url.password) return `'${prefix}' contains a user name or password; remove it (credentials do not belong in a policy).`;
  if (url.search || url.hash) return `'${prefix}' has a query or fragment; a prefix ends at the path, e.g. 'http://intranet.example/wiki/'.`;
  const ambiguity = urlAmbiguity(url, prefix);
  if (ambiguity) {
    return `'${prefix}' has '${ambiguity.piece}' in its path, which servers may read as another location (an encoded '/', '\\' or '.', ';' path parameters, double or invalid encoding). Write the path with plain characters, e.g. 'http://intranet.example/wiki/'.`;
  }
  return undefined;
}

function semanticProblems(file: PolicyFile, home: string, platform: NodeJS.Platform, knownTools: readonly string[] | undefined) {
  const problems: PolicyProblem[] = [];
  problems.push(...ruleProblems({ allow: file.rules?.allow, ask: file.rules?.ask, deny: file.rules?.deny }, ['rules'], knownTools));
  const roots = dirListProblems(file.workspaceRoots, ['workspaceRoots'], home, platform);
  const trusted = dirListProblems(file.shell?.trustedDirs, ['shell', 'trustedDirs'], home, platform);
  problems.push(...roots.problems, ...trusted.problems);
  for (const name of Object.keys(file.shell?.commands ?? {})) {
    const message = commandNameProblem(name);
    if (message) problems.push({ path: jsonPath(['shell', 'commands', name]), message });
  }
  const shell = defaultShell(platform);
  const defaultTimeout = file.shell?.defaultTimeoutMs ?? shell.defaultTimeoutMs;
  const maxTimeout = file.shell?.maxTimeoutMs ?? shell.maxTimeoutMs;
  if (defaultTimeout > maxTimeout) {
    problems.push({
      path: jsonPath(['shell', file.shell?.defaultTimeoutMs === undefined ? 'maxTimeoutMs' : 'defaultTimeoutMs']),
      message: `shell.defaultTimeoutMs (${defaultTimeout}) is larger than shell.maxTimeoutMs (${maxTimeout}); make the default at most the maximum.`,
    });
  }
  (file.http?.allow ?? []).forEach((prefix, i) => {
    const message = httpPrefixProblem(prefix);
    if (message) problems.push({ path: jsonPath(['http', 'allow', i]), message });
  });
  if (knownTools) {
    (file.tests ?? []).forEach((t, i) => {
      if (!knownTools.includes(t.tool)) problems.push({ path: jsonPath(['tests', i, 'tool']), message: `No tool is named '${t.tool}'. Use a name from 'baram tools'.` });
    });
  }
  for (const [name, host] of Object.entries(file.ssh?.hosts ?? {})) {
    if (host.identityFile === undefined) continue;
    const check = absoluteDir(host.identityFile, home, platform);
    if (!check.ok) problems.push({ path: jsonPath(['ssh', 'hosts', name, 'identityFile']), message: check.message.replace('folder', 'file') });
  }
  return { problems, roots: roots.dirs, trustedDirs: trusted.dirs };
}

function fill(file: PolicyFile, roots: string[], trustedDirs: string[], home: string, platform: NodeJS.Platform): Policy {
  const shell = defaultShell(platform);
  const commands = Object.fromEntries(
    Object.entries(file.shell?.commands ?? {}).map(([name, c]) => [name, { denyArgs: denyArgsFor(name, c.denyArgs ?? []) }]),
  );
  const hosts = Object.fromEntries(
    Object.entries(file.ssh?.hosts ?? {}).map(([name, h]): [string, SshHostPolicy] => [
      name,
      {
        address: h.address ?? name,
        port: h.port ?? 22,
        user: h.user,
        hostKey: h.hostKey,
        commands: h.commands ?? [],
        ...identityFileOf(h.identityFile, home, platform),
      },
    ]),
  );
  const explicitDefaults = RISKS.filter((r) => file.defaults?.[r] !== undefined);
  return {
    version: 1,
    workspaceRoots: roots,
    defaults: byRisk((r) => file.defaults?.[r] ?? DEFAULT_DECISIONS[r]),
    rules: { allow: file.rules?.allow ?? [], ask: file.rules?.ask ?? [], deny: file.rules?.deny ?? [] },
    shell: {
      commands,
      trustedDirs: file.shell?.trustedDirs ? trustedDirs : shell.trustedDirs,
      env: file.shell?.env ?? shell.env,
      defaultTimeoutMs: file.shell?.defaultTimeoutMs ?? shell.defaultTimeoutMs,
      maxTimeoutMs: file.shell?.maxTimeoutMs ?? shell.maxTimeoutMs,
      maxOutputChars: file.shell?.maxOutputChars ?? shell.maxOutputChars,
      maxCaptureBytes: file.shell?.maxCaptureBytes ?? shell.maxCaptureBytes,
    },
    http: { allow: file.http?.allow ?? [] },
    ssh: { hosts },
    schemaValidation: { builtin: file.schemaValidation?.builtin ?? 'enforce', external: file.schemaValidation?.external ?? 'warn' },
    approval: { timeoutSeconds: file.approval?.timeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS },
    audit: { retentionDays: file.audit?.retentionDays ?? DEFAULT_RETENTION_DAYS },
    tests: (file.tests ?? []).map((t) => ({ tool: t.tool, args: t.args ?? {}, expect: t.expect })),
    explicitDefaults,
  };
}

export function parsePolicyText(text: string, home: string, options: PolicyLoadOptions = {}): PolicyLoad<Policy> {
  const platform = options.platform ?? process.platform;
  const parsed = parseJsonc(text);
  if (!parsed.ok) return parsed;
  const schema = schemaProblems(PolicyFileSchema, parsed.value);
  if (schema.length > 0) return { ok: false, problems: schema };
  const file = parsed.value as PolicyFile;
  const checked = semanticProblems(file, home, platform, options.knownTools);
  if (checked.problems.length > 0) return { ok: false, problems: checked.problems };
  return { ok: true, value: fill(file, checked.roots, checked.trustedDirs, home, platform) };
}

export async function loadPolicyFile(file: string, home: string = homedir(), options: PolicyLoadOptions = {}): Promise<PolicyLoad<Policy>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code;
    return { ok: false, problems: [{ path: '$', message: `Cannot read the policy file ${file} (${why}). Check the path, or pass --policy FILE.` }] };
  }
  return parsePolicyText(text, home, options);
}

/** The key file's absolute form; semanticProblems has already refused one that is not absolute. */
function identityFileOf(raw: string | undefined, home: string, platform: NodeJS.Platform): { identityFile?: string } {
  if (raw === undefined) return {};
  const check = absoluteDir(raw, home, platform);
  return check.ok ? { identityFile: check.path } : {};
}
