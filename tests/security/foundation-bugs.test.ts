import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEventInput, AuditSink } from '../../electron/common/audit-events';
import { openSession, SessionError } from '../../electron/main/runtime/session';
import { useTestGate } from '../helpers/gate-harness';

/** The bugs issue 13 found in the foundation; each of these failed on the main before it. */

describe('a symlink cannot widen the administrator\'s roots', () => {
  let base: string;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'baram-roots-')));
    await mkdir(join(base, 'allowed'));
    await mkdir(join(base, 'elsewhere'));
    await writeFile(join(base, 'elsewhere', 'secret.txt'), 'secret');
    // A link inside the allowed folder that leads out of it.
    await symlink(join(base, 'elsewhere'), join(base, 'allowed', 'link'));
    await writeFile(join(base, 'policy.json'), JSON.stringify({ version: 1, workspaceRoots: [join(base, 'allowed')] }));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('--workspace given as a link inside the roots that leads outside is refused', async () => {
    const opening = openSession({ policyFile: join(base, 'policy.json'), workspace: join(base, 'allowed', 'link'), dataDir: join(base, 'data'), lang: 'en', broker: null });
    await expect(opening).rejects.toThrow(SessionError);
    await expect(opening).rejects.toThrow(/outside the folders the policy allows .*after following its links/);
  });

  it('a user settings root given as such a link is refused with its JSON path', async () => {
    const settings = join(base, 'settings.json');
    await writeFile(settings, JSON.stringify({ workspaceRoots: [join(base, 'allowed', 'link')] }));
    const opening = openSession({ policyFile: join(base, 'policy.json'), userSettingsFile: settings, dataDir: join(base, 'data'), lang: 'en', broker: null });
    await expect(opening).rejects.toThrow(/workspaceRoots\[0\]|\/workspaceRoots\/0/);
  });

  it('a real folder inside the roots still narrows them (positive control)', async () => {
    await mkdir(join(base, 'allowed', 'team'));
    const session = await openSession({ policyFile: join(base, 'policy.json'), workspace: join(base, 'allowed', 'team'), dataDir: join(base, 'data'), lang: 'en', broker: null });
    expect(session.roots).toEqual([join(base, 'allowed', 'team')]);
    await session.close();
  });
});

describe('a result row that cannot be written after the tool ran', () => {
  const open = useTestGate();

  it('returns the tool\'s real result with a warning, never "not run", and records the gap', async () => {
    const written: AuditEventInput[] = [];
    let failFinished = true;
    const sink: AuditSink = {
      async append(e) {
        if (failFinished && e.type === 'execution.finished' && e.data?.blocked !== true) {
          failFinished = false;
          throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
        }
        written.push(e);
        return written.length;
      },
      async close() {},
    };
    const g = await open({ audit: sink, lang: 'en' });
    const r = await g.call('filesystem.write', { path: 'made.txt', content: 'hello\n' });
    expect(readFileSync(join(g.workspace, 'made.txt'), 'utf8')).toBe('hello\n');
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain("Created 'made.txt'");
    expect(r.text).toContain('the tool ran, but its result could not be written to the audit record. Do not repeat the action');
    expect(r.text).not.toMatch(/was not run/);
    const gap = written.find((e) => e.type === 'gate.error');
    expect(gap?.data).toMatchObject({ gap: 'execution.finished not recorded' });
  });
});

describe('a pattern rule and a subject field that is missing, misspelled or of the wrong type', () => {
  const open = useTestGate();
  const sshRule = { rules: { deny: ['filesystem.*(**/.ssh/**)'] } };

  it('a misspelled path gets the schema\'s did-you-mean, not "denied: no target"', async () => {
    const g = await open({ policy: sshRule, files: { 'a.txt': 'x' } });
    const r = await g.call('filesystem.read', { pth: 'a.txt' });
    expect(r.outcome).toBe('invalid');
    expect(r.text).toContain("Unknown parameter 'pth'. Did you mean 'path'? The tool was not executed.");
  });

  it('a path of the wrong type gets the type message', async () => {
    const g = await open({ policy: sshRule });
    const r = await g.call('filesystem.read', { path: 42 });
    expect(r.outcome).toBe('invalid');
    expect(r.text).toContain("Parameter 'path' must be a string");
  });

  it('a missing optional path takes its default (the first root) and the call runs', async () => {
    const g = await open({ policy: sshRule, files: { 'docs/a.txt': 'x' } });
    const r = await g.call('filesystem.search', { namePattern: '*' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('docs/a.txt');
  });

  it('the deny rule still holds for a readable subject (positive control)', async () => {
    const g = await open({ policy: sshRule, files: { '.ssh/id_rsa': 'key' } });
    const r = await g.call('filesystem.read', { path: '.ssh/id_rsa' });
    expect(r.outcome).toBe('denied');
  });

  it('a tool denied outright stays silent about its schema (G-ORDER)', async () => {
    const g = await open({ policy: { rules: { deny: ['filesystem.read', 'filesystem.*(**/.ssh/**)'] } } });
    const r = await g.call('filesystem.read', { pth: 'a.txt' });
    expect(r.outcome).toBe('denied');
    expect(r.text).not.toContain('pth');
    expect(existsSync(join(g.workspace, 'a.txt'))).toBe(false);
  });
});
