import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gapMarkerPath, listSegments, readLedgerRows } from '../../../electron/main/audit';
import { tamper } from '../../helpers/tampered-ledgers';
import { runCli } from '../../helpers/run-cli';

/**
 * Issue 13, through the real `baram` command:
 * (b) the first `baram call` on a fresh data folder creates the ledger but never prints the
 *     verification key (it used to write it to stderr, i.e. to whoever ran it or a log); only
 *     `baram audit init` shows it, and on a folder already in use it says what to do instead;
 * (a) `baram audit verify` finds rows cut from the end by the checkpoints in the data folder, with
 *     no --checkpoint given, and the next `baram call` runs no tool rather than reusing the cut seqs.
 */
const KEY = /baram-k0-v1:\d+:[0-9a-f]{64}/;
let base: string | undefined;
afterEach(async () => {
  if (base) await rm(base, { recursive: true, force: true });
  base = undefined;
});

async function folders(): Promise<{ ws: string; data: string; audit: string }> {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-audit-cli-13-')));
  const ws = join(base, 'ws');
  await mkdir(ws);
  await writeFile(join(ws, 'a.txt'), '안녕하세요\n');
  const data = join(base, 'data');
  return { ws, data, audit: join(data, 'audit') };
}

const call = (ws: string, data: string) => runCli(['call', 'filesystem.read', '{"path":"a.txt"}', '--workspace', ws, '--data-dir', data, '--approve', 'none']);
const lastSeq = (audit: string): number => [...readLedgerRows(audit)].at(-1)?.seq ?? 0;

describe('baram call on a fresh data folder', () => {
  it('creates the ledger without printing the verification key anywhere; audit init then says the key cannot be shown and what to do', async () => {
    const { ws, data, audit } = await folders();
    const first = await call(ws, data);
    expect(first.code).toBe(0);
    expect(first.stderr).not.toMatch(KEY);
    expect(first.stdout).not.toMatch(KEY);
    expect(listSegments(audit).length).toBe(1);
    expect(lastSeq(audit)).toBeGreaterThan(0);

    const init = await runCli(['audit', 'init', '--data-dir', data]);
    expect(init.code).toBe(2);
    expect(init.stdout + init.stderr).not.toMatch(KEY);
    expect(init.stderr).toMatch(/already set up/);
    expect(init.stderr).toMatch(/baram audit init --data-dir NEW-FOLDER/);
  }, 60_000);

  it('audit init on a new folder still shows the key, once', async () => {
    const { data } = await folders();
    const init = await runCli(['audit', 'init', '--data-dir', data]);
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(KEY);
  }, 60_000);
});

describe('rows cut from the end of the ledger while the data folder keeps a newer checkpoint', () => {
  it('verify reports the truncation without --checkpoint; the next call runs no tool and writes nothing over the gap', async () => {
    const { ws, data, audit } = await folders();
    expect((await runCli(['audit', 'init', '--data-dir', data])).code).toBe(0);
    expect((await call(ws, data)).code).toBe(0);
    expect((await runCli(['audit', 'checkpoint', '--data-dir', data, '--no-qr'])).code).toBe(0);
    expect(readdirSync(join(audit, 'checkpoints')).length).toBeGreaterThan(0); // the session's daily one and this one
    const checkpointed = lastSeq(audit) - 1; // the audit.checkpoint row follows the head it records
    tamper(audit, (db) => db.prepare('DELETE FROM entries WHERE seq > ?').run(checkpointed - 2));
    const cutTo = lastSeq(audit);

    const verify = await runCli(['audit', 'verify', '--data-dir', data]);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(/Audit verification FAILED/);
    expect(verify.stdout).toMatch(/truncated/);
    expect(verify.stdout).toContain(`first bad seq: ${cutTo + 1}`);

    const after = await call(ws, data);
    expect(after.code).not.toBe(0);
    expect(after.stdout + after.stderr).not.toContain('안녕하세요');
    expect(after.stdout + after.stderr).toMatch(/cut from the end/);
    expect(lastSeq(audit)).toBe(cutTo);
    expect(existsSync(gapMarkerPath(audit))).toBe(true);
  }, 90_000);
});
