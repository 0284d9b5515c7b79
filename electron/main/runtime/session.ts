import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, existsSync, realpathSync, statSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { ApprovalBroker } from '../../common/approval';
import type { AuditSink } from '../../common/audit-events';
import { pick, text, type Lang, type Text } from '../../common/i18n';
import type { LedgerIdentity } from '../audit';
import { AuditLedger } from '../audit/writer';
import { builtinTools, Gate } from '../gate';
import { builtinPolicy, loadPolicyFile, mergePolicies, parseUserSettings, readPolicyText, unsafeTrustedDirProblems } from '../policy';
import type { AnyTool } from '../../../tools/kit/define-tool';
import { isInside, isInsideResolved } from '../policy/paths';
import { startAuditUpkeep, type AuditUpkeep } from './audit-upkeep';
import { createHostCapabilities } from './capabilities';
import { DocumentTextCache } from '../host/documents/text-cache';
import { runAdminPolicyTests } from './policy-tests';
import { osUser } from './os-user';
import type { McpServers } from '../mcp';
import type { EffectivePolicy, Policy, PolicyProblem, UserSettings } from '../policy/types';

/**
 * Assembles one working session — policy, confined file access, audit sink, gate — the same way
 * for the CLI, the desktop app and the tests, so all three exercise the identical core.
 */
export interface SessionOptions {
  /** Admin policy file; absent → the built-in default policy. */
  readonly policyFile?: string;
  /** User settings (tighten-only); absent → <dataDir>/settings.json if it exists. */
  readonly userSettingsFile?: string;
  /** The folder to work in. Must lie inside the admin policy's roots when the policy names any. */
  readonly workspace?: string;
  readonly dataDir: string;
  readonly lang: Lang;
  readonly broker: ApprovalBroker | null;
  /** Replace the audit sink (tests that simulate an unwritable ledger). */
  readonly audit?: AuditSink;
  readonly appUser?: string;
  /** Replace the built-in toolset (tests of the gate itself). */
  readonly tools?: readonly AnyTool[];
  /**
   * Replace the cache of documents' extracted texts (default: <dataDir>/cache, opened on first
   * use). Tests pass one to count its extractions; the session closes whichever it uses.
   */
  readonly documentTextCache?: DocumentTextCache;
  /** Heap of each document parse thread (default PARSE_WORKER_HEAP_MB); tests of the memory limit give less. */
  readonly documentHeapMb?: number;
  /** Plain-language reports that are not a call's result: MCP servers started, stopped, restarted, tools refused. */
  readonly onNotice?: (message: Text) => void;
}

/**
 * One working session: open it at start, close it at quit (the desktop app, one CLI call, a test).
 * It hands out the gate and read-only views, never a raw capability: the files, processes and
 * network the tools use are reachable only through the gate (SPEC G-GATE; DESIGN "the only door").
 */
export interface Session {
  readonly gate: Gate;
  readonly policy: EffectivePolicy;
  /** Absolute, realpath'd workspace roots (for display; the file capability itself stays in the gate). */
  readonly roots: readonly string[];
  readonly dataDir: string;
  readonly sessionId: string;
  close(): Promise<void>;
}

/** The audit ledger folder of a data directory: monthly segments, sealing key, checkpoints (docs/2026-12-02-audit-*.md). */
export function auditDir(dataDir: string): string {
  return join(dataDir, 'audit');
}

/** Why a session cannot open, for the administrator or user: in the session language, with what to do. */
export class SessionError extends Error {
  constructor(
    readonly summary: Text,
    readonly problems: readonly PolicyProblem[] = [],
    readonly lang: Lang = 'ko',
  ) {
    super([pick(summary, lang), ...problems.map((p) => `  ${p.path}: ${pick(p.message, lang)}`)].join('\n'));
  }
}

const WIDENING = text('사용자 설정이 관리자 정책을 넓히려 해서 적용할 수 없습니다. 아래 항목을 고치세요.', 'The user settings would widen the administrator policy; fix the entries below.');

