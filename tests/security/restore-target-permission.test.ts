import { answerTo, type ApprovalBroker } from '../../electron/common/approval';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../electron/main/runtime/session';

/**
 * filesystem.restore takes a trashId, not a path, so its own subject is empty; the file it puts back
 * still lands at a path. The gate judges every planned target as a PATH, so a deny rule the admin
 * added after the delete stops the restore (docs/2026-12-02-gate-pipeline.md).
 */
let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-restore-')));
  await mkdir(join(base, 'ws', 'locked'), { recursive: true });
  await writeFile(join(base, 'ws', 'locked', 'a.txt'), 'kept');
});
afterAll(async () => rm(base, { recursive: true, force: true }));

const allowAll: ApprovalBroker = { request: async (request) => answerTo(request, 'allow-once', 'test') };

describe('restore into a denied folder', () => {
  it('is denied by the target check even though restore has no path argument', async () => {
    const first = await openSession({ workspace: join(base, 'ws'), dataDir: join(base, 'data'), lang: 'en', broker: allowAll });
    const deleted = await first.gate.call({ tool: 'filesystem.delete', args: { path: 'locked/a.txt' } });
    await first.close();
    expect(deleted.outcome).toBe('ok');
    const trashId = (deleted.details as { trash: { trashId: string }[] }).trash[0]!.trashId;

    const policyFile = join(base, 'policy.json');
    await writeFile(policyFile, JSON.stringify({ version: 1, rules: { deny: ['filesystem.*(**/locked/**)'] } }));
    const second = await openSession({ policyFile, workspace: join(base, 'ws'), dataDir: join(base, 'data'), lang: 'en', broker: allowAll });
    const restored = await second.gate.call({ tool: 'filesystem.restore', args: { trashId } });
    await second.close();
    expect(restored.outcome).toBe('denied');
    expect(restored.decision).toMatchObject({ decision: 'deny', rule: 'filesystem.*(**/locked/**)', source: 'admin' });
    expect(existsSync(join(base, 'ws', 'locked', 'a.txt'))).toBe(false);
  });
});
