import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { pick, type Lang, type Text } from '../../common/i18n';
import type { ToolResult } from '../../common/tool-result';
import { buildChildEnv } from '../host/process/child-env';
import { ProgramDigests } from '../host/process/file-digest';
import { realProgramFileView } from '../host/process/program-files';
import { locateProgram } from '../host/process/resolve-program';
import type { McpServerPolicy } from '../policy/types';
import { renderCallResult, untrustedText, type ListedTool } from './mcp-tool';
import { mcpMessages, type StopReason } from './messages';
import { ServerProcess, type ProcessEnd } from './server-process';

/**
 * One MCP server of the policy, through its life in a session: resolved and started, its tools
 * listed (and listed again on notifications/tools/list_changed), called with a time limit, and
 * contained when it misbehaves. A call that outlives callTimeoutMs stops the server (a server
 * stuck in one call is stuck for all of them); a flood stops it; an exit ends it. Each is recorded,
 * reported in plain words, and followed by a restart with backoff until maxRestarts is spent;
 * then the server's tools are removed for the rest of the session.
 */

export interface ServerDeps {
  readonly trustedDirs: readonly string[];
  readonly home: string;
  readonly lang: Lang;
  readonly clientVersion: string;
  /** Appends an `mcp.server` ledger event (best effort: a server event the ledger refuses is not a reason to crash). */
  record(data: Record<string, unknown>): Promise<void>;
  notice(message: Text): void;
  /** Brings the gate's tools of this server in line with a listing ([] removes them all). */
  sync(server: McpServer, tools: readonly ListedTool[]): Promise<void>;
}

export type ServerStatus = 'idle' | 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';

/** Pages of tools/list we follow, and tools we keep: a server cannot grow the catalog without end. */
const MAX_LIST_PAGES = 20;
export const MAX_TOOLS_PER_SERVER = 128;
const BACKOFF_FIRST_MS = 500;
/** Of the kept stderr tail, how much a report shows. */
const STDERR_NOTICE_CHARS = 600;
const BACKOFF_MAX_MS = 8_000;

/**
 * The SDK compiles every listed outputSchema with its own ajv at tools/list — a schema we did not
 * write, compiled by a backtracking regex engine, outside X-SCHEMA's one door. Results are
 * untrusted text whatever their shape, so Baram does not validate structured output at all.
 */
const NO_OUTPUT_VALIDATION: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

interface Live {
  readonly client: Client;
  readonly proc: ServerProcess;
}

export class McpServer {
  status: ServerStatus = 'idle';
  /** `/usr/bin/node server.js`, for the approval's destination line and reports. */
  program: string;
  private live: Live | undefined;
  /** The process of a start in progress, so a session closing meanwhile stops it too. */
  private starting: ServerProcess | undefined;
  private restarts = 0;
  private closing = false;
  private first: Promise<void> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private listing: Promise<void> = Promise.resolve();
  private static readonly digests = new ProgramDigests();

  constructor(
    readonly name: string,
    readonly policy: McpServerPolicy,
    private readonly deps: ServerDeps,
  ) {
    this.program = [policy.command, ...policy.args].join(' ');
  }

  /** The first start: resolves once the server is ready or has failed (bounded by startTimeoutMs). Never throws. */
  start(): Promise<void> {
    return (this.first ??= this.attempt());
  }