export async function openSession(options: SessionOptions): Promise<Session> {
  const home = homedir();
  const { lang } = options;
  const fail = (summary: Text, problems: readonly PolicyProblem[] = []) => new SessionError(summary, problems, lang);
  const admin = await loadAdminPolicy(options.policyFile, home, fail);
  const user = await loadUserSettings(options.userSettingsFile ?? join(options.dataDir, 'settings.json'), home, options.userSettingsFile !== undefined, fail);
  const withWorkspace = applyWorkspace(admin.policy, admin.source, options.workspace, fail);
  const toolRisks = (options.tools ?? builtinTools).map((t) => ({ name: t.name, risk: t.risk }));
  const merged = mergePolicies(withWorkspace, admin.source, user, process.platform, toolRisks);
  if (!merged.ok) {
    throw fail(WIDENING, merged.problems);
  }
  const effective = merged.value;

  const roots = effective.policy.workspaceRoots;
  if (roots.length === 0) {
    throw fail(text('작업 공간 폴더가 없습니다. --workspace DIR을 주거나 정책에 workspaceRoots를 정하세요.', 'No workspace folder: pass --workspace DIR or set workspaceRoots in the policy.'));
  }
  for (const root of roots) {
    if (!existsSync(root)) {
      throw fail(text(`작업 공간 폴더 ${root}이(가) 없습니다. 폴더를 만들거나 다른 --workspace를 주세요.`, `The workspace folder ${root} does not exist. Create it or pass another --workspace.`));
    }
    if (!statSync(root).isDirectory()) {
      throw fail(text(`작업 공간 ${root}은(는) 폴더가 아니라 파일입니다. 그 파일이 든 폴더를 --workspace로 주세요.`, `The workspace ${root} is a file, not a folder. Pass the folder that holds it as --workspace.`));
    }
  }
  // Issue 15, item 11: against the roots in force, which --workspace and user settings may have chosen.
  const unsafe = unsafeTrustedDirProblems(effective.policy.shell.trustedDirs, roots, process.platform);
  if (unsafe.length > 0) throw fail(text('정책의 신뢰 폴더가 안전하지 않아 세션을 열 수 없습니다. 관리자에게 알리세요.', "The policy's trusted folders are not safe, so no session opens. Tell the administrator."), unsafe);

  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const realDataDir = realpathSync(dataDir);
  for (const root of roots.map((r) => realpathSync(r))) {
    if (isInside(realDataDir, root, process.platform)) {
      throw fail(
        text(`데이터 폴더 ${dataDir}이(가) 작업 공간 ${root} 안에 있으면 도구가 감사 기록에 닿을 수 있습니다. 작업 공간 밖의 --data-dir을 주세요.`, `The data folder ${dataDir} must not lie inside the workspace ${root}: tools could reach the audit log. Pass a --data-dir outside the workspace.`),
      );
    }
  }
  // The settings file is protected like the policy file: a tool that could rewrite it would choose
  // the next session's rules (issue 14). The default one lies in the data folder, protected already.
  // As named and where a link leads: a settings path that is a link into the workspace must not
  // leave the real file writable.
  const bothForms = (file: string) => [...new Set([resolve(file), ...(existsSync(file) ? [realpathSync(file)] : [])])];
  const protectedPaths = [
    realDataDir,
    ...(options.policyFile ? bothForms(options.policyFile) : []),
    ...(options.userSettingsFile ? bothForms(options.userSettingsFile) : []),
  ];
  // In the data folder, which protectedPaths covers: no tool reads it, whatever path it names.
  const documentTextCache = options.documentTextCache ?? new DocumentTextCache({ dir: join(realDataDir, 'cache') });
  const { capabilities, permissionEnv } = await createHostCapabilities({ policy: effective, roots, trashDir: join(realDataDir, 'trash'), protectedPaths, home, documentStore: documentTextCache, ...(options.documentHeapMb !== undefined ? { documentHeapMb: options.documentHeapMb } : {}) });
  const { files, processes, browser, documents } = capabilities;

  // A policy whose own examples fail does not load (SPEC §8). They are the admin's examples, so they
  // run against the admin policy alone: a user's legitimate tightening must not stop the session.
  const adminOnly = mergePolicies(withWorkspace, admin.source);
  if (!adminOnly.ok) throw fail(text('정책을 적용할 수 없습니다. 아래 항목을 고치세요.', 'The policy cannot be applied; fix the entries below.'), adminOnly.problems);
  // Warnings (a refusal that depends on this machine) are for `baram policy check`, not a reason to stop.
  const { problems: testProblems } = await runAdminPolicyTests(adminOnly.value, permissionEnv, capabilities, lang, options.tools);
  if (testProblems.length > 0) {
    await processes.closeAll();
    throw fail(text("정책에 적힌 예시(tests)가 맞지 않아 정책을 불러오지 않았습니다. 'baram policy check'로 확인하세요.", "The policy's own tests fail, so it was not loaded. Run 'baram policy check' to see them."), testProblems);
  }

  const sessionId = randomUUID();
  const identity: LedgerIdentity = { sessionId, osUser: osUser(), appUser: options.appUser ?? osUser(), hostId: hostIdOf(hostname()) };
  const ledger = options.audit ? undefined : AuditLedger.open(auditDir(realDataDir), identity);
  const audit: AuditSink = options.audit ?? (ledger as AuditLedger);
  // A session that creates the ledger drops its verification key: only `baram audit init` shows it
  // (docs/2026-12-03-audit-on-node-crypto.md), never a call's stderr or an app's log.
  ledger?.takeInitialKey();
  const gate = new Gate({
    tools: options.tools,
    policy: effective,
    permissionEnv,
    capabilities,
    audit,
    broker: options.broker,
    lang: options.lang,
  });
  let upkeep: AuditUpkeep | undefined;
  let mcp: McpServers | undefined;
  let closed = false;
  try {
    await gate.start({ policySource: admin.source, policyFile: options.policyFile ?? null });
    if (ledger) upkeep = await startAuditUpkeep(ledger, identity.hostId, effective.policy.audit.retentionDays);
    mcp = await startMcp(effective.policy, gate, audit, lang, home, options.onNotice);
  } catch (error) {
    upkeep?.stop();
    await mcp?.close();
    await audit.close();
    throw error;
  }
  return {
    gate,
    policy: effective,
    roots: files.roots,
    dataDir: realDataDir,
    sessionId,
    /** Records the stop and closes the ledger; a stop that cannot be recorded still closes it, then throws. */
    async close() {
      // Closing twice (an app quitting while a test harness also closes) must not log or fail twice.
      if (closed) return;
      closed = true;
      upkeep?.stop();
      try {
        // Background tasks and MCP servers (whole process trees) die with the session, before the stop is recorded.
        await mcp?.close();
        await processes.closeAll();
        await browser.closeAll();
        await documents.close();
        await gate.stop();
      } finally {
        documentTextCache.close();
        await audit.close();
      }
    },
  };
}

