import { randomUUID } from 'node:crypto';
import type { ApprovalBroker, ApprovalDecision, ApprovalRequest } from '../../common/approval';
import type { AuditEventInput, AuditSink } from '../../common/audit-events';
import { ACTION_CLASS_OF_RISK, type Decision, type Outcome, type RuleSource } from '../../common/domain';
import { pick, type Lang } from '../../common/i18n';
import { forbiddenKeyIn, normalizeNulls } from '../../common/normalize';
import { assertNever } from '../../common/assert-never';
import { isFailure, type AnyTool, type Plan, type PlanContext } from '../../../tools/kit/define-tool';
import { compilePathVeto, evaluatePermission, TRANSFER_TREE_LIMIT, TRANSFER_TREE_TOO_LARGE, transferDescendants } from '../policy';
import type { EffectivePolicy, PermissionEnv, PermissionVerdict, SessionGrant } from '../policy/types';
import { redactSecretsDeep, redactSecretsInText } from '../audit';
import { recordedArguments } from './audit-args';
import { precheckContext } from './call-probe';
import { builtinTools, toolCatalog, type ToolInfo } from './catalog';
import { closest } from '../../common/did-you-mean';
import { gateMessages } from './messages';
import { approvalDigest, rebind, sha256Hex, type ChangedTarget } from './plan-binding';
import { renderResult } from './render';
import { ToolRegistry, type ToolSource } from './registry';
import { approvePlan, runTool, type ExecutionContext } from './run-tool';
import { ToolScheduler } from './scheduler';
import { executionCapabilities, readOnlyCapabilities, type HostCapabilities } from './scoped-capabilities';
import { modeBlocks, violationText } from './schema-validator';
import { extractSubject, subjectFieldsReadable } from './subject';

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
  /** The host's capabilities. Tools never see these: the gate hands out read-only and plan-scoped views. */
  readonly capabilities: HostCapabilities;
  readonly audit: AuditSink;
  /** null = nobody can approve (headless without --approve): every "ask" becomes deny. */
  readonly broker: ApprovalBroker | null;
  readonly lang: Lang;
}

export interface CallRequest {
  readonly tool: string;
  readonly args: unknown;
  readonly signal?: AbortSignal;
  /** The user request this call serves (its `request` event's id); recorded on every event of the call. */
  readonly requestId?: string;
  /**
   * Most characters of the result the caller wants (the agent sizes it to the model's context);
   * never above the policy's shell.maxOutputChars.
   */
  readonly outputBudget?: number;
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
  // ECMAScript private fields, not TypeScript's `private`: the registry (whose tools carry execute)
  // and the host capabilities must be unreachable at run time, not only in the types, from whoever
  // holds the gate (the session hands it out).
  readonly #options: GateOptions;
  readonly #registry: ToolRegistry;
  readonly #grants: SessionGrant[] = [];
  readonly #scheduler = new ToolScheduler();

  constructor(options: GateOptions) {
    this.#options = options;
    this.#registry = new ToolRegistry(options.tools ?? builtinTools);
  }

  /** Digest of the tools in force now (changes when tools are added or removed). */
  get toolsetDigest(): string {
    return this.#registry.toolsetDigest();
  }

