import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/** shell.execute / shell.output through the real gate: rendering exactly as SPEC S-SHELL says. */
const open = useTestGate();
const POLICY = {
  version: 1,
  shell: { commands: { ls: {}, yes: {}, sleep: {}, echo: {}, diff: {} }, trustedDirs: ['/usr/bin', '/bin'], maxOutputChars: 1000 },
};

describe('shell.execute', () => {
  it('success: the output, nothing appended', async () => {
    const g = await open({ policy: POLICY, files: { 'a.txt': '1' } });
    const r = await g.call('shell.execute', { command: 'ls' });
    expect(r).toMatchObject({ outcome: 'ok', text: 'a.txt\n' });
    expect(g.approvals[0]?.risk).toBe('execute');
  });

  it('a non-zero exit is a value: the merged output, then [exit code: N] after it', async () => {
    const g = await open({ policy: POLICY });
    const r = await g.call('shell.execute', { command: 'ls', args: ['없는-파일'] });
    expect(r.outcome).toBe('ok');
    expect(r.text).toMatch(/^ls: .*없는-파일.*\n\n\[exit code: 2\]$/s);
    expect(r.text.startsWith('Command failed')).toBe(false);
  });

  it('exit code 1 with output renders exactly: the output, a blank line, [exit code: 1]', async () => {
    const g = await open({ policy: POLICY, files: { 'a.txt': '예산 100\n', 'b.txt': '예산 120\n' } });
    const r = await g.call('shell.execute', { command: 'diff', args: ['a.txt', 'b.txt'] });
    expect(r).toMatchObject({ outcome: 'ok', text: '1c1\n< 예산 100\n---\n> 예산 120\n\n[exit code: 1]' });
  });

  it('a timeout keeps the partial output, cut at the budget, and puts the marker after the cut', async () => {
    const g = await open({ policy: POLICY });
    const r = await g.call('shell.execute', { command: 'yes', args: ['바람'], timeoutMs: 1000 });
    expect(r.outcome).toBe('timeout');
    expect(r.text.startsWith('바람\n바람\n')).toBe(true);
    expect(r.text).toMatch(/\n\[output truncated: showing the first 1000 of \d+ characters[^\n]*\]\n\[timed out after 1000 ms\]$/);
  });

  it('clamps the timeout to at least one second', async () => {
    const g = await open({ policy: POLICY });
    const r = await g.call('shell.execute', { command: 'sleep', args: ['5'], timeoutMs: 1 });
    expect(r.outcome).toBe('timeout');
    expect(r.text).toBe('[timed out after 1000 ms]');
  });

  it('background: a task id now, its output through shell.output, stopped on request', async () => {
    const g = await open({ policy: POLICY });
    const started = await g.call('shell.execute', { command: 'yes', args: ['tick'], background: true });
    expect(started.outcome).toBe('ok');
    const taskId = (started.details as { taskId: string }).taskId;
    expect(taskId).toMatch(/^task-[0-9a-f]{12}$/);
    await new Promise((r) => setTimeout(r, 200));
    const read = await g.call('shell.output', { taskId });
    expect(read.outcome).toBe('ok');
    expect(read.text.startsWith('tick\ntick\n')).toBe(true);
    const stopped = await g.call('shell.output', { taskId, stop: true });
    expect(stopped.text).toMatch(/\[stopped\]$/);
    const unknown = await g.call('shell.output', { taskId: 'task-000000000000' });
    expect(unknown.outcome).toBe('refused');
  });

  it('tasks die with the session: no process of the task survives close', async () => {
    const g = await open({ policy: POLICY });
    const started = await g.call('shell.execute', { command: 'sleep', args: ['31.4159'], background: true });
    expect(started.outcome).toBe('ok');
    const running = () =>
      readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .some((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').includes('sleep 31.4159');
          } catch {
            return false;
          }
        });
    expect(running()).toBe(true);
    await g.session.close();
    expect(running()).toBe(false);
  });
});