  /** Why a call cannot go to the server now, or null when it can. */
  unavailable(): Text | null {
    if (this.live) return null;
    return mcpMessages.unavailable(this.name, this.status === 'restarting' || this.status === 'starting');
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal, lang: Lang): Promise<ToolResult> {
    const live = this.live;
    if (!live) return { outcome: 'error', text: pick(this.unavailable() ?? mcpMessages.unavailable(this.name, false), lang) };
    const { client, proc } = live;
    const limit = this.policy.callTimeoutMs;
    const details = { server: this.name, tool };
    // The SDK (1.32.2) adds an abort listener to the signal of every request and never removes it:
    // on the gate's long-lived signals that grows without end. It gets a signal of its own per call.
    const own = new AbortController();
    const relay = () => own.abort(signal.reason);
    if (signal.aborted) relay();
    else signal.addEventListener('abort', relay, { once: true });
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { signal: own.signal, timeout: limit, maxTotalTimeout: limit });
      return renderCallResult(this.name, tool, result as Parameters<typeof renderCallResult>[2], lang);
    } catch (error) {
      if (proc.stopCause === 'flood') {
        return { outcome: 'error', text: pick(mcpMessages.flooded(this.name, tool, this.policy.maxOutputBytes), lang), details: { ...details, stopped: 'flood' } };
      }
      if (signal.aborted) return { outcome: 'cancelled', text: pick(mcpMessages.cancelled, lang), details };
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        await proc.kill('killed');
        return { outcome: 'timeout', text: pick(mcpMessages.callTimedOut(this.name, tool, limit), lang), details: { ...details, stopped: 'hang', timeoutMs: limit } };
      }
      if (proc.stopCause !== undefined || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
        return { outcome: 'error', text: pick(mcpMessages.diedDuringCall(this.name, tool), lang), details: { ...details, stopped: 'exited' } };
      }
      // A JSON-RPC error from the server (unknown tool, bad arguments): its message is its own text.
      const detail = untrustedText(error instanceof Error ? error.message : String(error)).slice(0, 300);
      return { outcome: 'error', text: pick(mcpMessages.serverError(this.name, tool, detail), lang), details };
    } finally {
      signal.removeEventListener('abort', relay);
    }
  }

  /** Stops the server for good (session closed): no restart. */
  async stop(): Promise<void> {
    this.closing = true;
    clearTimeout(this.restartTimer);
    const live = this.live;
    this.live = undefined;
    this.status = 'stopped';
    await this.starting?.close();
    if (live) {
      await live.proc.close();
      await this.deps.record({ event: 'closed', pid: live.proc.pid ?? null });
    }
  }

  private async attempt(): Promise<void> {
    if (this.closing) return;
    this.status = 'starting';
    const { policy, deps } = this;
    const platform = process.platform;
    const located = await locateProgram(policy.command, { trustedDirs: deps.trustedDirs, commands: [policy.command], view: realProgramFileView() });
    if (located.kind === 'refused') {
      // Nothing was started, and a restart would find the same: the policy or the machine must change.
      this.status = 'failed';
      await deps.record({ event: 'refused', code: located.code, message: located.message.en });
      deps.notice(mcpMessages.refusedProgram(this.name, pick(located.message, deps.lang)));
      return;
    }
    this.program = [located.path, ...policy.args].join(' ');
    const sha256 = await McpServer.digests.sha256(located).catch(() => null);
    const proc = new ServerProcess({
      file: located.path,
      argv0: policy.command,
      args: policy.args,
      env: buildChildEnv({ whitelist: policy.env, source: process.env, platform, trustedDirs: deps.trustedDirs }),
      cwd: policy.cwd ?? deps.home,
      maxOutputBytes: policy.maxOutputBytes,
    });
    const client = new Client({ name: 'baram', version: deps.clientVersion }, { capabilities: {}, jsonSchemaValidator: NO_OUTPUT_VALIDATION });
    // Parse errors and stray output are the server's problem, not a reason to fail a call.
    client.onerror = () => undefined;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.listAgain(client));

    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), policy.startTimeoutMs);
    const limits = { signal: deadline.signal, timeout: policy.startTimeoutMs, maxTotalTimeout: policy.startTimeoutMs };
    let tools: ListedTool[];
    this.starting = proc;
    try {
      await client.connect(proc, limits);
      tools = await listAll(client, limits);
    } catch (error) {
      clearTimeout(timer);
      // Our deadline and the SDK's own request timeout have the same length; either may fire first.
      const timedOut = deadline.signal.aborted || (error instanceof McpError && error.code === ErrorCode.RequestTimeout);
      const reason: StopReason = proc.stopCause === 'flood' ? 'flood' : timedOut ? 'start-timeout' : 'start-failed';
      await proc.close();
      await this.ended(reason, proc.end, error);
      return;
    } finally {
      clearTimeout(timer);
      this.starting = undefined;
    }
    if (this.closing) {
      await proc.close();
      return;
    }
    this.live = { client, proc };
    this.status = 'ready';
    proc.onend = (end) => void this.lost(proc, end);
    await deps.record({
      event: 'started',
      pid: proc.pid ?? null,
      program: { command: policy.command, path: located.path, realPath: located.realPath, sha256 },
      args: policy.args,
      env: Object.keys(buildChildEnv({ whitelist: policy.env, source: process.env, platform, trustedDirs: deps.trustedDirs })),
      restarts: this.restarts,
      tools: tools.map((t) => t.name),
    });
    deps.notice(mcpMessages.started(this.name, tools.length, this.program));
    await this.syncTools(tools);
    // It may have ended while we were recording.
    if (proc.end) await this.lost(proc, proc.end);
  }

  /** notifications/tools/list_changed: list again and bring the gate's tools in line (the gate records the new digest). */
  private listAgain(client: Client): Promise<void> {
    this.listing = this.listing.then(async () => {
      const live = this.live;
      if (live?.client !== client) return;
      const limit = this.policy.callTimeoutMs;
      try {
        const tools = await listAll(client, { timeout: limit, maxTotalTimeout: limit });
        if (this.live?.client === client) await this.syncTools(tools);
      } catch {
        // A server that cannot list its own tools in time is stuck: stopped, and restarted.
        if (this.live?.client === client) await live.proc.kill('killed');
      }
    });
    return this.listing;
  }

  private async syncTools(tools: readonly ListedTool[]): Promise<void> {
    try {
      await this.deps.sync(this, tools);
    } catch {
      // The ledger refused the toolset change: the gate has not added what it could not record.
    }
  }

  private async lost(proc: ServerProcess, end: ProcessEnd): Promise<void> {
    if (this.live?.proc !== proc) return;
    this.live = undefined;
    const reason: StopReason = end.cause === 'flood' ? 'flood' : end.cause === 'killed' ? 'hang' : 'exited';
    await this.ended(reason, end, undefined);
  }

  private async ended(reason: StopReason, end: ProcessEnd | undefined, error: unknown): Promise<void> {
    const { deps } = this;
    const code = end?.code ?? null;
    const signal = end?.signal ?? null;
    const detail = code !== null ? ` (exit code ${code})` : signal !== null ? ` (${signal})` : '';
    await deps.record({
      event: 'stopped',
      reason,
      exitCode: code,
      signal,
      stderrBytes: end?.stderrBytes ?? 0,
      ...(error !== undefined ? { error: untrustedText(error instanceof Error ? error.message : String(error)).slice(0, 300) } : {}),
    });
    deps.notice(mcpMessages.stopped(this.name, reason, detail));
    // Its last error output, for the administrator at the terminal only (never the model or the ledger).
    const tail = untrustedText(end?.stderrTail ?? '').trim();
    if (tail !== '') deps.notice(mcpMessages.stderrTail(this.name, tail.slice(-STDERR_NOTICE_CHARS)));
    if (this.closing) {
      this.status = 'stopped';
      return;
    }
    if (this.restarts >= this.policy.maxRestarts) {
      this.status = 'failed';
      await deps.record({ event: 'gave-up', restarts: this.restarts });
      deps.notice(mcpMessages.gaveUp(this.name, this.restarts));
      await this.syncTools([]);
      return;
    }
    this.restarts += 1;
    const delayMs = Math.min(BACKOFF_FIRST_MS * 2 ** (this.restarts - 1), BACKOFF_MAX_MS);
    this.status = 'restarting';
    await deps.record({ event: 'restarting', attempt: this.restarts, delayMs });
    deps.notice(mcpMessages.restarting(this.name, this.restarts, this.policy.maxRestarts, delayMs));
    this.restartTimer = setTimeout(() => void this.attempt(), delayMs);
    // A pending restart must not keep a finished CLI call alive; the session's close clears it anyway.
    this.restartTimer.unref();
  }
}

async function listAll(client: Client, options: { signal?: AbortSignal; timeout: number; maxTotalTimeout: number }): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const r = await client.listTools(cursor === undefined ? {} : { cursor }, options);
    tools.push(...(r.tools as ListedTool[]));
    cursor = r.nextCursor;
    if (cursor === undefined || tools.length >= MAX_TOOLS_PER_SERVER) break;
  }
  return tools;
}
