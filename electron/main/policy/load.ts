import { homedir } from 'node:os';
import { RISKS } from '../../common/domain';
import { text, type Text } from '../../common/i18n';
import { absoluteDir, dirListProblems, ruleProblems } from './checks';
import {
  byRisk,
  DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  DEFAULT_DECISIONS,
  DEFAULT_RETENTION_DAYS,
  defaultShell,
  denyArgsFor,
} from './defaults';
import { readPolicyText } from './file-text';
import { jsonPath } from './json-path';
import { adminModelPolicy, checkModelSection } from './model-sources';
import { checkMcpSection } from './mcp-section';
import { parseJsonc } from './jsonc';
import { schemaProblems } from './schema-problems';
import { PolicyFileSchema, type PolicyFile } from './schema';
import { urlAmbiguity } from './url-shape';
import type { McpPolicy, ModelPolicy, Policy, PolicyLoad, PolicyProblem, SshHostPolicy } from './types';

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

function commandNameProblem(name: string): Text | undefined {
  if (name.trim() === '') return text('명령 이름이 비어 있습니다. 프로그램 이름을 쓰세요.', 'A command name cannot be empty.');
  if (/[\\/]/.test(name)) {
    return text(
      `경로 없이 프로그램 이름만 쓰세요(예: '${name}'이 아니라 'git'). 프로그램은 shell.trustedDirs에서만 찾습니다.`,
      `Write the program's bare name (e.g. 'git', not '${name}'); programs are found only in shell.trustedDirs.`,
    );
  }
  if (/\s/.test(name)) {
    return text(`'${name}'에 공백이 있습니다. 프로그램 이름만 쓰고, 인수는 규칙이나 tests에 쓰세요.`, `'${name}' contains a space; write only the program name and put arguments in rules or tests.`);
  }
  return undefined;
}

const PREFIX_EXAMPLE = "'http://intranet.example/wiki/'";

function httpPrefixProblem(prefix: string): Text | undefined {
  let url: URL;
  try {
    url = new URL(prefix);
  } catch {
    return text(`'${prefix}'은(는) URL이 아닙니다. ${PREFIX_EXAMPLE}처럼 전체 주소를 쓰세요.`, `'${prefix}' is not a URL. Write a full prefix such as ${PREFIX_EXAMPLE}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return text(`'${prefix}'은(는) http:// 또는 https://로 시작해야 합니다.`, `'${prefix}' must start with http:// or https://.`);
  if (url.username || url.password) {
    return text(`'${prefix}'에 사용자 이름이나 비밀번호가 있습니다. 지우세요(정책에 자격 증명을 쓰면 안 됩니다).`, `'${prefix}' contains a user name or password; remove it (credentials do not belong in a policy).`);
  }
  if (url.search || url.hash) {
    return text(`'${prefix}'에 ?나 #가 있습니다. 주소 앞부분은 경로에서 끝나야 합니다. 예: ${PREFIX_EXAMPLE}.`, `'${prefix}' has a query or fragment; a prefix ends at the path, e.g. ${PREFIX_EXAMPLE}.`);
  }
  const ambiguity = urlAmbiguity(url, prefix);
  if (ambiguity) {
    return text(
      `'${prefix}'의 경로에 있는 '${ambiguity.piece}'을(를) 서버가 다른 위치로 읽을 수 있습니다(인코딩된 '/', '\\', '.', ';' 경로 매개변수, 이중·잘못된 인코딩). 경로를 평범한 문자로 쓰세요. 예: ${PREFIX_EXAMPLE}.`,
      `'${prefix}' has '${ambiguity.piece}' in its path, which servers may read as another location (an encoded '/', '\\' or '.', ';' path parameters, double or invalid encoding). Write the path with plain characters, e.g. ${PREFIX_EXAMPLE}.`,
    );
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
      message: text(
        `shell.defaultTimeoutMs(${defaultTimeout})가 shell.maxTimeoutMs(${maxTimeout})보다 큽니다. 기본값을 최댓값 이하로 하세요.`,
        `shell.defaultTimeoutMs (${defaultTimeout}) is larger than shell.maxTimeoutMs (${maxTimeout}); make the default at most the maximum.`,
      ),
    });
  }
  (file.http?.allow ?? []).forEach((prefix, i) => {
    const message = httpPrefixProblem(prefix);
    if (message) problems.push({ path: jsonPath(['http', 'allow', i]), message });
  });
  if (knownTools) {
    (file.tests ?? []).forEach((t, i) => {
      if (!knownTools.includes(t.tool)) {
        problems.push({ path: jsonPath(['tests', i, 'tool']), message: text(`'${t.tool}'라는 도구는 없습니다. 'baram tools'에 나오는 이름을 쓰세요.`, `No tool is named '${t.tool}'. Use a name from 'baram tools'.`) });
      }
    });
  }
  for (const [name, host] of Object.entries(file.ssh?.hosts ?? {})) {
    if (host.identityFile === undefined) continue;
    const check = absoluteDir(host.identityFile, home, platform, 'file');
    if (!check.ok) problems.push({ path: jsonPath(['ssh', 'hosts', name, 'identityFile']), message: check.message });
  }
  if (file.browser?.executablePath !== undefined) {
    const check = absoluteDir(file.browser.executablePath, home, platform, 'file');
    if (!check.ok) problems.push({ path: jsonPath(['browser', 'executablePath']), message: check.message });
  }
  const model = file.model ? checkModelSection(file.model, home, platform) : undefined;
  problems.push(...(model?.problems ?? []));
  const mcp = checkMcpSection(file.mcp, home, platform);
  problems.push(...mcp.problems);
  return { problems, roots: roots.dirs, trustedDirs: trusted.dirs, model: adminModelPolicy(model?.model), ...(mcp.mcp ? { mcp: mcp.mcp } : {}) };
}

