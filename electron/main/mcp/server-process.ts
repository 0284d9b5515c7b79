import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killTree, trackLiveTree, untrackLiveTree } from '../host/process/kill-tree';
import { readPidClock, type PidClock } from '../host/process/pid-window';

/**
 * One MCP server process speaking JSON-RPC over stdio, as the SDK's Transport. Not the SDK's own
 * StdioClientTransport, because that one (1.32.2, shared/notes/model-backends.md §e):
 * - inherits stderr unless told otherwise, and merges a default environment into ours;
 * - spawns without a process group, so stopping it leaves the server's children running;
 * - buffers up to 10 MiB per line with no budget per request, so a server can flood memory.
 * Here: the program is the resolved absolute file (no PATH lookup, no shell, no cmd.exe shim),
 * the environment is exactly the one given, stderr is kept as a bounded tail, the server leads
 * its own process group and the whole group dies on close (as host/process does for programs),
 * and every request has a byte budget: a server that sends more is stopped as flooding.
 */
export interface ServerProcessSpec {
  /** Absolute path of the program (resolved in the trusted folders). */
  readonly file: string;
  /** argv[0] as the administrator wrote it ('node'). */
  readonly argv0: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Bytes the server may send after each request (and the largest single message). */
  readonly maxOutputBytes: number;
}

/** Why this process ended, as far as we know. */
export type ExitCause = 'closed' | 'flood' | 'killed' | 'exited' | 'spawn-failed';

export interface ProcessEnd {
  readonly cause: ExitCause;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The last bytes the server wrote to stderr (never shown to the model: untrusted text). */
  readonly stderrTail: string;
  readonly stderrBytes: number;
}

/** Enough of stderr to tell an administrator why a server failed; older bytes are dropped. */
const STDERR_TAIL_BYTES = 8 * 1024;
/** After stdin closes, how long a server may take to exit by itself before its group is killed. */
const GRACE_MS = 300;
/** How long close() waits for the killed group's pipes to close (a process that left the group may hold them). */
const CLOSE_BOUND_MS = 3_000;
/** Messages a server may send after one request before it counts as flooding: a progress note a second for the longest call (600 s) fits three times over. */
const MAX_MESSAGES_PER_REQUEST = 2_000;

export class ServerProcess implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called once when the process has ended, for whatever reason (the server's owner restarts it). */
  onend?: (end: ProcessEnd) => void;

  private child: ChildProcess | undefined;
  private readonly buffer: ReadBuffer;
  private bytesSinceRequest = 0;
  private messagesSinceRequest = 0;
  private stderr = Buffer.alloc(0);
  private stderrBytes = 0;
  private cause: ExitCause | undefined;
  private ended: ProcessEnd | undefined;
  private readonly endWaiters: (() => void)[] = [];
  private clock: PidClock | null = null;

  constructor(private readonly spec: ServerProcessSpec) {
    this.buffer = new ReadBuffer({ maxBufferSize: spec.maxOutputBytes });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Why it ended, once it has (a flood is known before the exit event arrives). */
  get stopCause(): ExitCause | undefined {
    return this.ended?.cause ?? this.cause;
  }

  get end(): ProcessEnd | undefined {
    return this.ended;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('ServerProcess already started');
    const platform = process.platform;
    this.clock = readPidClock();
    const child = spawn(this.spec.file, [...this.spec.args], {
      argv0: this.spec.argv0,
      cwd: this.spec.cwd,
      env: { ...this.spec.env },
      shell: false,
      // A new process group (setsid) on POSIX: one kill reaches the server and every child it starts.
      detached: platform !== 'win32',
      windowsHide: true,
      windowsVerbatimArguments: false,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        this.cause = 'spawn-failed';
        reject(error);
      });
    });
    if (child.pid !== undefined) trackLiveTree(child.pid);
    child.on('error', (error) => this.onerror?.(error));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.keepStderr(chunk));
    child.once('close', (code, signal) => this.finish(code, signal));
  }

  /** A request opens a new budget; responses and notifications spend it. */
  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.ended || this.cause) throw new Error('The MCP server is not running');
    if ('method' in message && 'id' in message) {
      this.bytesSinceRequest = 0;
      this.messagesSinceRequest = 0;
    }
    const line = serializeMessage(message);
    if (!stdin.write(line)) await new Promise<void>((resolve) => stdin.once('drain', resolve));
  }

  /** Stops the server: stdin closed, a short grace, then its whole process group killed. */
  async close(): Promise<void> {
    this.cause ??= 'closed';
    const child = this.child;
    if (!child || this.ended) return;
    child.stdin?.end();
    await this.waitForEnd(GRACE_MS);
    await this.killGroup();
    await this.waitForEnd(CLOSE_BOUND_MS);
    if (!this.ended) {
      // A member that left the group still holds a pipe: stop waiting for it (as host/process does).
      child.stdout?.destroy();
      child.stderr?.destroy();
      this.finish(child.exitCode, child.signalCode);
    }
  }

  /** Kills the server now (a hang or a flood): the reason is kept for the report. */
  async kill(cause: Extract<ExitCause, 'flood' | 'killed'>): Promise<void> {
    this.cause ??= cause;
    await this.close();
  }

  private async killGroup(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    await killTree(child.pid, { platform: process.platform, sweepSession: true, leaderAlive: child.exitCode === null && child.signalCode === null, sessionClock: this.clock });
  }

  private receive(chunk: Buffer): void {
    if (this.cause === 'flood') return;
    this.bytesSinceRequest += chunk.length;
    if (this.bytesSinceRequest > this.spec.maxOutputBytes) return this.flood();
    try {
      this.buffer.append(chunk);
    } catch {
      return this.flood(); // one line longer than the budget
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // Not JSON-RPC (a stray console.log): reported, skipped, like the SDK's own transport.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) break;
      if (++this.messagesSinceRequest > MAX_MESSAGES_PER_REQUEST) return this.flood();
      this.onmessage?.(message);
    }
  }

  private flood(): void {
    this.buffer.clear();
    void this.kill('flood');
  }

  private keepStderr(chunk: Buffer): void {
    this.stderrBytes += chunk.length;
    const joined = Buffer.concat([this.stderr, chunk]);
    this.stderr = joined.length > STDERR_TAIL_BYTES ? joined.subarray(joined.length - STDERR_TAIL_BYTES) : joined;
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.ended) return;
    const pid = this.child?.pid;
    // The leader is gone; its group may not be (a child that kept running): kill what is left.
    if (pid !== undefined) {
      void killTree(pid, { platform: process.platform, sweepSession: true, leaderAlive: false, sessionClock: this.clock }).finally(() => untrackLiveTree(pid));
    }
    this.buffer.clear();
    this.ended = {
      cause: this.cause ?? 'exited',
      code,
      signal,
      stderrTail: this.stderr.toString('utf8'),
      stderrBytes: this.stderrBytes,
    };
    for (const wake of this.endWaiters.splice(0)) wake();
    this.onend?.(this.ended);
    this.onclose?.();
  }

  private waitForEnd(ms: number): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.endWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
