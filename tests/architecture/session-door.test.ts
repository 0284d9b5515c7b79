import { describe, expect, it } from 'vitest';
import { useTestGate } from '../helpers/gate-harness';

/**
 * Issue 13, "the only door": a Session hands out the gate and read-only views, never a raw
 * capability. Walks everything reachable from a real session object at run time (own properties,
 * enumerable or not) and fails on anything that could touch the machine or run a tool directly.
 */
const open = useTestGate();

/** Method names of FileAccess, ProcessCapability, HttpCapability, SshCapability, SystemCapability and a tool. */
const CAPABILITY_METHODS = new Set(['writeAtomic', 'mkdir', 'move', 'copy', 'trash', 'restore', 'readBytes', 'readTree', 'run', 'start', 'stop', 'read', 'request', 'download', 'snapshot', 'execute', 'append']);

function reachableMethods(root: unknown): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown, path: string, depth: number) => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value) || depth > 8) return;
    seen.add(value);
    for (const key of Object.getOwnPropertyNames(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      const child = descriptor && 'value' in descriptor ? descriptor.value : undefined;
      if (typeof child === 'function' && CAPABILITY_METHODS.has(key)) found.push(`${path}.${key}`);
      if (typeof child === 'object') walk(child, `${path}.${key}`, depth + 1);
    }
  };
  walk(root, 'session', 0);
  return found;
}

describe('Session', () => {
  it('exposes the gate and read-only views only', async () => {
    const g = await open();
    expect(Object.keys(g.session).sort()).toEqual(['close', 'dataDir', 'gate', 'policy', 'roots', 'sessionId']);
    expect(reachableMethods(g.session)).toEqual([]);
    // The gate's own state (host capabilities, the registry whose tools carry execute) is held in
    // ECMAScript private fields: nothing of it is a property.
    expect(Object.getOwnPropertyNames(g.session.gate)).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.getPrototypeOf(g.session.gate)).sort()).toEqual([
      'addTool',
      'call',
      'constructor',
      // The two ledger records of a user request (issue 16): append-only events, no capability.
      'finishRequest',
      'recordRequest',
      'removeTool',
      // Issue 17's settings: copies of the "allow for this session" grants, and their withdrawal
      // (it only tightens, and is recorded). Neither reaches a capability.
      'revokeSessionGrants',
      'sessionGrants',
      'start',
      'stop',
      'tools',
      'toolsetDigest',
    ]);
  });

  it('the walk finds a raw capability where there is one (the check can fail)', () => {
    const leaky = { gate: {}, files: { writeAtomic: () => undefined } };
    expect(reachableMethods(leaky)).toEqual(['session.files.writeAtomic']);
  });
});