function fill(file: PolicyFile, checked: { roots: string[]; trustedDirs: string[]; model: ModelPolicy; mcp?: McpPolicy }, home: string, platform: NodeJS.Platform): Policy {
  const { roots, trustedDirs } = checked;
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
    // Only when the file has the section: policies without one keep the digest they had.
    ...(file.browser ? { browser: browserSectionOf(file.browser.executablePath, home, platform) } : {}),
    ssh: { hosts },
    schemaValidation: { builtin: file.schemaValidation?.builtin ?? 'enforce', external: file.schemaValidation?.external ?? 'warn' },
    approval: { timeoutSeconds: file.approval?.timeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS },
    audit: { retentionDays: file.audit?.retentionDays ?? DEFAULT_RETENTION_DAYS },
    tests: (file.tests ?? []).map((t) => ({ tool: t.tool, args: t.args ?? {}, expect: t.expect })),
    model: checked.model,
    // Only when the file has the section: policies without one keep the digest they had.
    ...(checked.mcp ? { mcp: checked.mcp } : {}),
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
  return { ok: true, value: fill(file, checked, home, platform) };
}

export async function loadPolicyFile(file: string, home: string = homedir(), options: PolicyLoadOptions = {}): Promise<PolicyLoad<Policy>> {
  const read = await readPolicyText(file, 'policy');
  return read.ok ? parsePolicyText(read.value, home, options) : read;
}

/** The browser program's absolute form; semanticProblems has already refused one that is not absolute. */
function browserSectionOf(raw: string | undefined, home: string, platform: NodeJS.Platform): { executablePath?: string } {
  if (raw === undefined) return {};
  const check = absoluteDir(raw, home, platform, 'file');
  return check.ok ? { executablePath: check.path } : {};
}

/** The key file's absolute form; semanticProblems has already refused one that is not absolute. */
function identityFileOf(raw: string | undefined, home: string, platform: NodeJS.Platform): { identityFile?: string } {
  if (raw === undefined) return {};
  const check = absoluteDir(raw, home, platform, 'file');
  return check.ok ? { identityFile: check.path } : {};
}
