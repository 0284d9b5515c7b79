import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { killTree, sessionMembers, trackLiveTree, untrackLiveTree } from '../process/kill-tree';
import { readPidClock, type PidClock } from '../process/pid-window';

/**
 * One headless browser for one tool call: a fresh profile folder, started as the leader of its own
 * process group (POSIX) so one kill reaches the renderers, the GPU and network services and any
 * helper the browser forks; killed and its profile deleted when the call ends, however it ends.
 *
 * The browser gets no network of its own. Every HTTP(S) request of the page is intercepted and
 * answered by the host (page-network.ts), so the browser never needs to connect anywhere, and
 * these switches make sure it cannot:
 *  - `--proxy-server` points at a sink of ours on 127.0.0.1 that closes every connection, and
 *    `<-loopback>` removes the implicit loopback bypass, so whatever escapes the interception
 *    (a WebSocket from a worker, a preconnect, a future fetch path) goes nowhere;
 *  - `--host-resolver-rules=MAP * ~NOTFOUND`: the browser resolves no name at all (no DNS
 *    rebinding through the browser, no DNS lookups leaking hostnames from the page);
 *  - `--force-webrtc-ip-handling-policy=disable_non_proxied_udp` and `--disable-quic`: no UDP
 *    around the proxy (WebRTC STUN, QUIC);
 *  - background networking, component updates, sync and first-run tasks off.
 * The sink is ours rather than a closed port so no other program can be listening there.
 */

/** Up to 3 s of re-kills: a killed process is gone within milliseconds unless the machine is swamped. */
const SWEEP_ROUNDS = 150;
const SWEEP_PAUSE_MS = 20;

export interface LaunchedBrowser {
  /** The DevTools WebSocket endpoint on 127.0.0.1 (for playwright-core's connectOverCDP). */
  readonly endpoint: string;
  readonly pid: number;
  /** Kills the whole tree, closes the sink, deletes the profile. Idempotent. */
  dispose(): Promise<void>;
}

export type LaunchResult = { readonly ok: true; readonly browser: LaunchedBrowser } | { readonly ok: false; readonly detail: string };

/** Chromium refuses to start as root without it; as any other user the sandbox stays on. */
function sandboxArgs(): string[] {
  return process.platform === 'linux' && typeof process.getuid === 'function' && process.getuid() === 0 ? ['--no-sandbox'] : [];
}

export function browserArgs(profile: string, sinkPort: number): string[] {
  return [
    '--headless',
    ...sandboxArgs(),
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--disable-default-apps',
    '--disable-breakpad',
    '--mute-audio',
    '--hide-scrollbars',
    '--password-store=basic',
    '--use-mock-keychain',
    `--user-data-dir=${profile}`,
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    `--proxy-server=http://127.0.0.1:${sinkPort}`,
    '--proxy-bypass-list=<-loopback>',
    '--host-resolver-rules=MAP * ~NOTFOUND',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    'about:blank',
  ];
}

async function openSink(): Promise<net.Server> {
  const sink = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    sink.once('error', reject);
    sink.listen(0, '127.0.0.1', () => resolve());
  });
  return sink;
}

/** Chromium prints "DevTools listening on ws://…" on stderr once it accepts connections. */
function endpointOf(child: ChildProcess, signal: AbortSignal, startTimeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const finish = (error: Error | null, endpoint?: string) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      // Keep draining stderr so a chatty browser never blocks on a full pipe.
      child.stderr?.resume();
      if (error) reject(error);
      else resolve(endpoint ?? '');
    };
    const onData = (chunk: Buffer) => {
      // Only the tail matters; a browser logging megabytes before it is ready must not grow this.
      seen = (seen + chunk.toString('utf8')).slice(-8192);
      const match = /DevTools listening on (ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/[\w-]+)/.exec(seen);
      if (match?.[1]) finish(null, match[1]);
    };
    const onExit = (code: number | null) => finish(new Error(`exited with code ${String(code)} before it was ready: ${seen.trim().slice(-500)}`));
    const onError = (e: Error) => finish(e);
    const onAbort = () => finish(new Error('aborted'));
    const timer = setTimeout(() => finish(new Error(`not ready after ${startTimeoutMs} ms`)), startTimeoutMs);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function launchBrowser(executable: string, signal: AbortSignal, startTimeoutMs: number): Promise<LaunchResult> {
  const profile = await mkdtemp(path.join(tmpdir(), 'baram-browser-'));
  const sink = await openSink();
  const sinkPort = (sink.address() as net.AddressInfo).port;
  let child: ChildProcess | null = null;
  let clock: PidClock | null = null;
  let disposed: Promise<void> | null = null;
  const dispose = () =>
    (disposed ??= (async () => {
      if (child?.pid !== undefined) {
        const pid = child.pid;
        const alive = child.exitCode === null && child.signalCode === null;
        await killTree(pid, { platform: process.platform, sweepSession: true, leaderAlive: alive, sessionClock: clock });
        if (alive) await new Promise<void>((resolve) => (child?.exitCode !== null || child?.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
        // The browser's helpers may outlive the leader by a moment (a SIGKILL takes effect
        // asynchronously): sweep until none is left, so no process outlives the call that started it.
        for (let round = 0; round < SWEEP_ROUNDS; round++) {
          await killTree(pid, { platform: process.platform, sweepSession: true, leaderAlive: false, sessionClock: clock });
          if (process.platform !== 'linux' || sessionMembers(pid, clock).length === 0) break;
          await new Promise((resolve) => setTimeout(resolve, SWEEP_PAUSE_MS));
        }
        untrackLiveTree(pid);
      }
      await new Promise<void>((resolve) => sink.close(() => resolve()));
      // Chromium may still be writing its profile for a moment after the kill; retry the delete.
      await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    })());
  try {
    clock = process.platform === 'linux' ? readPidClock() : null;
    child = spawn(executable, browserArgs(profile, sinkPort), {
      // A new process group (setsid) on POSIX: one kill(-pid) reaches every helper process.
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'ignore', 'pipe'],
      windowsHide: true,
      // Nothing from Baram's environment that could steer the browser (proxies, Chrome's own
      // variables); HOME and the temp folder so it can start, the display settings it may read.
      env: browserEnv(process.env),
    });
    if (child.pid !== undefined) trackLiveTree(child.pid);
    const endpoint = await endpointOf(child, signal, startTimeoutMs);
    return { ok: true, browser: { endpoint, pid: child.pid ?? -1, dispose } };
  } catch (e) {
    await dispose();
    return { ok: false, detail: e instanceof Error ? e.message : String(e) };
  }
}

/** What a browser needs to start on each platform (Windows' system folders and identity included); no proxies, no tokens. */
const PASSED_ENV = [
  'PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'XDG_RUNTIME_DIR', 'FONTCONFIG_PATH',
  'USERPROFILE', 'LOCALAPPDATA', 'APPDATA', 'TEMP', 'TMP', 'SystemRoot', 'SystemDrive', 'windir', 'ProgramData',
  'ProgramFiles', 'ProgramFiles(x86)', 'CommonProgramFiles', 'NUMBER_OF_PROCESSORS', 'PROCESSOR_ARCHITECTURE', 'USERNAME', 'COMPUTERNAME', 'OS', 'PATHEXT',
];

function browserEnv(from: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of PASSED_ENV) if (from[name] !== undefined) env[name] = from[name];
  return env;
}
