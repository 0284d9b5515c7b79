import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readLedgerRows } from '../../electron/main/audit';
import { auditDir } from '../../electron/main/runtime/session';
import { runCli } from '../helpers/run-cli';

// Each test starts the real CLI once or twice (a few seconds each on a loaded machine); the
// assertions do not depend on how long that takes.
vi.setConfig({ testTimeout: 120_000 });

/**
 * Issue 14, class 2: user settings widened the admin policy. A user `ask` rule ranked above the
 * administrator's default `deny`, so with an approver a denied tool ran. Now every decision is the
 * stricter of the admin policy alone and the merged one (SPEC §8), and a settings file whose ask
 * rule could only widen is refused at merge with its JSON path. Everything runs through the real
 * `baram call`, with `--approve all` standing in for a user who says yes to everything; effects
 * are checked on disk and in the ledger.
 */

interface World {
  readonly base: string;
  readonly ws: string;
  readonly data: string;
  readonly policy: string;
  readonly settings: string;
}

let world: World | undefined;
afterEach(async () => {
  if (world) await rm(world.base, { recursive: true, force: true });
  world = undefined;
});

async function setUp(policy: Record<string, unknown>, settings: Record<string, unknown>, files: Record<string, string> = {}): Promise<World> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-widen-')));
  const ws = join(base, 'ws');
  const data = join(base, 'data');
  await mkdir(ws);
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(join(ws, rel, '..'), { recursive: true });
    await writeFile(join(ws, rel), content);
  }
  const policyFile = join(base, 'policy.json');
  const settingsFile = join(base, 'settings.json');
  await writeFile(policyFile, JSON.stringify({ version: 1, ...policy }));
  await writeFile(settingsFile, JSON.stringify(settings));
  world = { base, ws, data, policy: policyFile, settings: settingsFile };
  return world;
}

function call(w: World, tool: string, args: Record<string, unknown>) {
  return runCli(['call', tool, JSON.stringify(args), '--workspace', w.ws, '--data-dir', w.data, '--policy', w.policy, '--settings', w.settings, '--approve', 'all', '--lang', 'en']);
}

function ledger(w: World): Record<string, unknown>[] {
  if (!existsSync(auditDir(w.data))) return [];
  return [...readLedgerRows(auditDir(w.data))].map((row) => JSON.parse(row.body) as Record<string, unknown>);
}

const decisions = (w: World) => ledger(w).filter((e) => e.type === 'permission.decided');
const ran = (w: World) => ledger(w).filter((e) => e.type === 'execution.started');

describe('a user ask rule cannot lift an admin default deny (evaluation: stricter of admin alone and merged)', () => {
  // The admin allows moves that stay inside notes/ and denies every other write by default. The
  // user, tightening, asks to be asked before moves in notes/. An ask rule matches when ANY end of
  // the move matches, an allow rule only when EVERY end does: on the old code the user's rule made
  // "notes/a.txt → public/a.txt" (admin: deny) an ask, and the approver let it through. The merge
  // cannot refuse this rule (its pattern is the admin's own); only the evaluation can hold.
  const policy = { defaults: { write: 'deny' }, rules: { allow: ['filesystem.move(notes/**)'] } };
  const settings = { rules: { ask: ['filesystem.move(notes/**)'] } };

  it('attack: moving a file out of notes/ stays denied, nothing moves, the ledger names the admin default', async () => {
    const w = await setUp(policy, settings, { 'notes/a.txt': 'secret notes', 'public/.keep': '' });
    const r = await call(w, 'filesystem.move', { from: 'notes/a.txt', to: 'public/a.txt' });
    expect(r.json().outcome, r.stdout + r.stderr).toBe('denied');
    expect(r.code).toBe(3);
    expect(await readFile(join(w.ws, 'notes/a.txt'), 'utf8')).toBe('secret notes');
    expect(existsSync(join(w.ws, 'public/a.txt'))).toBe(false);
    const [decided] = decisions(w);
    expect(decided).toMatchObject({ decision: 'deny', rule: 'defaults.write', ruleSource: 'admin' });
    expect(ledger(w).some((e) => e.type === 'approval.requested')).toBe(false);
    expect(ran(w)).toEqual([]);
  });

  it('positive control: a move inside notes/ is asked by the user rule, approved and done', async () => {
    const w = await setUp(policy, settings, { 'notes/a.txt': 'secret notes' });
    const r = await call(w, 'filesystem.move', { from: 'notes/a.txt', to: 'notes/b.txt' });
    expect(r.json().outcome, r.stdout + r.stderr).toBe('ok');
    expect(await readFile(join(w.ws, 'notes/b.txt'), 'utf8')).toBe('secret notes');
    expect(existsSync(join(w.ws, 'notes/a.txt'))).toBe(false);
    expect(decisions(w)[0]).toMatchObject({ decision: 'ask', rule: 'filesystem.move(notes/**)', ruleSource: 'user' });
    expect(ledger(w).some((e) => e.type === 'approval.requested')).toBe(true);
    expect(ran(w)).toHaveLength(1);
  });
});

