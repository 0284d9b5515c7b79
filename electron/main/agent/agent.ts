import { performance } from 'node:perf_hooks';
import type { ApprovalBroker, ApprovalRequest } from '../../common/approval';
import { pick, type Lang, type Text } from '../../common/i18n';
import type { Outcome } from '../../common/domain';
import type { CallResult, Gate } from '../gate';
import type { ToolInfo } from '../gate/catalog';
import type { ModelBackend, ModelEvent, ModelMessage, ToolCall, ToolDefinition, ToolMode, Turn } from '../model';
import { collectTurn } from '../model';
import type { ConversationStatus, ConversationStore } from './conversations';
import { agentMessages, repairNote, systemPrompt } from './prompt';
import { answerToolSearch, fromWireName, outputBudgetFor, route, RoutingState, SEARCH_TOOL_NAME, type ToolDefinition as WireDefinition } from './routing';

/**
 * The agent loop (SPEC §4, issue 16 scope 4): plan → call → observe → answer. The model proposes;
 * every call goes through the gate (even a malformed one, so the ledger holds what the model
 * tried); the history sent back holds only calls the gate accepted, re-serialised. One repair
 * round per invalid step, then the request fails visibly with the raw output kept. Stop (the
 * signal) ends generation and every running tool; the conversation is saved as it goes.
 */

/** What the agent needs of the gate: calls, the catalog, and the two request records. */
export type AgentGate = Pick<Gate, 'call' | 'tools' | 'recordRequest' | 'finishRequest'>;

export type AgentEvent =
  | { readonly type: 'thinking'; readonly step: number }
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'calling'; readonly callId: string; readonly tool: string; readonly args: Readonly<Record<string, unknown>> }
  | { readonly type: 'called'; readonly callId: string; readonly tool: string; readonly outcome: Outcome; readonly text: string }
  | { readonly type: 'repair'; readonly problems: readonly string[] }
  /** A call waits for a person's answer (from announcingBroker). */
  | { readonly type: 'waiting'; readonly callId: string; readonly tool: string; readonly summary: Text }
  /**
   * After each step: Baram's own time (the step's wall time less the model's and the approver's
   * waits), of which `callsMs` ran the calls (the gate's layers, the ledger, the tools' own work).
   */
  | { readonly type: 'step'; readonly step: number; readonly ownMs: number; readonly modelMs: number; readonly callsMs: number }
  | { readonly type: 'done'; readonly result: AgentResult };

export interface AgentOptions {
  readonly gate: AgentGate;
  readonly backend: ModelBackend;
  readonly store: ConversationStore;
  readonly lang: Lang;
  /** The workspace folder, named in the system prompt. */
  readonly workspace: string;
  /** How the model is named in the conversation list (URL or file). */
  readonly modelLabel: string;
  readonly toolMode?: ToolMode;
  /** The model's context length, when known: tool output budgets follow it. Default 8192. */
  readonly contextTokens?: number;
  /** Most model turns per request. Default 12. */
  readonly maxSteps?: number;
  readonly maxTokens?: number;
  readonly onEvent?: (event: AgentEvent) => void;
}

export interface RunOptions {
  readonly signal?: AbortSignal;
  /** Resume this conversation (id or a unique prefix). */
  readonly conversationId?: string;
}

export interface AgentResult {
  readonly status: Exclude<ConversationStatus, 'running'>;
  /** The model's answer, or what the user reads instead. */
  readonly answer: string;
  readonly conversationId: string;
  readonly requestId: string;
  readonly steps: number;
  /** The model's raw output of the step that failed (status `failed`). */
  readonly raw?: string;
}

/**
 * Wraps the approval broker so progress shows "waiting for approval" (the terminal and the window
 * show the request itself). The answer is the inner broker's, untouched; null stays null (then
 * nobody can approve and the gate denies).
 */
export function announcingBroker(inner: ApprovalBroker | null, emit: (event: AgentEvent) => void): ApprovalBroker | null {
  if (!inner) return null;
  return {
    request(request: ApprovalRequest, signal: AbortSignal) {
      emit({ type: 'waiting', callId: request.callId, tool: request.tool, summary: request.summary });
      return inner.request(request, signal);
    },
  };
}

export class AgentError extends Error {
  constructor(readonly text: Text) {
    super(text.en);
  }
}

const DEFAULT_CONTEXT = 8192;
const DEFAULT_MAX_STEPS = 12;
const RAW_KEPT_CHARS = 4_000;

export class Agent {
  readonly #o: AgentOptions;

  constructor(options: AgentOptions) {
    this.#o = options;
  }

