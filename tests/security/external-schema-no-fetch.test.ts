import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from '../../electron/common/i18n';
import { ExternalSchemaRefused, ToolRegistry } from '../../electron/main/gate/registry';
import { admitExternalSchema } from '../../electron/main/policy/external-schema';
import { externalAjv } from '../../electron/main/policy/external-schema-ajv';
import type { AnyTool } from '../../tools/kit/define-tool';
import { ok } from '../../tools/kit/results';

/**
 * SPEC X-SCHEMA: a schema we did not write can make a validator fetch an address its author chose
 * (SSRF). A real listener on 127.0.0.1 stands where every such reference points, and counts the
 * TCP connections it accepts: registration must be refused, and the count must stay 0.
 */
let server: Server;
let base: string;
let connections = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 18\r\nconnection: close\r\n\r\n{"type":"string"}\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function mcpTool(name: string, input: Record<string, unknown>): AnyTool {
  // The shape an MCP adapter hands the registry: the server's inputSchema as it came.
  return Object.freeze({
    name,
    description: text('외부 도구', 'external tool'),
    keywords: [],
    input,
    risk: 'execute',
    subject: null,
    concurrency: 'exclusive',
    capabilities: [],
    summarize: () => text('외부 도구', 'external tool'),
    execute: async () => ok('done'),
  }) as unknown as AnyTool;
}

/** Lets any connection a fetch would have started arrive (a fetch is asynchronous). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 40));
}

const cases = (): [string, Record<string, unknown>, string, string][] => [
  ['an absolute $ref', { type: 'object', properties: { user: { $ref: `${base}/user.json` } } }, 'remote-ref', '/properties/user/$ref'],
  ['a $ref with a fragment into a remote document', { type: 'object', properties: { user: { $ref: `${base}/defs.json#/definitions/user` } } }, 'remote-ref', '/properties/user/$ref'],
  ['a relative $ref under a root $id on the listener', { $id: `${base}/tool.json`, type: 'object', properties: { user: { $ref: 'user.json' } } }, 'remote-ref', '/properties/user/$ref'],
  ['a $dynamicRef', { type: 'object', properties: { user: { $dynamicRef: `${base}/user.json#meta` } } }, 'remote-ref', '/properties/user/$dynamicRef'],
  ['a $schema naming the listener as the meta-schema', { $schema: `${base}/meta.json`, type: 'object' }, 'unknown-dialect', '/$schema'],
  ['an embedded $id on the listener', { type: 'object', properties: { user: { $id: `${base}/user.json`, type: 'string' } } }, 'embedded-id', '/properties/user/$id'],
];

describe('no schema reference is ever fetched', () => {
  it('the listener does count a real connection (so a zero below means something)', async () => {
    const before = connections;
    const response = await fetch(`${base}/probe`);
    await response.text();
    expect(connections).toBe(before + 1);
  });

  it('refuses each remote reference at admission and at the registry, and nothing connects', async () => {
    const before = connections;
    const registry = new ToolRegistry([]);
    for (const [what, schema, rule, path] of cases()) {
      const admitted = admitExternalSchema(schema, 'en');
      expect(admitted.ok, what).toBe(false);
      if (!admitted.ok) expect(admitted.violations.map((v) => [v.rule, v.path]), what).toContainEqual([rule, path]);
      const name = `mcp.intranet.t${registry.names().length}${Math.random().toString(36).slice(2, 8)}`;
      expect(() => registry.add(mcpTool(name, schema), 'mcp:intranet'), what).toThrow(ExternalSchemaRefused);
      expect(registry.get(name), what).toBeUndefined();
    }
    await settle();
    expect(connections).toBe(before);
  });

  it('even past admission, the external validator has no loader: an unresolved reference is an error, not a request', async () => {
    const before = connections;
    for (const dialect of ['draft-07', '2019-09', '2020-12'] as const) {
      const ajv = externalAjv(dialect);
      expect(() => ajv.compile({ type: 'object', properties: { user: { $ref: `${base}/user.json` } } })).toThrow(/can't resolve reference/);
      await expect(Promise.resolve().then(() => ajv.compileAsync({ type: 'object', properties: { user: { $ref: `${base}/user.json` } } }))).rejects.toThrow(/loadSchema/);
    }
    await settle();
    expect(connections).toBe(before);
  });
});
