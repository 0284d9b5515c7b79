import { describe, expect, it } from 'vitest';
import { arcHolds, arcLength, arcPids, readPidClock, sessionPidArc, type PidCounterFiles } from '../../../electron/main/host/process/pid-window';

/** Kernel counter files as given. */
function files(contents: Partial<Record<string, string | null>>): PidCounterFiles {
  return { read: (path) => contents[path] ?? null };
}

/** The same, written from numbers. */
function counters(s: { forks: number; tasks: number; lastPid: number; pidMax: number }): PidCounterFiles {
  return files({
    '/proc/stat': `cpu  10 0 10 100 0 0 0 0 0 0\nctxt 123\nbtime 1700000000\nprocesses ${s.forks}\nprocs_running 1\n`,
    '/proc/loadavg': `0.37 1.74 2.19 1/${s.tasks} ${s.lastPid}\n`,
    '/proc/sys/kernel/pid_max': `${s.pidMax}\n`,
  });
}

describe('the pid clock read before a program starts', () => {
  it('reads forks since boot, live tasks and pid_max', () => {
    expect(readPidClock(counters({ forks: 251207, tasks: 82, lastPid: 24001, pidMax: 32768 }))).toEqual({ forks: 251207, tasks: 82, pidMax: 32768 });
  });

  it('is null when a counter is missing or unreadable, so the sweep reads every pid', () => {
    const good = { '/proc/stat': 'processes 10\n', '/proc/loadavg': '0 0 0 1/50 400\n', '/proc/sys/kernel/pid_max': '32768\n' };
    expect(readPidClock(files(good))).not.toBeNull();
    expect(readPidClock(files({ ...good, '/proc/stat': null }))).toBeNull();
    expect(readPidClock(files({ ...good, '/proc/stat': 'intr 5\n' }))).toBeNull();
    expect(readPidClock(files({ ...good, '/proc/loadavg': 'garbage' }))).toBeNull();
    expect(readPidClock(files({ ...good, '/proc/sys/kernel/pid_max': '' }))).toBeNull();
  });
});

describe('which pids a session sweep reads', () => {
  const clock = { forks: 1000, tasks: 80, pidMax: 32768 };

  it('only the pids given out since the program started: from its pid to the last pid', () => {
    const arc = sessionPidArc(24001, clock, counters({ forks: 1003, tasks: 83, lastPid: 24003, pidMax: 32768 }));
    expect(arc).toEqual({ from: 24001, to: 24003, pidMax: 32768 });
    expect([...arcPids(arc!)]).toEqual([24001, 24002, 24003]);
    expect(arcHolds(arc!, 24000)).toBe(false); // older: cannot be a member
    expect(arcHolds(arc!, 24004)).toBe(false); // given out after we looked
  });

  it('across the wrap from pid_max back to the bottom', () => {
    const arc = sessionPidArc(32760, clock, counters({ forks: 1020, tasks: 80, lastPid: 5, pidMax: 32768 }))!;
    expect(arcLength(arc)).toBe(13);
    expect([...arcPids(arc)]).toEqual([32760, 32761, 32762, 32763, 32764, 32765, 32766, 32767, 1, 2, 3, 4, 5]);
    expect(arcHolds(arc, 32767)).toBe(true);
    expect(arcHolds(arc, 3)).toBe(true);
    expect(arcHolds(arc, 6)).toBe(false);
    expect(arcHolds(arc, 32759)).toBe(false);
  });

  it('every pid once so many forks happened that the allocator may have come round again', () => {
    // 2 × forks + tasks at the start ≥ pid_max / 2: a full turn cannot be ruled out.
    const many = 1000 + Math.ceil((32768 / 2 - 80) / 2);
    expect(sessionPidArc(24001, clock, counters({ forks: many, tasks: 80, lastPid: 24100, pidMax: 32768 }))).toBeNull();
    expect(sessionPidArc(24001, clock, counters({ forks: many - 1, tasks: 80, lastPid: 24100, pidMax: 32768 }))).not.toBeNull();
    // A full turn that lands just past the start would look like a tiny arc: the fork count catches it.
    expect(sessionPidArc(24001, clock, counters({ forks: 1000 + 40000, tasks: 80, lastPid: 24002, pidMax: 32768 }))).toBeNull();
  });

  it('every pid without a clock, or when the counters cannot be read now', () => {
    expect(sessionPidArc(24001, null, counters({ forks: 1001, tasks: 80, lastPid: 24001, pidMax: 32768 }))).toBeNull();
    expect(sessionPidArc(24001, clock, files({ '/proc/stat': 'processes 1001\n' }))).toBeNull();
    expect(sessionPidArc(24001, clock, files({ '/proc/loadavg': '0 0 0 1/80 24001\n' }))).toBeNull();
  });

  it('on this machine: the real counters give an arc that holds a process started after the clock', async () => {
    if (process.platform !== 'linux') return;
    const { spawnSync } = await import('node:child_process');
    const before = readPidClock();
    expect(before).not.toBeNull();
    const child = spawnSync('/bin/sh', ['-c', 'echo $$'], { encoding: 'utf8' });
    const pid = Number(child.stdout.trim());
    const arc = sessionPidArc(pid, before);
    expect(arc).not.toBeNull();
    expect(arcHolds(arc!, pid)).toBe(true);
  });
});