  /** What the model layer, the CLI and the window may know about the tools — never their execute. */
  tools(): ToolInfo[] {
    return toolCatalog(this.#registry.list());
  }

  /** Writes the session-start record: which tools and which rules were in force (SPEC F-FROZEN). */
  async start(extra: Record<string, unknown> = {}): Promise<number> {
    return this.#options.audit.append({
      type: 'session.start',
      data: {
        toolsetDigest: this.toolsetDigest,
        policyDigest: this.#options.policy.digest,
        tools: this.#registry.names(),
        roots: this.#options.capabilities.files.roots,
        ...extra,
      },
    });
  }

  /** The "allow for this session" grants in force, oldest first (copies: the settings screen lists them). */
  sessionGrants(): SessionGrant[] {
    return this.#grants.map((g) => ({ tool: g.tool, kind: g.kind, values: [...g.values] }));
  }

  /**
   * Withdraws the grants `which` selects; the next such call asks again. In place: every call run
   * holds this same array. The withdrawal holds at once; then it is recorded (who, which grants),
   * so the ledger shows a grant's end as it shows its start (approval.decided, allow-session).
   * Returns how many were withdrawn.
   */
  async revokeSessionGrants(which: (grant: SessionGrant) => boolean, by: string): Promise<number> {
    const removed: SessionGrant[] = [];
    for (let i = this.#grants.length - 1; i >= 0; i--) {
      if (which(this.#grants[i]!)) removed.push(...this.#grants.splice(i, 1));
    }
    if (removed.length > 0) {
      await this.#options.audit.append({
        type: 'session.grant.revoked',
        tool: removed[0]!.tool,
        target: removed.flatMap((g) => g.values),
        data: { by, grants: removed.map((g) => ({ tool: g.tool, kind: g.kind, values: g.values })) },
      });
    }
    return removed.length;
  }

  async stop(): Promise<number> {
    return this.#options.audit.append({ type: 'session.stop', data: { grants: this.#grants.length } });
  }

  /**
   * Adds a tool while the session runs (an MCP server's), and records the new toolset digest first:
   * a tool the ledger does not know of is never callable.
   */
  async addTool(tool: AnyTool, source: ToolSource): Promise<void> {
    this.#registry.add(tool, source);
    try {
      await this.#recordToolset({ added: tool.name, source });
    } catch (e) {
      this.#registry.remove(tool.name);
      throw e;
    }
  }

  async removeTool(name: string): Promise<boolean> {
    const source = this.#registry.sourceOf(name);
    if (!this.#registry.remove(name)) return false;
    await this.#recordToolset({ removed: name, source });
    return true;
  }

  async #recordToolset(change: Record<string, unknown>): Promise<void> {
    await this.#options.audit.append({ type: 'toolset.changed', data: { ...change, toolsetDigest: this.toolsetDigest, tools: this.#registry.names() } });
  }

  /**
   * Records a user's request (SPEC §3: the prompt is a ledger event) before any call it causes;
   * returns the id every call made for it carries. Secrets in the text are redacted here, like
   * arguments, so a password typed into a request never reaches the ledger in clear.
   */
  async recordRequest(prompt: string, data: Readonly<Record<string, unknown>> = {}): Promise<string> {
    const requestId = randomUUID();
    await this.#options.audit.append({ type: 'request', requestId, data: { ...data, text: redactSecretsInText(prompt) } });
    return requestId;
  }

  /** Records how a request ended: answered (`ok`), stopped by the user (`cancelled`), or failed (`error`). */
  async finishRequest(requestId: string, outcome: Extract<Outcome, 'ok' | 'cancelled' | 'error'>, data: Readonly<Record<string, unknown>> = {}): Promise<number> {
    return this.#options.audit.append({ type: 'request.finished', requestId, outcome, data: redactSecretsDeep(data) as Record<string, unknown> });
  }

  async call(request: CallRequest): Promise<CallResult> {
    const call = new CallRun(this.#options, this.#registry, this.#scheduler, this.#grants, request);
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
  /** The tool ran (its intent row is written); past here a failure must not say "not run". */
  private ran: { text: string; outcome: Outcome; details?: Readonly<Record<string, unknown>> } | undefined;

  constructor(
    private readonly options: GateOptions,
    private readonly registry: ToolRegistry,
    private readonly scheduler: ToolScheduler,
    private readonly grants: SessionGrant[],
    private readonly request: CallRequest,
  ) {
    this.lang = options.lang;
  }

  async run(): Promise<CallResult> {
    const { request, options } = this;
    const signal = request.signal ?? NEVER_ABORTED;
    // Refused before anything else reads them (the proposal is recorded with the key renamed):
    // a `__proto__` key would make what runs differ from what the ledger and the approval show.
    const forbidden = forbiddenKeyIn(request.args);
    if (forbidden !== null) {
      await this.record({ type: 'tool.proposed', data: { forbiddenKey: forbidden, args: redactSecretsInText(JSON.stringify(request.args).slice(0, 2_000)) } });
      return this.finish('invalid', pick(gateMessages.forbiddenKey(forbidden), this.lang));
    }
    const args = normalizeNulls(request.args);
    const isObject = typeof args === 'object' && args !== null && !Array.isArray(args);
    // Once per call: the proposal record and the approval digest both start from these.
    const redacted = redactSecretsDeep(args);
    await this.record({ type: 'tool.proposed', data: recordedArguments(redacted) });

    // 1. Permission — before schema validation, so an unpermitted tool's schema errors never reveal
    //    that it exists or what it takes (G-ORDER). Unknown tools are denied here too.
    const registered = this.registry.get(request.tool);
    const tool = registered?.tool;
    this.tool = tool;
    if (!tool || !registered) {
      await this.record({ type: 'permission.decided', decision: 'deny', rule: 'unknown-tool', ruleSource: 'builtin' });
      return this.finish('denied', pick(gateMessages.unknownTool(request.tool, closest(request.tool, this.registry.names())), this.lang));
    }
    const input = isObject ? (args as Record<string, unknown>) : {};
    const external = registered.source !== 'builtin';
    // A subject field missing, misspelled or of the wrong type leaves nothing for a pattern rule to
    // match. Unless the tool is denied outright (G-ORDER: then its schema stays unseen), the
    // schema's message says what is wrong — the did-you-mean a model can act on.
    if (!isObject || !subjectFieldsReadable(tool.subject, tool.input, input)) {
      const outright = await this.permission(tool, null);
      if (outright.decision === 'deny' && outright.rule !== 'evaluation-error') {
        await this.recordVerdict(outright);
        return this.finish('denied', this.denyText(outright));
      }
      if (!isObject) return this.finish('invalid', pick(gateMessages.argumentsNotObject, this.lang));
      const invalid = await this.validate(tool, input, external, true);
      if (invalid) return invalid;
    }
    const subject = extractSubject(tool.subject, input);
    const verdict = await this.permission(tool, subject);
    await this.recordVerdict(verdict);
    if (verdict.decision === 'deny') return this.finish('denied', this.denyText(verdict));

    // 2. Schema.
    const invalid = await this.validate(tool, input, external);
    if (invalid) return invalid;

    // 3. Precheck, then the plan: globs expanded so the approval lists every affected file. Both
    //    see read-only capabilities (the write methods do not exist on what they get).
    const { shell } = options.policy.policy;
    const readOnly = readOnlyCapabilities(options.capabilities);
    const context: PlanContext = precheckContext(options.capabilities, shell, this.lang);
    const policyView = context.policy;
    const refused = await this.precheck(tool, input, context);
    if (refused) return refused;
    const plan = await this.plan(tool, input, context);
    if (!('targets' in plan)) return plan;
    const finalVerdict = await this.targetPermission(tool, plan, verdict);
    if (finalVerdict !== verdict) {
      await this.recordVerdict(finalVerdict, { scope: 'expanded-targets' });
      if (finalVerdict.decision === 'deny') return this.finish('denied', this.denyText(finalVerdict));
    }
    const digest = approvalDigest(tool.name, redacted, plan);

    // 4. Approval.
    if (finalVerdict.decision === 'ask') {
      const answer = await this.approve(tool, input, plan, finalVerdict, digest, signal);
      if (answer !== 'approved') return answer;
      if (this.approval?.choice === 'allow-session' && subject) {
        this.grants.push({ tool: tool.name, kind: subject.kind, values: verdict.resolved });
      }
    }
    if (signal.aborted) return this.finish('cancelled', pick(gateMessages.cancelled, this.lang));

    // Exclusive tools run alone; the plan is re-checked once the call holds its turn, so the state
    // compared is the state the tool will meet.
    return this.scheduler.run(tool.concurrency, async () => {
      const rebound = await rebind(plan, readOnly.files, readOnly.processes);
      if (rebound.programChanged !== undefined || (plan.targets.length > 0 && rebound.plan.targets.length === 0)) {
        await this.record({ type: 'plan.refused', data: { digest, reason: 'changed-after-approval', changed: changedPaths(rebound.changed), ...(rebound.programChanged ? { program: rebound.programChanged } : {}) } });
        return this.finish('refused', pick(gateMessages.changedAfterApproval(rebound.changed.map((c) => options.capabilities.files.display(c.target.path)), rebound.programChanged !== undefined), this.lang));
      }
      // Issue 14 class 3: the tool's deny/ask rules hold for every path its walks hand out, not only the named one.
      const veto = compilePathVeto(options.policy, options.permissionEnv, tool.name, finalVerdict.decision === 'ask' ? finalVerdict.rule : undefined);
      const vetoed = veto === null ? options.capabilities : { ...options.capabilities, files: options.capabilities.files.withPathVeto?.(veto) ?? options.capabilities.files };
      const capabilities = executionCapabilities(vetoed, tool.capabilities, rebound.plan, tool.name);
      const outputBudget = Math.min(shell.maxOutputChars, request.outputBudget ?? Infinity);
      const executionContext: ExecutionContext = Object.assign({ lang: this.lang, policy: policyView, signal, outputBudget }, capabilities);
      return this.execute(tool, input, executionContext, rebound.plan, digest, rebound.changed);
    });
  }

  /**
   * `beforePermission`: the subject could not be read, so the schema speaks first; then its message
   * is returned whatever the mode (a call without a readable subject can never be permitted).
   */
  private async validate(tool: AnyTool, input: Record<string, unknown>, external: boolean, beforePermission = false): Promise<CallResult | null> {
    const modes = this.options.policy.policy.schemaValidation;
    const mode = external ? modes.external : modes.builtin;
    const check = mode === 'off' && !beforePermission ? { violations: [] } : this.registry.schemas.check(tool.name, input);
    if (check.violations.length === 0) return null;
    await this.record({ type: 'schema.violation', data: { mode, violations: check.violations, ...(beforePermission ? { subjectUnreadable: true } : {}) } });
    return beforePermission || modeBlocks(mode, check) ? this.finish('invalid', this.schemaText(violationText(check.violations))) : null;
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
  private async execute(
    tool: AnyTool,
    input: Record<string, unknown>,
    context: ExecutionContext,
    plan: Plan,
    digest: string,
    changed: readonly ChangedTarget[],
  ): Promise<CallResult> {
    const targets = plan.targets.map((t) => t.path);
    // The program file that runs (path and SHA-256), on the intent row itself (SPEC S-SHELL).
    await this.record({
      type: 'execution.started',
      target: targets,
      data: { digest, ...(plan.program ? { program: plan.program } : {}), ...(changed.length > 0 ? { changedAfterApproval: changedPaths(changed) } : {}) },
    });
    const started = performance.now();
    const { result, crash } = await runTool(tool, input, context, approvePlan(plan, digest), gateMessages.toolCrashed);
    const outcome = context.signal.aborted && result.outcome !== 'ok' ? 'cancelled' : result.outcome;
    const leftAlone = changed.length > 0 ? `\n${pick(gateMessages.leftAlone(changed.map((c) => context.files.display(c.target.path))), this.lang)}` : '';
    const text = renderResult(result.text + leftAlone, result.marker, context.outputBudget, this.lang);
    const details = changed.length > 0 ? { ...result.details, changedAfterApproval: changed.map((c) => context.files.display(c.target.path)) } : result.details;
    this.ran = { text, outcome, ...(details ? { details } : {}) };
    await this.record({
      type: 'execution.finished',
      outcome,
      target: targets,
      data: {
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        outputChars: result.text.length,
        outputSha256: sha256Hex(result.text),
        ...(details ? { details } : {}),
        ...(crash ? { crash: describeError(crash) } : {}),
      },
    });
    return this.result(outcome, text, details);
  }

  private async recordVerdict(verdict: PermissionVerdict, data?: Record<string, unknown>): Promise<void> {
    this.decision = { decision: verdict.decision, rule: verdict.rule, source: verdict.source };
    await this.record({
      type: 'permission.decided',
      decision: verdict.decision,
      rule: verdict.rule,
      ruleSource: verdict.source,
      target: verdict.resolved,
      // An evaluation error's cause is for the auditor (never the model): without it the ledger
      // says only that a check failed, not why (issue 14).
      ...(data || verdict.error !== undefined ? { data: { ...data, ...(verdict.error !== undefined ? { error: verdict.error } : {}) } } : {}),
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
    // A folder moved or copied brings its whole tree: every descendant and where it lands is judged too.
    const files = this.options.capabilities.files;
    const tree = await transferDescendants(plan.targets, (p) => files.list(p, { recursive: true, maxEntries: TRANSFER_TREE_LIMIT + 1 }).catch(() => null), this.options.permissionEnv.platform);
    if (tree === null) return { decision: 'deny', rule: 'transfer-tree-limit', source: 'builtin', resolved: [], reason: TRANSFER_TREE_TOO_LARGE };
    values.push(...tree);
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
    const { broker, policy } = this.options;
    const files = this.options.capabilities.files;
    const timeoutMs = policy.policy.approval.timeoutSeconds * 1000;
    const request: ApprovalRequest = {
      callId: this.callId,
      tool: tool.name,
      risk: tool.risk,
      summary: tool.summarize(input, plan, { files: readOnlyCapabilities(this.options.capabilities).files }),
      args: input,
      targets: plan.targets.map((t) => ({
        path: files.display(t.path),
        ...(t.to ? { to: files.display(t.to) } : {}),
        // Composed (NFC), as every other display: a decomposed Mac name reads as jamo in some
        // consoles. Unambiguous: two names that differ only so are refused before a plan exists.
        absolutePath: t.path.normalize('NFC'),
        ...(t.to ? { absoluteTo: t.to.normalize('NFC') } : {}),
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
    const { decision, mismatch } = await askWithTimeout(broker, request, timeoutMs, signal);
    const waitedMs = Math.round(performance.now() - started);
    this.approval = { choice: decision.choice, approver: decision.approver, waitedMs };
    await this.record({
      type: 'approval.decided',
      data: {
        digest,
        choice: decision.choice,
        approver: decision.approver,
        waitedMs,
        ...(decision.reason ? { reason: decision.reason } : {}),
        ...(mismatch ? { answeredDigest: String(mismatch?.digest), answeredCallId: String(mismatch?.callId) } : {}),
      },
    });
    switch (decision.choice) {
      case 'allow-once':
      case 'allow-session':
        return 'approved';
      case 'deny':
        if (signal.aborted) return this.finish('cancelled', pick(gateMessages.cancelled, this.lang));
        if (decision.approver === 'timeout') return this.finish('denied', pick(gateMessages.approvalTimedOut(timeoutMs / 1000), this.lang));
        if (decision.approver === 'none') return this.finish('denied', pick(gateMessages.noApprover, this.lang));
        if (decision.approver === 'digest-mismatch') return this.finish('denied', pick(gateMessages.approvalMismatch, this.lang));
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
    if (this.request.requestId !== undefined) Object.assign(stamped, { requestId: this.request.requestId });
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
      await this.record({ type: 'gate.error', outcome: 'error', data: { error: describeError(bug), ...(this.ran ? { gap: 'execution.finished not recorded' } : {}) } });
    } catch {
      /* the ledger is unavailable too; the result below still says what happened */
    }
    if (this.ran) {
      // The tool ran (its intent row is in the ledger) but its result row could not be written.
      // Saying "not run" would make the model repeat the side effect: return the real result.
      const warning = pick(gateMessages.resultNotRecorded, this.lang);
      return this.result(this.ran.outcome, `${this.ran.text}\n${warning}`, this.ran.details);
    }
    const auditDown = bug instanceof AuditUnavailable;
    return this.result('error', pick(auditDown ? gateMessages.auditUnavailable : gateMessages.toolCrashed, this.lang));
  }
}

function changedPaths(changed: readonly ChangedTarget[]): string[] {
  return changed.map((c) => c.target.path);
}

/** What the gate itself may decide on a person's behalf (nobody answered, Stop, a mismatched answer). */
type GateDecision = Pick<ApprovalDecision, 'choice' | 'approver' | 'reason'>;

interface Answered {
  readonly decision: GateDecision;
  /** A broker's answer that named another call or digest (recorded, never acted on). */
  readonly mismatch?: ApprovalDecision;
}

/**
 * Approval waits time out to deny (default 5 min); no broker → deny; Stop → deny (cancelled).
 * A broker's answer counts only for this request: one for another call or digest (or none at all)
 * is a deny the gate records as `digest-mismatch`.
 */
async function askWithTimeout(
  broker: ApprovalBroker | null,
  request: ApprovalRequest,
  timeoutMs: number,
  outer: AbortSignal,
): Promise<Answered> {
  if (!broker) return { decision: { choice: 'deny', approver: 'none' } };
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort('cancelled');
  outer.addEventListener('abort', onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<GateDecision>((resolve) => {
    timer = setTimeout(() => {
      // The reason tells a broker which line to show ("timed out" or "stopped").
      controller.abort('timeout');
      resolve({ choice: 'deny', approver: 'timeout' });
    }, timeoutMs);
  });
  const cancelled = new Promise<GateDecision>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve({ choice: 'deny', approver: outer.aborted ? 'cancelled' : 'timeout' }), { once: true });
  });
  const answered = broker.request(request, controller.signal).then(
    (answer): Answered =>
      answer?.callId === request.callId && answer.digest === request.digest
        ? { decision: answer }
        : { decision: { choice: 'deny', approver: 'digest-mismatch' }, mismatch: answer },
    (): Answered => ({ decision: { choice: 'deny', approver: 'broker-error' } }),
  );
  try {
    return await Promise.race([answered, timeout.then((decision): Answered => ({ decision })), cancelled.then((decision): Answered => ({ decision }))]);
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

