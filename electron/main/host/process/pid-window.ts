import { readFileSync } from 'node:fs';

/**
 * Which pids a session sweep needs to look at (Linux).
 *
 * Every member of a program's session was forked after the program itself, so its pid was
 * allocated after the program's pid `sid`. Linux allocates pids cyclically: each new pid is the
 * next free number after the last one given, wrapping from pid_max back to the bottom. As long as
 * the allocator has not gone a full turn since `sid`, the members' pids all lie on the arc from
 * `sid` forward to the last pid given out (/proc/loadavg, for our pid namespace); every other pid
 * belongs to a process that is not a member. Reading /proc/<pid>/stat costs ≈25 µs a process and a
 * desktop runs hundreds, while a short command leaves a handful of new pids: the sweep after
 * `true` went from ≈2–5 ms to ≈0.1–0.2 ms (measured on this 2-core VM, 66 processes).
 *
 * How far the allocator went is bounded without trusting the program: each allocation moves it
 * one step plus the pids in use that it skips, and before a full turn each pid is skipped at most
 * once, so the distance is at most forks + (tasks alive at the start + forks). `forks` is the
 * kernel's count of forks since boot (/proc/stat "processes", all namespaces, so it can only
 * over-count ours), `tasks` the count of threads and processes (/proc/loadavg). When the bound
 * reaches half of pid_max, or a counter cannot be read, the sweep reads every pid as before.
 */
export interface PidClock {
  readonly forks: number;
  readonly tasks: number;
  readonly pidMax: number;
}

/** Pids `from`..`to` inclusive, running over pid_max back to the bottom when `to` < `from`. */
export interface PidArc {
  readonly from: number;
  readonly to: number;
  readonly pidMax: number;
}

/** Kernel counters as files, so the arithmetic below is tested with numbers of our choosing. */
export interface PidCounterFiles {
  read(path: '/proc/stat' | '/proc/loadavg' | '/proc/sys/kernel/pid_max'): string | null;
}

export const procCounterFiles: PidCounterFiles = {
  read(path) {
    try {
      return readFileSync(path, 'latin1');
    } catch {
      return null;
    }
  },
};

/** Read just before the program starts; null when the counters are not there (not Linux, no /proc). */
export function readPidClock(files: PidCounterFiles = procCounterFiles): PidClock | null {
  const forks = forkCount(files);
  const tasks = loadavg(files)?.tasks;
  const pidMax = Number(files.read('/proc/sys/kernel/pid_max')?.trim());
  if (forks === null || tasks === undefined || !Number.isSafeInteger(pidMax) || pidMax <= 0) return null;
  return { forks, tasks, pidMax };
}

/**
 * The pids that may belong to the session `sid` started at `clock`, or null for "any pid" (no
 * clock, or the allocator may have gone a full turn). A process forked after this read is not on
 * the arc, just as one forked after /proc was listed was never seen by the full sweep; the
 * re-kills while the output stays open (supervise.ts) look again.
 */
export function sessionPidArc(sid: number, clock: PidClock | null, files: PidCounterFiles = procCounterFiles): PidArc | null {
  if (clock === null) return null;
  const lastPid = loadavg(files)?.lastPid;
  const forksNow = forkCount(files);
  if (lastPid === undefined || forksNow === null) return null;
  const forks = Math.max(0, forksNow - clock.forks);
  if (2 * forks + clock.tasks >= clock.pidMax / 2) return null;
  return { from: sid, to: lastPid, pidMax: clock.pidMax };
}

export function arcHolds(arc: PidArc, pid: number): boolean {
  return arc.to >= arc.from ? pid >= arc.from && pid <= arc.to : pid >= arc.from || pid <= arc.to;
}

/** How many pids the arc spans (pids start at 1). */
export function arcLength(arc: PidArc): number {
  return arc.to >= arc.from ? arc.to - arc.from + 1 : arc.pidMax - arc.from + arc.to;
}

/** Every pid of the arc, in allocation order. */
export function* arcPids(arc: PidArc): Generator<number> {
  if (arc.to >= arc.from) {
    for (let pid = arc.from; pid <= arc.to; pid++) yield pid;
    return;
  }
  for (let pid = arc.from; pid < arc.pidMax; pid++) yield pid;
  for (let pid = 1; pid <= arc.to; pid++) yield pid;
}

function forkCount(files: PidCounterFiles): number | null {
  const stat = files.read('/proc/stat');
  const match = stat === null ? null : /^processes (\d+)$/m.exec(stat);
  const forks = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(forks) ? forks : null;
}

/** "0.37 1.74 2.19 1/82 24001": the fourth field ends in the count of tasks, the fifth is the last pid. */
function loadavg(files: PidCounterFiles): { tasks: number; lastPid: number } | null {
  const fields = files.read('/proc/loadavg')?.trim().split(' ');
  const tasks = Number(fields?.[3]?.split('/')[1]);
  const lastPid = Number(fields?.[4]);
  return Number.isSafeInteger(tasks) && Number.isSafeInteger(lastPid) ? { tasks, lastPid } : null;
}
