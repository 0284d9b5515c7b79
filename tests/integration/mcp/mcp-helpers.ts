import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The fixture server: a real MCP server over stdio built on the SDK's own Server. */
export const FIXTURE_SERVER = resolve(__dirname, '..', '..', 'fixtures', 'mcp', 'server.mjs');

/** Node as a policy names it: a bare program name, found in a trusted folder. */
export const NODE_NAME = basename(process.execPath);
export const NODE_DIR = dirname(realpathSync(process.execPath));

/** A server entry of the policy's mcp section running the fixture with `dir` as its marker folder. */
export function fixtureServer(dir: string, extra: Record<string, unknown> = {}, mode = 'normal', more: readonly string[] = []): Record<string, unknown> {
  return { command: NODE_NAME, args: [FIXTURE_SERVER, '--dir', dir, '--mode', mode, ...more], ...extra };
}

export function mcpPolicy(servers: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { shell: { trustedDirs: [NODE_DIR] }, mcp: { servers }, ...extra };
}

/** Pids the fixture wrote as it started, in order (one per start). */
export function startedPids(dir: string): number[] {
  const file = join(dir, 'pids');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
}

/** Whether any fixture process ever started with this marker folder. */
export function everStarted(dir: string): boolean {
  return readdirSync(dir).some((f) => f.startsWith('started-'));
}

/** Alive and not a zombie (Linux /proc; a reaped or killed process is gone). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Waits for a state, never for a time (CI is a loaded machine); fails with what never happened. */
export async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1_500; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never happened: ${what}`);
}
