import { randomUUID } from 'node:crypto';
import type { ApprovalBroker, ApprovalDecision, ApprovalRequest } from '../../common/approval';
import type { AuditEventInput, AuditSink } from '../../common/audit-events';
import { canonicalJson } from '../../common/canonical-json';
import { ACTION_CLASS_OF_RISK, type Decision, type Outcome, type RuleSource } from '../../common/domain';
import type { FileAccess } from '../../common/file-access';
import type { HttpCapability } from '../../common/http-capability';
import type { ProcessCapability } from '../../common/process-capability';
import type { SshCapability } from '../../common/ssh-capability';
import type { SystemCapability } from '../../common/system-capability';
import { pick, type Lang } from '../../common/i18n';
import { normalizeNulls } from '../../common/normalize';
import { assertNever } from '../../common/assert-never';
import { isFailure, type AnyTool, type Plan, type PlanContext } from '../../../tools/kit/define-tool';
import { evaluatePermission } from '../policy';
import type { EffectivePolicy, PermissionEnv, PermissionVerdict, SessionGrant } from '../policy/types';
import { redactSecretsDeep, sha256Hex } from '../audit';
import { recordedArguments } from './audit-args';
import { builtinTools } from './catalog';
import { closest } from '../../common/did-you-mean';
import { gateMessages } from './messages';
import { renderResult } from './render';
import { approvePlan, runTool, type ExecutionContext } from './run-tool';
import { modeBlocks, SchemaValidator, violationText } from './schema-validator';
import { extractSubject } from './subject';
import { toolsetDigest } from './toolset';

/**
 * The gate (SPEC §2): the one path from a model's tool call to the machine.
 *   normalise → 1 permission → 2 schema → 3 precheck → plan (expand targets) → 4 approval
 *   → execute → render; 5 audit receives an event at every step.
 * Every outcome is a value (G-NOTHROW); every refusal carries a signpost in the session language.
 */

export interface GateOptions {
  /** Defaults to the built-in registry; tests may pass their own (e.g. a tool that throws). */
  readonly tools?: readonly AnyTool[] | undefined;
  readonly policy: EffectivePolicy;
  readonly permissionEnv: PermissionEnv;
  readonly files: FileAccess;
  readonly system: SystemCapability;
  readonly http: HttpCapability;
  readonly ssh: SshCapability;
  readonly processes: ProcessCapability;
  readonly audit: AuditSink;
  /** null = nobody can approve (headless without --approve): every "ask" becomes deny. */
  readonly broker: ApprovalBroker | null;
  readonly lang: Lang;
}

export interface CallRequest {
  readonly tool: string;
  readonly args: unknown;
  readonly signal?: AbortSignal;
}

export interface CallResult {
  readonly outcome: Outcome;
  readonly tool: string;
  /** Exactly what the model sees. */
  readonly text: string;
  /** Sequence number of the last audit event of this call (-1 if nothing could be recorded). */
  readonly auditSeq: number;
  readonly callId: string;
  readonly decision?: { readonly decision: Decision; readonly rule: string; readonly source: RuleSource };
  readonly approval?: { readonly choice: ApprovalDecision['choice']; readonly approver: string; readonly waitedMs: number };
  readonly details?: Readonly<Record<string, unknown>>;
}

export class Gate {
  private readonly tools = new Map<string, AnyTool>();
  private readonly schemas = new SchemaValidator();
  private readonly grants: SessionGrant[] = [];
  readonly toolsetDigest: string;

