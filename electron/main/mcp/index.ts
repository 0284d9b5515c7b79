import { createHash } from 'node:crypto';
import { canonicalJson } from '../../common/canonical-json';
import type { AuditSink } from '../../common/audit-events';
import { pick, text, type Lang, type Text } from '../../common/i18n';
import type { Gate } from '../gate';
import { admitExternalSchema } from '../policy/external-schema';
import { MCP_DEFAULT_RISK } from '../policy/mcp-section';
import type { McpServerPolicy } from '../policy/types';
import { mcpMessages } from './messages';
import { mcpTool, serverClaims, type ListedTool } from './mcp-tool';
import { MAX_TOOLS_PER_SERVER, McpServer, type ServerStatus } from './server';

/**
 * The MCP servers of one session (issue 19): only those the administrator's policy lists (user
 * settings have no `mcp` field), started when the session opens and stopped — whole process
 * trees — when it closes. Their tools enter the gate as `mcp.<server>.<tool>` with source
 * `mcp:<server>` after the one schema door (admitExternalSchema); a tool whose schema breaks a rule
 * is left out alone, with the rule named, and the server's other tools stay.
 */
export interface McpOptions {
  readonly servers: Readonly<Record<string, McpServerPolicy>>;
  /** shell.trustedDirs: server programs are resolved there only, as shell.execute's are. */
  readonly trustedDirs: readonly string[];
  readonly gate: Pick<Gate, 'addTool' | 'removeTool'>;
  readonly audit: AuditSink;
  readonly lang: Lang;
  readonly home: string;
  readonly clientVersion?: string;
  /** Plain-language reports for the administrator or user (CLI stderr, the app's log). */
  readonly onNotice?: (message: Text) => void;
}

export interface McpServers {
  /** Each server's state, for reports and tests. */
  status(): Readonly<Record<string, ServerStatus>>;
  close(): Promise<void>;
}

/** A tool name the registry accepts after `mcp.<server>.` (tools/registry.ts MCP_NAME). */
const TOOL_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

interface Rejection {
  readonly tool: string;
  readonly rule: string;
  readonly path: string;
  /** Both languages: the ledger keeps the session's, a window notice shows the window's. */
  readonly text: Text;
}

/** Starts every listed server (in parallel) and resolves once each has become ready or failed its first start. */
export async function startMcpServers(options: McpOptions): Promise<McpServers> {
  const { gate, audit, lang } = options;
  /** Per server: registered tool name → fingerprint of what was registered (schema, description, risk). */
  const registered = new Map<string, Map<string, string>>();
  const notice = (message: Text) => options.onNotice?.(message);

  async function sync(server: McpServer, listing: readonly ListedTool[]): Promise<void> {
    const current = registered.get(server.name) ?? new Map<string, string>();
    registered.set(server.name, current);
    const wanted = new Map<string, { tool: ReturnType<typeof mcpTool>; fingerprint: string }>();
    const rejected: Rejection[] = [];
    if (listing.length > MAX_TOOLS_PER_SERVER) notice(mcpMessages.tooManyTools(server.name, MAX_TOOLS_PER_SERVER));
    for (const listed of listing.slice(0, MAX_TOOLS_PER_SERVER)) {
      const shownName = String(listed.name).slice(0, 80);
      if (typeof listed.name !== 'string' || !TOOL_NAME.test(listed.name)) {
        rejected.push({ tool: shownName, rule: 'tool-name', path: '', text: mcpMessages.toolNameRejected(server.name, shownName) });
        continue;
      }
      if (wanted.has(`mcp.${server.name}.${listed.name}`)) {
        rejected.push({ tool: listed.name, rule: 'duplicate-name', path: '', text: mcpMessages.listedTwice(listed.name) });
        continue;
      }
      const admitted = admitExternalSchema(listed.inputSchema, lang);
      if (!admitted.ok) {
        rejected.push(...admitted.violations.map((v) => ({ tool: listed.name, rule: v.rule, path: v.path, text: v.text })));
        continue;
      }
      if (admitted.schema['type'] !== 'object') {
        rejected.push({ tool: listed.name, rule: 'not-an-object', path: '/type', text: mcpMessages.notAnObject });
        continue;
      }
      const risk = server.policy.tools[listed.name] ?? MCP_DEFAULT_RISK;
      const tool = mcpTool({
        server: server.name,
        listed,
        schema: admitted.schema,
        risk,
        destination: mcpMessages.destination(server.name, server.program),
        unavailable: () => server.unavailable(),
        call: (name, args, signal, callLang) => server.call(name, args, signal, callLang),
      });
      const fingerprint = digest({ schema: admitted.schema, description: tool.description, risk, annotations: listed.annotations ?? null });
      wanted.set(tool.name, { tool, fingerprint });
    }

    const added: string[] = [];
    const removed: string[] = [];
    for (const [name, fingerprint] of [...current]) {
      if (wanted.get(name)?.fingerprint === fingerprint) continue;
      // Changed or gone: out first (the gate records the new toolset), then back in if still listed.
      await gate.removeTool(name);
      current.delete(name);
      removed.push(name);
    }
    for (const [name, { tool, fingerprint }] of wanted) {
      if (current.has(name)) continue;
      try {
        await gate.addTool(tool, `mcp:${server.name}`);
        current.set(name, fingerprint);
        added.push(name);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        rejected.push({ tool: name, rule: 'registry', path: '', text: text(detail, detail) });
      }
    }
    if (added.length + removed.length + rejected.length > 0) {
      await record(server.name, {
        event: 'tools',
        added,
        removed,
        rejected: rejected.map(({ text: both, ...r }) => ({ ...r, message: pick(both, lang) })),
        // The server's claims, kept for auditors beside the risk the policy gave instead.
        claims: Object.fromEntries(listing.filter((t) => serverClaims(t.annotations).length > 0).map((t) => [t.name, serverClaims(t.annotations)])),
      });
    }
    const byTool = new Map<string, Rejection[]>();
    for (const r of rejected) byTool.set(r.tool, [...(byTool.get(r.tool) ?? []), r]);
    const rules = (list: readonly Rejection[], l: Lang) => list.map((r) => `${r.rule}${r.path ? ` at ${r.path}` : ''}: ${pick(r.text, l)}`).join('; ');
    for (const [tool, list] of byTool) notice(mcpMessages.toolRejected(server.name, tool, text(rules(list, 'ko'), rules(list, 'en'))));
  }

  async function record(server: string, data: Record<string, unknown>): Promise<void> {
    try {
      await audit.append({ type: 'mcp.server', target: [server], data: { server, ...data } });
    } catch {
      // Calls still cannot run unrecorded: the gate writes its own rows and refuses without them.
    }
  }

  const servers = Object.entries(options.servers).map(
    ([name, policy]) =>
      new McpServer(name, policy, {
        trustedDirs: options.trustedDirs,
        home: options.home,
        lang,
        clientVersion: options.clientVersion ?? '0.1.0',
        record: (data) => record(name, data),
        notice,
        sync,
      }),
  );
  await Promise.all(servers.map((s) => s.start()));
  let closed = false;
  return {
    status: () => Object.fromEntries(servers.map((s) => [s.name, s.status])),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}

function digest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