  async run(task: string, options: RunOptions = {}): Promise<AgentResult> {
    const o = this.#o;
    const resumed = options.conversationId !== undefined ? o.store.load(options.conversationId) : null;
    if (options.conversationId !== undefined && !resumed) throw new AgentError(agentMessages.notFound(options.conversationId));
    const conversationId = resumed?.meta.id ?? o.store.create({ title: task, workspace: o.workspace, model: o.modelLabel, lang: o.lang });
    const history: ModelMessage[] = resumed ? resumed.messages : [];
    const save = (m: ModelMessage) => {
      history.push(m);
      o.store.append(conversationId, m);
    };
    if (history.length === 0) save({ role: 'system', content: systemPrompt(o.lang, o.workspace) });
    o.store.setStatus(conversationId, 'running');
    const requestId = await o.gate.recordRequest(task, { conversationId });
    save({ role: 'user', content: task });

    const tools = o.gate.tools();
    const routing = new RoutingState(resumed?.meta.offered ?? []);
    const routed = route(task, routing, tools, { lang: o.lang });
    o.store.setOffered(conversationId, routing.offered);
    const run = new RequestRun(o, tools, routed.definitions.map(toModelDefinition), requestId, options.signal, save, history);

    let result: AgentResult;
    try {
      const end = await run.loop();
      result = { ...end, conversationId, requestId };
    } catch (bug) {
      result = { status: 'failed', answer: bug instanceof Error ? bug.message : String(bug), conversationId, requestId, steps: run.steps };
    }
    o.store.setStatus(conversationId, result.status);
    await o.gate.finishRequest(requestId, OUTCOME_OF[result.status], {
      conversationId,
      status: result.status,
      steps: result.steps,
      ...(result.raw !== undefined ? { raw: result.raw.slice(0, RAW_KEPT_CHARS) } : {}),
    });
    o.onEvent?.({ type: 'done', result });
    return result;
  }
}

const OUTCOME_OF: Record<AgentResult['status'], 'ok' | 'cancelled' | 'error'> = {
  answered: 'ok',
  cancelled: 'cancelled',
  failed: 'error',
  step_limit: 'error',
};

function toModelDefinition(d: WireDefinition): ToolDefinition {
  return { name: d.function.name, description: d.function.description, parameters: d.function.parameters as object };
}

type LoopEnd = Omit<AgentResult, 'conversationId' | 'requestId'>;

/** One user request's steps. */
class RequestRun {
  steps = 0;
  readonly #known: string[];
  readonly #concurrency: ReadonlyMap<string, ToolInfo['concurrency']>;
  readonly #signal: AbortSignal;

  constructor(
    private readonly o: AgentOptions,
    private readonly tools: readonly ToolInfo[],
    private readonly definitions: readonly ToolDefinition[],
    private readonly requestId: string,
    signal: AbortSignal | undefined,
    private readonly save: (m: ModelMessage) => void,
    private readonly history: readonly ModelMessage[],
  ) {
    this.#known = [...tools.map((t) => t.name), SEARCH_TOOL_NAME];
    this.#concurrency = new Map(tools.map((t) => [t.name, t.concurrency]));
    this.#signal = signal ?? new AbortController().signal;
  }