  constructor(private readonly options: GateOptions) {
    const tools = options.tools ?? builtinTools;
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`Duplicate tool name ${tool.name}`);
      this.tools.set(tool.name, tool);
      this.schemas.register(tool.name, tool.input);
    }
    this.toolsetDigest = toolsetDigest(tools);
  }

  /** Writes the session-start record: which tools and which rules were in force (SPEC F-FROZEN). */
  async start(extra: Record<string, unknown> = {}): Promise<number> {
    return this.options.audit.append({
      type: 'session.start',
      data: {
        toolsetDigest: this.toolsetDigest,
        policyDigest: this.options.policy.digest,
        tools: [...this.tools.keys()],
        roots: this.options.files.roots,
        ...extra,
      },
    });
  }

  async stop(): Promise<number> {
    return this.options.audit.append({ type: 'session.stop', data: { grants: this.grants.length } });
  }

  async call(request: CallRequest): Promise<CallResult> {
    const call = new CallRun(this.options, this.tools, this.schemas, this.grants, request);
    try {
      return await call.run();
    } catch (bug) {
      // The pipeline itself failed: record it if we can and still answer with a value.
      return call.crashed(bug);
    }
  }
}

/** For calls nobody can stop (CLI one-shots, benchmarks): one shared signal, not one per call. */
const NEVER_ABORTED = new AbortController().signal;

/** One tool call's walk through the layers; holds what the audit events share. */
class CallRun {
  private readonly callId = randomUUID();
  private readonly lang: Lang;
  private lastSeq = -1;
  private tool: AnyTool | undefined;
  private decision: CallResult['decision'];
  private approval: CallResult['approval'];

  constructor(
    private readonly options: GateOptions,
    private readonly tools: ReadonlyMap<string, AnyTool>,
    private readonly schemas: SchemaValidator,
    private readonly grants: SessionGrant[],
    private readonly request: CallRequest,
  ) {
    this.lang = options.lang;
  }

  async run(): Promise<CallResult> {
    const { request, options } = this;
    const signal = request.signal ?? NEVER_ABORTED;
    const args = normalizeNulls(request.args);
    const isObject = typeof args === 'object' && args !== null && !Array.isArray(args);
    // Once per call: the proposal record and the approval digest both start from these.
    const redacted = redactSecretsDeep(args);
    await this.record({ type: 'tool.proposed', data: recordedArguments(redacted) });

    // 1. Permission — before schema validation, so an unpermitted tool's schema errors never reveal
    //    that it exists or what it takes (G-ORDER). Unknown tools are denied here too.
    const tool = this.tools.get(request.tool);
    this.tool = tool;
    if (!tool) {
      await this.record({ type: 'permission.decided', decision: 'deny', rule: 'unknown-tool', ruleSource: 'builtin' });
      return this.finish('denied', pick(gateMessages.unknownTool(request.tool, closest(request.tool, [...this.tools.keys()])), this.lang));
    }
    const input = isObject ? (args as Record<string, unknown>) : {};
    const subject = extractSubject(tool.subject, input);
    const verdict = await this.permission(tool, subject);
    await this.recordVerdict(verdict);
    if (verdict.decision === 'deny') return this.finish('denied', this.denyText(verdict));

    // 2. Schema.
    if (!isObject) return this.finish('invalid', pick(gateMessages.argumentsNotObject, this.lang));
    const invalid = await this.validate(tool, input);
    if (invalid) return invalid;

    // 3. Precheck, then the plan: globs expanded so the approval lists every affected file.
    const { shell } = options.policy.policy;
    const context = {
      lang: this.lang,
      files: options.files,
      http: options.http,
      ssh: options.ssh,
      processes: options.processes,
      policy: {
        maxOutputChars: shell.maxOutputChars,
        defaultTimeoutMs: shell.defaultTimeoutMs,
        maxTimeoutMs: shell.maxTimeoutMs,
        denyArgsOf: (command: string) => shell.commands[command]?.denyArgs ?? [],
      },
    };
    const refused = await this.precheck(tool, input, context);
    if (refused) return refused;
    const plan = await this.plan(tool, input, context);
    if (!('targets' in plan)) return plan;
    const finalVerdict = await this.targetPermission(tool, plan, verdict);
    if (finalVerdict !== verdict) {
      await this.recordVerdict(finalVerdict, { scope: 'expanded-targets' });
      if (finalVerdict.decision === 'deny') return this.finish('denied', this.denyText(finalVerdict));
    }
    // Over the arguments with secrets replaced: the digest is recorded in the ledger, where a digest
    // over a short secret could be brute-forced (audit-args.ts); within this call the input never
    // changes, so binding the approval to the plan loses nothing.
    const digest = sha256Hex(
      canonicalJson({
        tool: tool.name,
        args: redacted,
        targets: plan.targets.map((t) => [t.path, t.to ?? null, t.fingerprint]),
        program: plan.program ?? null,
      }),
    );

    // 4. Approval.
    if (finalVerdict.decision === 'ask') {
      const answer = await this.approve(tool, input, plan, finalVerdict, digest, signal);
      if (answer !== 'approved') return answer;
      if (this.approval?.choice === 'allow-session' && subject) {
        this.grants.push({ tool: tool.name, kind: subject.kind, values: verdict.resolved });
      }
    }
    if (signal.aborted) return this.finish('cancelled', pick(gateMessages.cancelled, this.lang));
    // Object.assign, not a spread with added fields: V8's slow path for those cost ≈3 µs here (see event()).
    const executionContext: ExecutionContext = Object.assign({}, context, { signal, system: options.system, http: options.http, ssh: options.ssh, processes: options.processes });
    return this.execute(tool, input, executionContext, plan, digest);
  }

