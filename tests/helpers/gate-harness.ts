import { afterEach } from 'vitest';
import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ApprovalBroker, ApprovalDecision, ApprovalRequest } from '../../electron/common/approval';
import type { AuditSink } from '../../electron/common/audit-events';
import type { Lang, Text } from '../../electron/common/i18n';
import type { AnyTool } from '../../tools/kit/define-tool';
import type { CallResult } from '../../electron/main/gate';
import { readLedgerRows } from '../../electron/main/audit';
import { auditDir, openSession, type Session } from '../../electron/main/runtime/session';

/**
 * The real gate on a temp workspace: real policy loading, real host file access, real audit file.
 * Tests drive tools only through `call`, exactly as the model and the CLI do.
 */
export interface TestGateOptions {
  /** Files to create in the workspace: relative path → content. */
  readonly files?: Record<string, string | Uint8Array>;
  /** Admin policy object (written to a temp policy file). Without workspaceRoots, the workspace is the root. */
  readonly policy?: Record<string, unknown>;
  /**
   * Who answers approvals (default 'all'). A function gets each request; its answer names the
   * request (callId, digest) unless it says otherwise itself (tests of a mismatched answer do).
   */
  readonly approve?: 'all' | 'none' | ((request: ApprovalRequest) => TestAnswer | Promise<TestAnswer>);
  readonly lang?: Lang;
  /** Replace the audit sink (e.g. one that fails). */
  readonly audit?: AuditSink;
  /** Replace the built-in tools (gate tests use purpose-made tools). */
  readonly tools?: readonly AnyTool[];
  /** Receives the session's reports (MCP servers), in both languages. */
  readonly onNotice?: (message: Text) => void;
}

export type TestAnswer = Omit<ApprovalDecision, 'callId' | 'digest'> & Partial<Pick<ApprovalDecision, 'callId' | 'digest'>>;

export interface TestGate {
  readonly workspace: string;
  readonly dataDir: string;
  /** Outside both the workspace and the data dir: a place for "secrets" escape tests aim at. */
  readonly outside: string;
  readonly session: Session;
  readonly approvals: ApprovalRequest[];
  call(tool: string, args: unknown, signal?: AbortSignal): Promise<CallResult>;
  /** The audit events written so far (the bodies of the SQLite ledger), in sequence order. */
  auditEvents(): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export async function createTestGate(options: TestGateOptions = {}): Promise<TestGate> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-test-')));
  const workspace = join(base, 'workspace');
  const dataDir = join(base, 'data');
  const outside = join(base, 'outside');
  await mkdir(workspace, { recursive: true });
  await mkdir(outside, { recursive: true });
  for (const [rel, content] of Object.entries(options.files ?? {})) {
    const file = join(workspace, rel);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  let policyFile: string | undefined;
  if (options.policy) {
    policyFile = join(base, 'policy.json');
    await writeFile(policyFile, JSON.stringify({ version: 1, ...options.policy }));
  }
  const approvals: ApprovalRequest[] = [];
  const approve = options.approve ?? 'all';
  const broker: ApprovalBroker | null =
    approve === 'none'
      ? null
      : {
          async request(request) {
            approvals.push(request);
            const answer: TestAnswer = approve === 'all' ? { choice: 'allow-once', approver: 'test' } : await approve(request);
            return { callId: request.callId, digest: request.digest, ...answer };
          },
        };
  const session = await openSession({
    ...(policyFile ? { policyFile } : {}),
    workspace,
    dataDir,
    lang: options.lang ?? 'en',
    broker,
    ...(options.audit ? { audit: options.audit } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
  });
  return {
    workspace,
    dataDir,
    outside,
    session,
    approvals,
    call: (tool, args, signal) => session.gate.call({ tool, args, ...(signal ? { signal } : {}) }),
    async auditEvents() {
      // Separate read-only connections, as an auditor's tool would open the ledger.
      return [...readLedgerRows(auditDir(session.dataDir))].map((row) => JSON.parse(row.body) as Record<string, unknown>);
    },
    async close() {
      try {
        await session.close();
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    },
  };
}

/**
 * One test gate per test: `const open = useTestGate({ files })` in a test file, then
 * `const g = await open({ lang: 'ko' })` inside a test; it is closed after each test.
 */
export function useTestGate(defaults: TestGateOptions = {}): (options?: TestGateOptions) => Promise<TestGate> {
  let current: TestGate | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (options = {}) => (current = await createTestGate({ ...defaults, ...options }));
}