describe('a settings file whose ask rule could only widen is refused at merge, with its JSON path', () => {
  it('attack: ask filesystem.write under an admin default deny: no session, nothing written, the path is named', async () => {
    const w = await setUp({ defaults: { write: 'deny' } }, { rules: { deny: ['filesystem.delete'], ask: ['filesystem.write'] } });
    const r = await call(w, 'filesystem.write', { path: 'out.txt', content: 'written' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('$.rules.ask[0]');
    expect(r.stderr).toMatch(/filesystem\.write/);
    expect(r.stderr).toMatch(/defaults\.write is 'deny'/);
    expect(existsSync(join(w.ws, 'out.txt'))).toBe(false);
    // Refused before the ledger is opened: no call was ever recorded as decided.
    expect(decisions(w)).toEqual([]);
  });

  it('attack: ask shell.execute under an admin default deny is refused the same way', async () => {
    const w = await setUp({ defaults: { execute: 'deny' }, shell: { commands: { touch: {} } } }, { rules: { ask: ['shell.execute(touch:*)'] } });
    const r = await call(w, 'shell.execute', { command: 'touch', args: ['made-by-shell'] });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('$.rules.ask[0]');
    expect(r.stderr).toMatch(/shell\.execute/);
    expect(existsSync(join(w.ws, 'made-by-shell'))).toBe(false);
    expect(decisions(w)).toEqual([]);
  });

  it('positive control: the same ask rule under an admin default ask loads, asks and runs', async () => {
    const w = await setUp({ defaults: { write: 'ask' } }, { rules: { ask: ['filesystem.write'] } });
    const r = await call(w, 'filesystem.write', { path: 'out.txt', content: 'written' });
    expect(r.json().outcome, r.stdout + r.stderr).toBe('ok');
    expect(await readFile(join(w.ws, 'out.txt'), 'utf8')).toBe('written');
    expect(decisions(w)[0]).toMatchObject({ decision: 'ask', rule: 'filesystem.write', ruleSource: 'user' });
  });

  it('positive control: a user ask rule tightening an admin allow under a default deny loads and asks', async () => {
    const w = await setUp({ defaults: { write: 'deny' }, rules: { allow: ['filesystem.write(notes/**)'] } }, { rules: { ask: ['filesystem.write(notes/**)'] } });
    const r = await call(w, 'filesystem.write', { path: 'notes/n.txt', content: 'note' });
    expect(r.json().outcome, r.stdout + r.stderr).toBe('ok');
    expect(decisions(w)[0]).toMatchObject({ decision: 'ask', ruleSource: 'user' });
    expect(await readFile(join(w.ws, 'notes/n.txt'), 'utf8')).toBe('note');
    // …and outside notes/ the admin's default deny still decides.
    const outside = await call(w, 'filesystem.write', { path: 'other.txt', content: 'x' });
    expect(outside.json().outcome).toBe('denied');
    expect(existsSync(join(w.ws, 'other.txt'))).toBe(false);
  });
});