  private async validate(tool: AnyTool, input: Record<string, unknown>): Promise<CallResult | null> {
    const mode = this.options.policy.policy.schemaValidation.builtin;
    const check = mode === 'off' ? { violations: [] } : this.schemas.check(tool.name, input);
    if (check.violations.length === 0) return null;
    await this.record({ type: 'schema.violation', data: { mode, violations: check.violations } });
    return modeBlocks(mode, check) ? this.finish('invalid', this.schemaText(violationText(check.violations))) : null;
  }

  /** A broken precheck must not block work: it is recorded and the call continues (G-PRECHECK). */
  private async precheck(tool: AnyTool, input: Record<string, unknown>, context: PlanContext): Promise<CallResult | null> {
    if (!tool.precheck) return null;
    try {
      const refusal = await tool.precheck(input, context);
      if (!refusal) return null;
      await this.record({ type: 'precheck.refused', data: { message: refusal.failure.en } });
      return this.finish('refused', pick(refusal.failure, this.lang));
    } catch (e) {
      await this.record({ type: 'precheck.failed', data: { error: describeError(e) } });
      return null;
    }
  }

  private async plan(tool: AnyTool, input: Record<string, unknown>, context: PlanContext): Promise<Plan | CallResult> {
    if (!tool.plan) return { targets: [] };
    const planned = await tool.plan(input, context);
    if (!isFailure(planned)) return planned;
    await this.record({ type: 'plan.refused', data: { message: planned.failure.en } });
    return this.finish('refused', pick(planned.failure, this.lang));
  }

  /** The intent row is committed first: record() throws AuditUnavailable and the tool never runs. */
  private async execute(tool: AnyTool, input: Record<string, unknown>, context: ExecutionContext, plan: Plan, digest: string): Promise<CallResult> {
    const targets = plan.targets.map((t) => t.path);
    // The program file that runs (path and SHA-256), on the intent row itself (SPEC S-SHELL).
    await this.record({ type: 'execution.started', target: targets, data: { digest, ...(plan.program ? { program: plan.program } : {}) } });
    const started = performance.now();
    const { result, crash } = await runTool(tool, input, context, approvePlan(plan, digest), gateMessages.toolCrashed);
    const outcome = context.signal.aborted && result.outcome !== 'ok' ? 'cancelled' : result.outcome;
    await this.record({
      type: 'execution.finished',
      outcome,
      target: targets,
      data: {
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        outputChars: result.text.length,
        outputSha256: sha256Hex(result.text),
        ...(result.details ? { details: result.details } : {}),
        ...(crash ? { crash: describeError(crash) } : {}),
      },
    });
    return this.result(outcome, renderResult(result.text, result.marker, this.options.policy.policy.shell.maxOutputChars, this.lang), result.details);
  }