type Fail = (summary: Text, problems?: readonly PolicyProblem[]) => SessionError;

/**
 * The administrator's MCP servers (issue 19), only when the policy lists any: the client (and the
 * SDK behind it) is loaded on demand, so a session without servers pays nothing for it.
 */
async function startMcp(policy: Policy, gate: Gate, audit: AuditSink, lang: Lang, home: string, onNotice: ((message: Text) => void) | undefined): Promise<McpServers | undefined> {
  const servers = policy.mcp?.servers ?? {};
  if (Object.keys(servers).length === 0) return undefined;
  const { startMcpServers } = await import('../mcp');
  return startMcpServers({ servers, trustedDirs: policy.shell.trustedDirs, gate, audit, lang, home, ...(onNotice ? { onNotice } : {}) });
}

/**
 * The policy a session would enforce, without opening one (no workspace, no ledger): for commands
 * that only consult it, such as `baram model check` (issue 16: the admin decides which models).
 */
export async function effectivePolicyFor(options: Pick<SessionOptions, 'policyFile' | 'userSettingsFile' | 'dataDir' | 'lang'>): Promise<EffectivePolicy> {
  const home = homedir();
  const fail: Fail = (summary, problems = []) => new SessionError(summary, problems, options.lang);
  const admin = await loadAdminPolicy(options.policyFile, home, fail);
  const user = await loadUserSettings(options.userSettingsFile ?? join(options.dataDir, 'settings.json'), home, options.userSettingsFile !== undefined, fail);
  const merged = mergePolicies(admin.policy, admin.source, user, process.platform, builtinTools.map((t) => ({ name: t.name, risk: t.risk })));
  if (!merged.ok) throw fail(WIDENING, merged.problems);
  return merged.value;
}

async function loadAdminPolicy(file: string | undefined, home: string, fail: Fail): Promise<{ policy: Policy; source: 'admin' | 'builtin' }> {
  if (!file) return { policy: builtinPolicy(home), source: 'builtin' };
  const loaded = await loadPolicyFile(file);
  if (!loaded.ok) throw fail(text(`정책 파일 ${file}에 문제가 있습니다. 관리자에게 알리세요('baram policy check ${file}').`, `The policy file ${file} has problems. Tell the administrator ('baram policy check ${file}').`), loaded.problems);
  return { policy: loaded.value, source: 'admin' };
}

async function loadUserSettings(file: string, home: string, required: boolean, fail: Fail): Promise<UserSettings | undefined> {
  if (!existsSync(file)) {
    if (required) throw fail(text(`설정 파일 ${file}이(가) 없습니다. 경로를 확인하거나 --settings 없이 실행하세요.`, `The settings file ${file} does not exist. Check the path, or run without --settings.`));
    return undefined;
  }
  const read = await readPolicyText(file, 'settings');
  const parsed = read.ok ? parseUserSettings(read.value, home) : read;
  if (!parsed.ok) throw fail(text(`설정 파일 ${file}에 문제가 있습니다. 아래 항목을 고치세요.`, `The settings file ${file} has problems; fix the entries below.`), parsed.problems);
  return parsed.value;
}

/**
 * The workspace flag narrows an admin policy's roots (it must lie inside one of them). With no admin
 * policy there is nothing to narrow, and the workspace simply is the root.
 */
function applyWorkspace(policy: Policy, source: 'admin' | 'builtin', workspace: string | undefined, fail: Fail): Policy {
  if (!workspace) return policy;
  const dir = resolve(workspace);
  // As written and after following links: a link inside an allowed folder may point anywhere.
  if (source === 'admin' && policy.workspaceRoots.length > 0 && !policy.workspaceRoots.some((root) => isInsideResolved(dir, root, process.platform))) {
    const allowed = policy.workspaceRoots.join(', ');
    throw fail(
      text(
        `--workspace ${dir}은(는) 적힌 그대로든 링크를 따라가든 정책이 허용하는 폴더(${allowed}) 밖입니다. 그 안의 폴더를 주세요.`,
        `--workspace ${dir} lies outside the folders the policy allows (${allowed}), as written or after following its links. Choose a folder inside one of them.`,
      ),
    );
  }
  return { ...policy, workspaceRoots: [dir] };
}

/** A stable per-machine id that does not put the host name itself in every record. */
export function hostIdOf(name: string): string {
  return createHash('sha256').update(name).digest('hex').slice(0, 16);
}
