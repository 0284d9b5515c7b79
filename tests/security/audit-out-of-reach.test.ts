import { readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSegments, sealKeyPath, verifyLedger } from '../../electron/main/audit';
import { auditDir, openSession, SessionError } from '../../electron/main/runtime/session';
import { useTestGate } from '../helpers/gate-harness';

/** SPEC §3: "The agent's own tools can never read or write the audit directory." */
const open = useTestGate();

describe('the audit folder is out of the tools\' reach', () => {
  it('by link, by absolute path and by glob: every tool is refused and the ledger is untouched', async () => {
    const g = await open({ approve: 'all' });
    const audit = auditDir(g.session.dataDir);
    symlinkSync(audit, join(g.workspace, 'audit-link'));
    const key = readFileSync(sealKeyPath(audit));
    const segment = listSegments(audit)[0]?.file ?? '';
    const attempts: [string, Record<string, unknown>][] = [
      ['filesystem.read', { path: 'audit-link/seal.key' }],
      ['filesystem.read', { path: segment }],
      ['filesystem.list', { path: 'audit-link' }],
      ['filesystem.info', { path: join(audit, 'seal.key') }],
      ['filesystem.search', { path: 'audit-link', namePattern: '*' }],
      ['search.text', { pattern: 'session', path: 'audit-link' }],
      ['filesystem.write', { path: 'audit-link/seal.key', content: 'x', overwrite: true }],
      ['filesystem.edit', { path: segment, oldText: 'a', newText: 'b' }],
      ['filesystem.delete', { path: 'audit-link/*.sqlite3' }],
      ['filesystem.move', { from: 'audit-link/seal.key', to: 'stolen.key' }],
      ['filesystem.copy', { from: segment, to: 'copy.sqlite3' }],
    ];
    for (const [tool, args] of attempts) {
      const r = await g.call(tool, args);
      expect({ tool, args, outcome: r.outcome }).not.toMatchObject({ outcome: 'ok' });
    }
    expect(readFileSync(sealKeyPath(audit)).equals(key)).toBe(true);
    expect(verifyLedger(audit)).toMatchObject({ ok: true });
  });

  it('a data folder inside the workspace is refused before any session starts', async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-reach-')));
    try {
      await expect(openSession({ workspace: base, dataDir: join(base, 'data'), lang: 'en', broker: null })).rejects.toThrow(SessionError);
      await expect(openSession({ workspace: base, dataDir: join(base, 'data'), lang: 'en', broker: null })).rejects.toThrow(/must not lie inside the workspace/);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