  private async recordVerdict(verdict: PermissionVerdict, data?: Record<string, unknown>): Promise<void> {
    this.decision = { decision: verdict.decision, rule: verdict.rule, source: verdict.source };
    await this.record({
      type: 'permission.decided',
      decision: verdict.decision,
      rule: verdict.rule,
      ruleSource: verdict.source,
      target: verdict.resolved,
      ...(data ? { data } : {}),
    });
  }

  private async permission(tool: AnyTool, subject: ReturnType<typeof extractSubject>): Promise<PermissionVerdict> {
    return evaluatePermission(
      this.options.policy,
      { tool: tool.name, known: true, risk: tool.risk, subject, sessionGrants: this.grants },
      this.options.permissionEnv,
    );
  }

  /**
   * Every expanded target must pass the rules too: `*.xlsx` may expand into a denied folder. Only a
   * deny or an explicit ask rule changes the call-level verdict; a default "ask" was already covered
   * by it (otherwise a session grant for `*.xlsx` would ask again for every new file). Returns the
   * call-level verdict object itself when the targets change nothing.
   */
  private async targetPermission(tool: AnyTool, plan: Plan, callVerdict: PermissionVerdict): Promise<PermissionVerdict> {
    // Targets are file paths whatever the tool's own subject is (filesystem.restore's subject-less
    // trashId still puts a file back at a path that a deny rule may cover).
    if (plan.targets.length === 0) return callVerdict;
    const values = plan.targets.flatMap((t) => (t.to ? [t.path, t.to] : [t.path]));
    const verdict = await evaluatePermission(
      this.options.policy,
      { tool: tool.name, known: true, risk: tool.risk, subject: { kind: 'PATH', values } },
      this.options.permissionEnv,
    );
    const explicitAsk = verdict.decision === 'ask' && !verdict.rule.startsWith('defaults.') && callVerdict.decision === 'allow';
    return verdict.decision === 'deny' || explicitAsk ? verdict : callVerdict;
  }

  private async approve(
    tool: AnyTool,
    input: Record<string, unknown>,
    plan: Plan,
    verdict: PermissionVerdict,
    digest: string,
    signal: AbortSignal,
  ): Promise<'approved' | CallResult> {
    const { broker, policy, files } = this.options;
    const timeoutMs = policy.policy.approval.timeoutSeconds * 1000;
    const request: ApprovalRequest = {
      callId: this.callId,
      tool: tool.name,
      risk: tool.risk,
      summary: tool.summarize(input, plan, { files }),
      args: input,
      targets: plan.targets.map((t) => ({
        path: files.display(t.path),
        ...(t.to ? { to: files.display(t.to) } : {}),
        exists: t.fingerprint !== null,
      })),
      ...(plan.preview !== undefined ? { preview: plan.preview } : {}),
      ...(plan.destination !== undefined ? { destination: plan.destination } : {}),
      rule: verdict.rule,
      ruleSource: verdict.source,
      digest,
      lang: this.lang,
      timeoutMs,
    };
    await this.record({
      type: 'approval.requested',
      data: { digest, summary: request.summary.ko, targetCount: plan.targets.length, rule: verdict.rule },
    });

    const started = performance.now();
    const decision = await askWithTimeout(broker, request, timeoutMs, signal);
    const waitedMs = Math.round(performance.now() - started);
    this.approval = { choice: decision.choice, approver: decision.approver, waitedMs };
    await this.record({
      type: 'approval.decided',
      data: { digest, choice: decision.choice, approver: decision.approver, waitedMs, ...(decision.reason ? { reason: decision.reason } : {}) },
    });
    switch (decision.choice) {
      case 'allow-once':
      case 'allow-session':
        return 'approved';
      case 'deny':
        if (signal.aborted) return this.finish('cancelled', pick(gateMessages.cancelled, this.lang));
        if (decision.approver === 'timeout') return this.finish('denied', pick(gateMessages.approvalTimedOut(timeoutMs / 1000), this.lang));
        if (decision.approver === 'none') return this.finish('denied', pick(gateMessages.noApprover, this.lang));
        return this.finish('denied', pick(gateMessages.deniedByUser(decision.reason), this.lang));
      default:
        return assertNever(decision.choice);
    }
  }

