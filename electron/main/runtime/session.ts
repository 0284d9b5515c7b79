import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, existsSync, realpathSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { ApprovalBroker } from '../../common/approval';
import type { AuditSink } from '../../common/audit-events';
import type { Lang } from '../../common/i18n';
import type { LedgerIdentity } from '../audit';
import { AuditLedger } from '../audit/writer';
import { builtinTools, Gate, permissionSubjectOf } from '../gate';
import { createFileAccess } from '../host/files';
import { createHttpClient } from '../host/http';
import { createProcessHost, programPathConfinement } from '../host/process';
import { createSshClient, identityFromFile } from '../host/ssh';
import { createSystemInfo } from '../host/system';
import { builtinPolicy, loadPolicyFile, mergePolicies, parseUserSettings, runPolicyTests } from '../policy';
import type { AnyTool } from '../../../tools/kit/define-tool';
import { isInside, isInsideResolved } from '../policy/paths';
import { startAuditUpkeep, type AuditUpkeep } from './audit-upkeep';
import { osUser } from './os-user';
import type { EffectivePolicy, PermissionEnv, Policy, PolicyProblem, UserSettings } from '../policy/types';

/**
 * Assembles one working session — policy, confined file access, audit sink, gate — the same way
 * for the CLI, the desktop app and the tests, so all three exercise the identical core.
 */
/** Largest file ssh.download fetches (not yet a policy setting). */
const SSH_MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;

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

export class SessionError extends Error {
  constructor(
    readonly summary: string,
    readonly problems: readonly PolicyProblem[] = [],
  ) {
    super([summary, ...problems.map((p) => `  ${p.path}: ${p.message}`)].join('\n'));
  }
}

export async function openSession(options: SessionOptions): Promise<Session> {
  const home = homedir();
  const admin = await loadAdminPolicy(options.policyFile, home);
  const user = loadUserSettings(options.userSettingsFile ?? join(options.dataDir, 'settings.json'), home, options.userSettingsFile !== undefined);
  const withWorkspace = applyWorkspace(admin.policy, admin.source, options.workspace);
  const toolRisks = (options.tools ?? builtinTools).map((t) => ({ name: t.name, risk: t.risk }));
  const merged = mergePolicies(withWorkspace, admin.source, user, process.platform, toolRisks);
  if (!merged.ok) throw new SessionError('The user settings would widen the administrator policy.', merged.problems);
  const effective = merged.value;

  const roots = effective.policy.workspaceRoots;
  if (roots.length === 0) throw new SessionError('No workspace folder: pass --workspace DIR or set workspaceRoots in the policy.');
  for (const root of roots) {
    if (!existsSync(root)) throw new SessionError(`The workspace folder ${root} does not exist. Create it or pass another --workspace.`);
  }

  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const realDataDir = realpathSync(dataDir);
  for (const root of roots.map((r) => realpathSync(r))) {
    if (isInside(realDataDir, root, process.platform)) throw new SessionError(`The data folder ${dataDir} must not lie inside the workspace ${root}: tools could reach the audit log.`);
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
  const files = await createFileAccess({ roots: [...roots], trashDir: join(realDataDir, 'trash'), protectedPaths, home });
  const permissionEnv: PermissionEnv = { roots: files.roots, home, platform: process.platform, protectedPaths };

  // A policy whose own examples fail does not load (SPEC §8). They are the admin's examples, so they
  // run against the admin policy alone: a user's legitimate tightening must not stop the session.
  const adminOnly = mergePolicies(withWorkspace, admin.source);
  if (!adminOnly.ok) throw new SessionError('The policy cannot be applied.', adminOnly.problems);
  const testProblems = await runPolicyTests(adminOnly.value, permissionEnv, (tool, args) => permissionSubjectOf(tool, args, options.tools));
  if (testProblems.length > 0) throw new SessionError('The policy\'s own tests fail.', testProblems);

  const sessionId = randomUUID();
  const identity: LedgerIdentity = { sessionId, osUser: osUser(), appUser: options.appUser ?? osUser(), hostId: hostIdOf(hostname()) };
  const ledger = options.audit ? undefined : AuditLedger.open(auditDir(realDataDir), identity);
  const audit: AuditSink = options.audit ?? (ledger as AuditLedger);
  // A session that creates the ledger drops its verification key: only `baram audit init` shows it
  // (docs/2026-12-03-audit-on-node-crypto.md), never a call's stderr or an app's log.
  ledger?.takeInitialKey();
  const system = createSystemInfo(files.roots);
  const http = createHttpClient({ allow: effective.policy.http.allow });
  const ssh = createSshClient({
    hosts: effective.policy.ssh.hosts,
    identityFor: async (_name, host) => (host.identityFile ? identityFromFile(host.identityFile) : null),
    maxCaptureBytes: effective.policy.shell.maxCaptureBytes,
    maxDownloadBytes: SSH_MAX_DOWNLOAD_BYTES,
  });
  // Path arguments of program grammars and git repositories are held to the file tools' confinement
  // and to the deny rules a filesystem.read of them would meet.
  const processes = createProcessHost({ shell: effective.policy.shell, paths: programPathConfinement(files, effective, permissionEnv) });
  const gate = new Gate({
    tools: options.tools,
    policy: effective,
    permissionEnv,
    capabilities: { files, system, http, ssh, processes },
    audit,
    broker: options.broker,
    lang: options.lang,
  });
  let upkeep: AuditUpkeep | undefined;
  let closed = false;
  try {
    await gate.start({ policySource: admin.source, policyFile: options.policyFile ?? null });
    if (ledger) upkeep = await startAuditUpkeep(ledger, identity.hostId, effective.policy.audit.retentionDays);
  } catch (error) {
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
        // Background tasks die with the session (SPEC S-SHELL), before the stop is recorded.
        await processes.closeAll();
        await gate.stop();
      } finally {
        await audit.close();
      }
    },
  };
}

