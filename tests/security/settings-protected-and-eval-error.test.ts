import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readLedgerRows } from '../../electron/main/audit';
import { auditDir } from '../../electron/main/runtime/session';
import { useTestGate } from '../helpers/gate-harness';
import { runCli } from '../helpers/run-cli';

// Each test starts the real CLI once or twice (a few seconds each on a loaded machine); the
// assertions do not depend on how long that takes.
vi.setConfig({ testTimeout: 120_000 });

/**
 * Issue 14, class 13 (the policy and settings items): a `--settings` file inside the workspace was
 * writable by the tools — the agent could rewrite the rules of the next session — and a permission
 * evaluation error reached the ledger without its cause.
 */

let base: string | undefined;
afterEach(async () => {
  if (base) await rm(base, { recursive: true, force: true });
  base = undefined;
});

const SETTINGS = JSON.stringify({ rules: { deny: ['filesystem.delete'] } });

async function world() {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-settings-')));
  const ws = join(base, 'ws');
  const data = join(base, 'data');
  await mkdir(ws);
  const settings = join(ws, 'settings.json');
  await writeFile(settings, SETTINGS);
  const call = (tool: string, args: Record<string, unknown>) =>
    runCli(['call', tool, JSON.stringify(args), '--workspace', ws, '--data-dir', data, '--settings', settings, '--approve', 'all', '--lang', 'en']);
  const ledger = () => [...readLedgerRows(auditDir(data))].map((row) => JSON.parse(row.body) as Record<string, unknown>);
  return { ws, settings, call, ledger };
}

describe('a --settings file inside the workspace is protected like the policy file', () => {
  it('attack: overwriting it (approved) is denied; the file is unchanged; the ledger says protected', async () => {
    const w = await world();
    const r = await w.call('filesystem.write', { path: 'settings.json', content: JSON.stringify({ rules: {} }), overwrite: true });
    expect(r.json().outcome, r.stdout + r.stderr).toBe('denied');
    expect(await readFile(w.settings, 'utf8')).toBe(SETTINGS);
    const decided = w.ledger().filter((e) => e.type === 'permission.decided');
    expect(decided[0]).toMatchObject({ decision: 'deny', rule: 'protected', ruleSource: 'builtin' });
    expect(w.ledger().some((e) => e.type === 'execution.started')).toBe(false);
  });

  it('attack: editing it is denied the same way', async () => {
    const w = await world();
    const r = await w.call('filesystem.edit', { path: 'settings.json', oldText: 'filesystem.delete', newText: 'nothing.at.all' });
    expect(r.json().outcome, r.stdout + r.stderr).toBe('denied');
    expect(await readFile(w.settings, 'utf8')).toBe(SETTINGS);
    expect(w.ledger().filter((e) => e.type === 'permission.decided')[0]).toMatchObject({ decision: 'deny', rule: 'protected' });
    expect(w.ledger().some((e) => e.type === 'approval.requested')).toBe(false);
  });

  it('attack: a --settings path that is a link into the workspace leaves the real file protected', async () => {
    const w = await world();
    const link = join(w.ws, '..', 'settings-link.json');
    await symlink(w.settings, link);
    const r = await runCli(['call', 'filesystem.write', JSON.stringify({ path: 'settings.json', content: '{}', overwrite: true }), '--workspace', w.ws, '--data-dir', join(w.ws, '..', 'data'), '--settings', link, '--approve', 'all', '--lang', 'en']);
    expect(r.json().outcome, r.stdout + r.stderr).toBe('denied');
    expect(await readFile(w.settings, 'utf8')).toBe(SETTINGS);
  });

  it('positive control: another file beside it is written after approval', async () => {
    const w = await world();
    const r = await w.call('filesystem.write', { path: 'notes.txt', content: 'hello' });
    expect(r.json().outcome, r.stdout + r.stderr).toBe('ok');
    expect(await readFile(join(w.ws, 'notes.txt'), 'utf8')).toBe('hello');
    expect(existsSync(w.settings)).toBe(true);
  });
});

describe("a permission evaluation error's cause is in the ledger", () => {
  const open = useTestGate();

  it('attack: a symlink loop makes resolving the path fail; the call is denied and the ledger names the cause', async () => {
    const g = await open();
    await symlink('loop-b', join(g.workspace, 'loop-a'));
    await symlink('loop-a', join(g.workspace, 'loop-b'));
    const r = await g.call('filesystem.read', { path: 'loop-a/x.txt' });
    expect(r.outcome).toBe('denied');
    // The model learns only that the check failed, never the internal error.
    expect(r.text).not.toMatch(/ELOOP/);
    const decided = (await g.auditEvents()).filter((e) => e.type === 'permission.decided');
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({ decision: 'deny', rule: 'evaluation-error', ruleSource: 'builtin' });
    expect(JSON.stringify(decided[0]?.data)).toMatch(/ELOOP/);
  });

  it('positive control: a readable file gets a decision without an error field', async () => {
    const g = await open({ files: { 'a.txt': 'a' } });
    const r = await g.call('filesystem.read', { path: 'a.txt' });
    expect(r.outcome).toBe('ok');
    const decided = (await g.auditEvents()).filter((e) => e.type === 'permission.decided');
    expect(decided[0]).toMatchObject({ decision: 'allow' });
    expect(JSON.stringify(decided[0])).not.toMatch(/"error"/);
  });
});