  async loop(): Promise<LoopEnd> {
    const o = this.o;
    const maxSteps = o.maxSteps ?? DEFAULT_MAX_STEPS;
    let repairing = false;
    while (this.steps < maxSteps) {
      if (this.#signal.aborted) return this.#cancelled();
      const step = ++this.steps;
      const started = performance.now();
      o.onEvent?.({ type: 'thinking', step });
      const modelStart = performance.now();
      const turn = await this.#generate();
      const modelMs = performance.now() - modelStart;
      if (this.#signal.aborted || turn.error?.code === 'aborted') return this.#cancelled();
      if (turn.error) return { status: 'failed', answer: pick(turn.error.message, o.lang), steps: step, raw: rawOf(turn) };

      const calls = turn.calls.map((c) => ({ ...c, name: fromWireName(c.name, this.#known) }));
      if (calls.length === 0 && turn.malformed.length === 0) {
        this.save({ role: 'assistant', content: turn.text });
        o.onEvent?.({ type: 'step', step, ownMs: performance.now() - started - modelMs, modelMs, callsMs: 0 });
        return { status: 'answered', answer: turn.text.trim(), steps: step };
      }

      const problems: string[] = [];
      let waited = 0;
      const callsStart = performance.now();
      // A call whose arguments do not even parse still goes to the gate (as text), so the ledger
      // records what the model tried; it is never part of the history.
      for (const m of turn.malformed) {
        const r = await this.o.gate.call({ tool: m.name !== null ? fromWireName(m.name, this.#known) : '', args: m.raw, requestId: this.requestId, signal: this.#signal });
        problems.push(`${m.name ?? '?'}: ${pick(m.error, o.lang)}`);
        waited += r.approval?.waitedMs ?? 0;
      }
      const done = await this.#runCalls(calls);
      const callsWall = performance.now() - callsStart;
      const accepted: { call: ToolCall; result: string }[] = [];
      for (const d of done) {
        waited += d.result.approval?.waitedMs ?? 0;
        if (d.result.outcome === 'invalid') problems.push(`${d.call.name}: ${d.result.text}`);
        else accepted.push({ call: d.call, result: d.result.text });
      }
      if (accepted.length > 0) {
        this.save({ role: 'assistant', content: turn.text, toolCalls: accepted.map((a) => a.call) });
        for (const a of accepted) this.save({ role: 'tool', toolCallId: a.call.id, toolName: a.call.name, content: a.result });
      }
      const callsMs = Math.max(0, callsWall - waited);
      o.onEvent?.({ type: 'step', step, ownMs: Math.max(0, performance.now() - started - modelMs - waited), modelMs, callsMs });
      if (this.#signal.aborted) return this.#cancelled();
      if (problems.length > 0) {
        if (repairing) return { status: 'failed', answer: pick(agentMessages.repairFailed, o.lang), steps: step, raw: rawOf(turn) };
        repairing = true;
        o.onEvent?.({ type: 'repair', problems });
        this.save({ role: 'user', content: repairNote(problems, o.lang), note: 'repair' });
      } else {
        repairing = false;
      }
    }
    return { status: 'step_limit', answer: pick(agentMessages.stepLimit(maxSteps), o.lang), steps: this.steps };
  }

  #generate(): Promise<Turn> {
    const o = this.o;
    const onEvent = (e: ModelEvent) => {
      if (e.type === 'text') o.onEvent?.({ type: 'text', delta: e.delta });
    };
    return collectTurn(
      o.backend.generate({
        messages: this.history,
        tools: this.definitions,
        toolMode: o.toolMode ?? 'native',
        signal: this.#signal,
        ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
      }),
      onEvent,
    );
  }

  /**
   * Runs one turn's calls in the order given: neighbouring parallel-safe calls together, an
   * exclusive one alone (the gate's scheduler enforces it too; this keeps the model's order).
   */
  async #runCalls(calls: readonly ToolCall[]): Promise<{ call: ToolCall; result: CallResult }[]> {
    const out: { call: ToolCall; result: CallResult }[] = [];
    let batch: ToolCall[] = [];
    const flush = async () => {
      const results = await Promise.all(batch.map((c) => this.#callOne(c)));
      results.forEach((result, i) => out.push({ call: batch[i]!, result }));
      batch = [];
    };
    for (const call of calls) {
      if (this.#signal.aborted) break;
      if ((this.#concurrency.get(call.name) ?? 'exclusive') === 'exclusive' && call.name !== SEARCH_TOOL_NAME) {
        await flush();
        batch = [call];
        await flush();
      } else {
        batch.push(call);
      }
    }
    await flush();
    return out;
  }

  async #callOne(call: ToolCall): Promise<CallResult> {
    const o = this.o;
    o.onEvent?.({ type: 'calling', callId: call.id, tool: call.name, args: call.arguments });
    const result =
      call.name === SEARCH_TOOL_NAME
        ? searchResult(call, this.tools, o.lang)
        : await o.gate.call({
            tool: call.name,
            args: call.arguments,
            signal: this.#signal,
            requestId: this.requestId,
            outputBudget: outputBudgetFor(o.contextTokens ?? DEFAULT_CONTEXT),
          });
    o.onEvent?.({ type: 'called', callId: call.id, tool: call.name, outcome: result.outcome, text: result.text });
    return result;
  }

  #cancelled(): LoopEnd {
    return { status: 'cancelled', answer: pick(agentMessages.cancelled, this.o.lang), steps: this.steps };
  }
}

/** tool.search reads only the catalog: answered here, not a call on the machine. */
function searchResult(call: ToolCall, tools: readonly ToolInfo[], lang: Lang): CallResult {
  const answer = answerToolSearch(call.arguments, tools, lang);
  return { outcome: 'ok', tool: SEARCH_TOOL_NAME, text: answer.text, auditSeq: -1, callId: call.id };
}

function rawOf(turn: Turn): string {
  const parts = [turn.text, ...turn.malformed.map((m) => m.raw), ...turn.calls.map((c) => JSON.stringify({ name: c.name, arguments: c.arguments }))];
  return parts.filter((p) => p.length > 0).join('\n');
}
