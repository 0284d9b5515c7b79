import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createProcessHost, type ProcessHost, type ProcessHostOptions } from '../../electron/main/host/process';
import { defaultShell } from '../../electron/main/policy/defaults';
import type { ShellPolicy } from '../../electron/main/policy/types';

/** A shell policy for tests: the given whitelist, resolved from /usr/bin unless told otherwise. */
export function testShellPolicy(commands: readonly string[], overrides: Partial<ShellPolicy> = {}): ShellPolicy {
  return {
    ...defaultShell('linux'),
    trustedDirs: ['/usr/bin'],
    commands: Object.fromEntries(commands.map((c) => [c, { denyArgs: [] }])),
    ...overrides,
  };
}

export function testHost(commands: readonly string[], overrides: Partial<ShellPolicy> = {}, options: Omit<ProcessHostOptions, 'shell'> = {}): ProcessHost {
  return createProcessHost({ shell: testShellPolicy(commands, overrides), ...options });
}

/** A fresh real temp folder (realpath'd) and its removal. */
export async function tempDir(prefix: string): Promise<{ readonly dir: string; cleanup(): Promise<void> }> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Dead or gone: no /proc entry, or a zombie waiting to be reaped (its parent died and the
 * container's init may never reap it). `process.kill(pid, 0)` cannot tell: it succeeds on zombies.
 */
export function isGone(pid: number): boolean {
  if (process.platform !== 'linux') {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

/** Polls until every pid is gone; returns those still alive after `boundMs`. */
export async function survivorsAfter(pids: readonly number[], boundMs: number): Promise<number[]> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const alive = pids.filter((pid) => !isGone(pid));
    if (alive.length === 0 || Date.now() >= deadline) return alive;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The pids a test program appended to `file`, one a line. */
export async function readPids(file: string): Promise<number[]> {
  let textContent = '';
  try {
    textContent = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  return textContent
    .split('\n')
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}

/** Waits until `file` lists at least `count` pids (or fails after `boundMs`). */
export async function waitForPids(file: string, count: number, boundMs = 5000): Promise<number[]> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const pids = await readPids(file);
    if (pids.length >= count) return pids;
    if (Date.now() >= deadline) throw new Error(`only ${pids.length} of ${count} pids appeared in ${file}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Kills leftovers so a failing test does not leave sleepers behind. */
export function killQuietly(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}