  private denyText(verdict: PermissionVerdict): string {
    return pick(verdict.reason ?? gateMessages.deniedByRule(verdict.rule), this.lang);
  }

  private schemaText(english: string): string {
    return this.lang === 'ko' ? `${english}\n${gateMessages.schemaGloss.ko}` : english;
  }

  /**
   * Object.assign rather than spreads: V8 (Node 20) gives a spread's copy a map that cannot take the
   * added fields through cached transitions (≈3 µs per object with five fields added, 0.2 µs with
   * Object.assign); the four or five events of every call showed up in tests/bench/gate-overhead.bench.ts.
   * The events are the gate's own literals, so no own `__proto__` key can reach Object.assign.
   */
  private event(e: AuditEventInput): AuditEventInput {
    const tool = this.tool;
    const stamped: AuditEventInput = Object.assign({}, e, { callId: this.callId, tool: tool?.name ?? this.request.tool });
    return tool ? Object.assign(stamped, { risk: tool.risk, actionClass: ACTION_CLASS_OF_RISK[tool.risk] }) : stamped;
  }

  /** Records an event. A failure propagates: Gate.call turns it into an `error` and nothing runs. */
  private async record(e: AuditEventInput): Promise<void> {
    try {
      this.lastSeq = await this.options.audit.append(this.event(e));
    } catch (cause) {
      throw new AuditUnavailable(cause);
    }
  }

  private async finish(outcome: Outcome, text: string): Promise<CallResult> {
    await this.record({ type: 'execution.finished', outcome, data: { blocked: true, message: text } });
    return this.result(outcome, text);
  }

  private result(outcome: Outcome, text: string, details?: Readonly<Record<string, unknown>>): CallResult {
    return {
      outcome,
      tool: this.request.tool,
      text,
      auditSeq: this.lastSeq,
      callId: this.callId,
      ...(this.decision ? { decision: this.decision } : {}),
      ...(this.approval ? { approval: this.approval } : {}),
      ...(details ? { details } : {}),
    };
  }

  async crashed(bug: unknown): Promise<CallResult> {
    try {
      await this.record({ type: 'gate.error', outcome: 'error', data: { error: describeError(bug) } });
    } catch {
      /* the ledger is unavailable too; the result below still says the call failed */
    }
    const auditDown = bug instanceof AuditUnavailable;
    return this.result('error', pick(auditDown ? gateMessages.auditUnavailable : gateMessages.toolCrashed, this.lang));
  }
}

/** Approval waits time out to deny (default 5 min); no broker → deny; Stop → deny (cancelled). */
async function askWithTimeout(
  broker: ApprovalBroker | null,
  request: ApprovalRequest,
  timeoutMs: number,
  outer: AbortSignal,
): Promise<ApprovalDecision> {
  if (!broker) return { choice: 'deny', approver: 'none' };
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  outer.addEventListener('abort', onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ApprovalDecision>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ choice: 'deny', approver: 'timeout' });
    }, timeoutMs);
  });
  const cancelled = new Promise<ApprovalDecision>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve({ choice: 'deny', approver: outer.aborted ? 'cancelled' : 'timeout' }), { once: true });
  });
  try {
    const answered = broker.request(request, controller.signal).catch((): ApprovalDecision => ({ choice: 'deny', approver: 'broker-error' }));
    return await Promise.race([answered, timeout, cancelled]);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onOuterAbort);
  }
}


function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** The ledger refused a write; the call ends without running the tool (fail closed). */
class AuditUnavailable extends Error {
  constructor(override readonly cause: unknown) {
    super(`Audit record could not be written: ${describeError(cause)}`);
  }
}

