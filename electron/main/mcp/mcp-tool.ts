import type { TObject } from '@sinclair/typebox';
import type { Risk } from '../../common/domain';
import type { Text } from '../../common/i18n';
import { pick, type Lang } from '../../common/i18n';
import type { ToolResult } from '../../common/tool-result';
import { failure, type AnyTool } from '../../../tools/kit/define-tool';
import { mcpMessages } from './messages';

/**
 * An MCP server's tool as a Baram tool declaration, so it passes the one gate like every built-in
 * tool: permission (by its name `mcp.<server>.<tool>` and the risk the policy gives it), schema
 * (the admitted copy of the server's inputSchema, WARN by default), precheck (the server must be
 * running), approval (server and tool named, the server's annotations shown as claims), audit.
 * The server's annotations never set the risk: a server that says readOnlyHint can still delete.
 */

/** What tools/list gave us, as far as this adapter reads it. */
export interface ListedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: unknown;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

export interface McpToolOptions {
  readonly server: string;
  readonly listed: ListedTool;
  /** The schema admitExternalSchema returned (a checked copy, `type: 'object'`). */
  readonly schema: Record<string, unknown>;
  readonly risk: Risk;
  /** Shown in the approval as where the call goes: the server and its program. */
  readonly destination: string;
  /** null while the server can take calls; otherwise why not (precheck refuses before anyone is asked). */
  unavailable(): Text | null;
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal, lang: Lang): Promise<ToolResult>;
}

/** A model reads every description in every request: a server's essay would crowd out the built-in tools. */
const MAX_DESCRIPTION_CHARS = 600;

/** The hints MCP defines (2025-06-18 schema), shown as claims in the approval. */
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

export function serverClaims(annotations: Readonly<Record<string, unknown>> | undefined): string[] {
  if (!annotations) return [];
  return HINTS.filter((h) => typeof annotations[h] === 'boolean').map((h) => `${h}=${String(annotations[h])}`);
}

export function mcpTool(o: McpToolOptions): AnyTool {
  const { server, listed } = o;
  const name = `mcp.${server}.${listed.name}`;
  const about = untrustedText(listed.description ?? listed.title ?? listed.name).slice(0, MAX_DESCRIPTION_CHARS);
  const description = `[MCP ${server}] ${about}`;
  const claims = serverClaims(listed.annotations);
  return Object.freeze<AnyTool>({
    name,
    description: { ko: description, en: description },
    keywords: ['mcp', server, ...listed.name.split(/[_-]+/).filter((w) => w !== '')],
    // The admitted copy is plain JSON Schema; the gate only reads it as such (no TypeBox symbols needed).
    input: o.schema as unknown as TObject,
    risk: o.risk,
    // Arguments are the server's own shape, so there is nothing to match a pattern against: rules
    // name the tool (`mcp.docs.search`) or the server (`mcp.docs.*`).
    subject: null,
    // Unknown side effects, one pipe: calls to external tools run one at a time.
    concurrency: 'exclusive',
    capabilities: [],
    precheck(_input, ctx) {
      const why = o.unavailable();
      return why ? failure(why) : null;
    },
    async plan() {
      return { targets: [], destination: o.destination };
    },
    summarize() {
      return mcpMessages.summary(server, listed.name, claims);
    },
    execute(input, ctx) {
      return o.call(listed.name, input, ctx.signal, ctx.lang);
    },
  });
}

/** A tools/call result, loosely: servers send what they send. */
export interface CallResultLike {
  readonly content?: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

/**
 * The model's text of a result: text parts as they are (untrusted text: control and bidi
 * characters removed; the gate cuts it to the budget), other parts named but not shown.
 */
export function renderCallResult(server: string, tool: string, result: CallResultLike, lang: Lang): ToolResult {
  const parts: string[] = [];
  const kinds: string[] = [];
  for (const item of result.content ?? []) {
    const c = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const type = typeof c['type'] === 'string' ? (c['type'] as string) : 'unknown';
    kinds.push(type);
    if (type === 'text' && typeof c['text'] === 'string') {
      parts.push(c['text']);
    } else if ((type === 'image' || type === 'audio') && typeof c['data'] === 'string') {
      parts.push(mcpMessages.omitted(type, `${String(c['mimeType'] ?? '?')}, ~${Math.floor((c['data'].length * 3) / 4)} bytes`));
    } else if (type === 'resource') {
      const r = (c['resource'] ?? {}) as Record<string, unknown>;
      parts.push(typeof r['text'] === 'string' ? r['text'] : mcpMessages.omitted('resource', String(r['uri'] ?? '?')));
    } else if (type === 'resource_link') {
      parts.push(`[resource link: ${String(c['uri'] ?? '?')}]`);
    } else {
      parts.push(mcpMessages.omitted('content', type));
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  const body = untrustedText(parts.join('\n'));
  const details = { server, tool, content: kinds, ...(result.isError ? { isError: true } : {}) };
  if (result.isError) return { outcome: 'error', text: body, marker: pick(mcpMessages.toolReportedError(server, tool), lang), details };
  return { outcome: 'ok', text: body, details };
}

/**
 * Text from a server is shown to the model and to people: C0/C1 controls (terminal escapes) and
 * bidirectional overrides (which make a line read differently from what it holds) are removed.
 */
export function untrustedText(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '');
}
