import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { arcHolds, arcLength, arcPids, sessionPidArc, type PidClock } from './pid-window';

/**
 * Whole-tree kills (SPEC S-SHELL: "on timeout the whole process tree dies … grandchildren born
 * after start die too").
 *
 * POSIX: every program starts as the leader of a new session and process group (spawn with
 * `detached`, i.e. setsid()), and its children and grandchildren inherit the group. One
 * kill(-pgid, SIGKILL) reaches all of them, including a grandchild whose parent already died
 * (reparenting does not change the group), which walking the parent tree would miss.
 * A descendant can leave the group (setpgid, e.g. bash job control `set -m`) but not the session
 * without setsid(); on Linux we also sweep /proc for members of the session. A process that called
 * setsid() itself is out of reach of both (only a cgroup or PR_SET_CHILD_SUBREAPER would hold it);
 * the runner then stops waiting for it and reports `outputForceClosed`.
 *
 * Group ids are pids. The kernel does not reuse a pid while a group or session of that id still
 * has members, so a kill aimed at a group whose members are all gone finds nothing (ESRCH); a
 * stranger would have to receive that exact pid and make itself a group leader in between, which
 * sequential pid allocation over a 4-million range makes practically impossible.
 *
 * Windows (cannot run here; written to be read): `taskkill /PID n /T /F` ends the process and the
 * children it can find by parent id. taskkill is started by absolute path from SystemRoot, because
 * CreateProcess looks for a bare name in the CURRENT folder first and the current folder may be the
 * workspace. /T cannot find a grandchild whose parent already exited (Windows keeps no group); a
 * Job Object with KILL_ON_JOB_CLOSE is the complete answer and needs native code Node does not ship.
 */

/** True when at least one process received the signal. */
export function killGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, 'SIGKILL');
    return true;
  } catch {
    return false; // ESRCH: nobody left. EPERM: only processes we may not signal (a setuid program) remain.
  }
}

/**
 * Linux: live processes whose session id is `sid` (field 6 of /proc/<pid>/stat). Elsewhere, or
 * without /proc: none. Synchronous on purpose: reading /proc costs ≈25–35 µs per process, while the
 * same reads through the thread pool took 30–50 ms of latency. With the pid clock read when the
 * session began, only the pids given out since are read, one by one when they are few
 * (pid-window.ts); without it, every process listed in /proc.
 */
export function sessionMembers(sid: number, clock: PidClock | null): number[] {
  if (process.platform !== 'linux') return [];
  const arc = sessionPidArc(sid, clock);
  let candidates: Iterable<number>;
  if (arc !== null && arcLength(arc) <= PROBE_AT_MOST) {
    candidates = arcPids(arc);
  } else {
    try {
      candidates = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
    } catch {
      return [];
    }
  }
  const members: number[] = [];
  for (const pid of candidates) {
    if (arc !== null && !arcHolds(arc, pid)) continue;
    if (sessionOf(pid) === sid) members.push(pid);
  }
  return members;
}

/**
 * Probing a pid that is not there costs one failed open and its exception, ≈5–10 µs; listing /proc
 * costs ≈60 µs. After a short command the arc holds the program and a few children.
 */
const PROBE_AT_MOST = 16;

/** The session id of a live process; null when it is gone, a zombie, or unreadable. */
function sessionOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // "pid (comm) state ppid pgrp session …"; comm may contain spaces and parentheses.
    const [state, , , session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return state === 'Z' || state === 'X' ? null : Number(session);
  } catch {
    return null; // exited while we looked
  }
}

export interface TreeKillOptions {
  readonly platform: NodeJS.Platform;
  /** Also sweep the session for members that left the group (Linux). */
  readonly sweepSession: boolean;
  /**
   * Also signal the program's own pid, which only makes sense while it runs: once it has exited
   * and been reaped its pid is free, and unlike a group id a free pid can go to a stranger.
   */
  readonly leaderAlive: boolean;
  /** The pid clock read just before the program started (Linux), to narrow the sweep. */
  readonly sessionClock?: PidClock | null;
}

/** Kills the tree of the program started as `pid`. True when something was still alive. */
export async function killTree(pid: number, options: TreeKillOptions): Promise<boolean> {
  // Windows reuses pids quickly and has no group to anchor them: once the program has exited, its
  // pid may name a stranger's process tree, so taskkill runs only while the program is alive.
  if (options.platform === 'win32') return options.leaderAlive ? taskkill(pid) : false;
  let killed = killGroup(pid);
  // The program itself as well: should the group kill fail (EPERM from a setuid member, say),
  // its exit still ends the wait, and the re-kills go on for the rest.
  if (options.leaderAlive) killed = killOne(pid) || killed;
  if (options.sweepSession) {
    for (const member of sessionMembers(pid, options.sessionClock ?? null)) killed = killOne(member) || killed;
  }
  return killed;
}

function killOne(pid: number): boolean {
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

function taskkillPath(): string {
  return path.win32.join(process.env['SystemRoot'] ?? 'C:\\Windows', 'System32', 'taskkill.exe');
}

function taskkill(pid: number): Promise<boolean> {
  return new Promise((resolve) => {
    // Exit code 0: something was ended; 128: no such process.
    execFile(taskkillPath(), ['/PID', String(pid), '/T', '/F'], { windowsHide: true, timeout: 10_000 }, (error) => resolve(error === null));
  });
}

/**
 * Trees still running when this process exits (a crash, or an app quit that skipped the session's
 * closeAll) are killed from the 'exit' handler, which must be synchronous. A SIGKILL of Baram itself
 * runs no handler at all; nothing in-process can cover that.
 */
const liveTrees = new Set<number>();
let exitHookInstalled = false;

export function trackLiveTree(pid: number): void {
  liveTrees.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', killLiveTreesNow);
  }
}

export function untrackLiveTree(pid: number): void {
  liveTrees.delete(pid);
}

function killLiveTreesNow(): void {
  for (const pid of liveTrees) {
    if (process.platform === 'win32') {
      try {
        execFileSync(taskkillPath(), ['/PID', String(pid), '/T', '/F'], { windowsHide: true, timeout: 5_000, stdio: 'ignore' });
      } catch {
        /* already gone */
      }
    } else {
      killGroup(pid);
    }
  }
  liveTrees.clear();
}