async function loadAdminPolicy(file: string | undefined, home: string): Promise<{ policy: Policy; source: 'admin' | 'builtin' }> {
  if (!file) return { policy: builtinPolicy(home), source: 'builtin' };
  const loaded = await loadPolicyFile(file);
  if (!loaded.ok) throw new SessionError(`The policy file ${file} has problems.`, loaded.problems);
  return { policy: loaded.value, source: 'admin' };
}

function loadUserSettings(file: string, home: string, required: boolean): UserSettings | undefined {
  if (!existsSync(file)) {
    if (required) throw new SessionError(`The settings file ${file} does not exist.`);
    return undefined;
  }
  const parsed = parseUserSettings(readFileSync(file, 'utf8'), home);
  if (!parsed.ok) throw new SessionError(`The settings file ${file} has problems.`, parsed.problems);
  return parsed.value;
}

/**
 * The workspace flag narrows an admin policy's roots (it must lie inside one of them). With no admin
 * policy there is nothing to narrow, and the workspace simply is the root.
 */
function applyWorkspace(policy: Policy, source: 'admin' | 'builtin', workspace: string | undefined): Policy {
  if (!workspace) return policy;
  const dir = resolve(workspace);
  // As written and after following links: a link inside an allowed folder may point anywhere.
  if (source === 'admin' && policy.workspaceRoots.length > 0 && !policy.workspaceRoots.some((root) => isInsideResolved(dir, root, process.platform))) {
    throw new SessionError(`--workspace ${dir} lies outside the folders the policy allows (${policy.workspaceRoots.join(', ')}), as written or after following its links.`);
  }
  return { ...policy, workspaceRoots: [dir] };
}

/** A stable per-machine id that does not put the host name itself in every record. */
export function hostIdOf(name: string): string {
  return createHash('sha256').update(name).digest('hex').slice(0, 16);
}
