import { mkdtemp, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSegments, readLedgerRows } from '../../../electron/main/audit';
import { fillViewerRows } from '../../../electron/main/audit/ledger/viewer-rows';
import { auditDir } from '../../../electron/main/runtime/session';
import { runCli } from '../../helpers/run-cli';

/**
 * `baram audit …` as security staff run it (SPEC §3, §7): one data folder used by a real `baram
 * call`, then set up, verified, checkpointed, exported, tampered with and verified again.
 */
let base: string;
let data: string;
let key: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-audit-cli-')));
  const ws = join(base, 'ws');
  data = join(base, 'data');
  await mkdir(ws);
  await writeFile(join(ws, 'a.txt'), '안녕하세요\n');
  const init = await runCli(['audit', 'init', '--data-dir', data]);
  expect(init.code).toBe(0);
  key = /baram-k0-v1:\d+:[0-9a-f]{64}/.exec(init.stdout)?.[0] ?? '';
  expect(key).not.toBe('');
  const call = await runCli(['call', 'filesystem.read', '{"path":"a.txt"}', '--workspace', ws, '--data-dir', data, '--approve', 'none']);
  expect(call.code).toBe(0);
  // The verification key is shown once, at setup: a later session does not show it again.
  expect(call.stderr).not.toMatch(/baram-k0-v1/);
}, 60_000);
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('baram audit', () => {
  it('init shows the key with a QR code once and refuses a second time', async () => {
    const again = await runCli(['audit', 'init', '--data-dir', data]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already set up/);
    expect(again.stdout).not.toMatch(/baram-k0-v1/);
  });

  it('verify --key reports OK with counts and checked seals; the verification itself is recorded', async () => {
    const r = await runCli(['audit', 'verify', '--data-dir', data, '--key', key]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Audit verification OK/);
    expect(r.stdout).toMatch(/seals checked with the verification key/);
    const types = [...readLedgerRows(auditDir(data))].map((row) => JSON.parse(row.body).type);
    expect(types).toContain('execution.finished');
    expect(types.at(-1)).toBe('audit.verify');
  });

  it('verify --json is machine-readable; a malformed key is a usage error that says what to pass', async () => {
    const json = await runCli(['audit', 'verify', '--data-dir', data, '--json']);
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({ ok: true, macChecked: false });
    const bad = await runCli(['audit', 'verify', '--data-dir', data, '--key', 'letmein']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/baram-k0-v1:<number>:<64 hex digits>/);
  });

  it('checkpoint prints the text and a QR code and writes a file that verify --checkpoint accepts', async () => {
    const r = await runCli(['audit', 'checkpoint', '--data-dir', data]);
    expect(r.code).toBe(0);
    // stdout is the checkpoint alone (so `> saved.txt` round-trips); the QR code and guidance go to stderr.
    expect(r.stdout).toMatch(/^baram\.audit\/[0-9a-f]{16}\n\d+\n[A-Za-z0-9+/=]{44}\ntime \S+\n\n\u2014 \S+ \S+\n$/);
    expect(r.stderr).toContain('█');
    const file = /(?:file: )(\S+\.txt)/.exec(r.stderr)?.[1] ?? '';
    expect(await readFile(file, 'utf8')).toBe(r.stdout);
    const ok = await runCli(['audit', 'verify', '--data-dir', data, '--key', key, '--checkpoint', file]);
    expect(ok.code).toBe(0);
    // The data folder holds the session's daily checkpoint and this one; the one given is one of them.
    expect(ok.stdout).toMatch(/checkpoints matched: 2 \(1 given, 2 in the data folder\)/);
  });

  it('export --format jsonl writes a file that verify --file checks on its own; csv opens as Korean', async () => {
    const jsonl = join(base, 'audit.jsonl');
    const r = await runCli(['audit', 'export', '--data-dir', data, '--format', 'jsonl', '--out', jsonl]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Exported: .*audit\.jsonl/);
    const check = await runCli(['audit', 'verify', '--file', jsonl, '--key', key]);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/Audit verification OK: .*audit\.jsonl/);

    const csv = join(base, 'audit.csv');
    expect((await runCli(['audit', 'export', '--data-dir', data, '--format', 'csv', '--out', csv])).code).toBe(0);
    const bytes = await readFile(csv);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toMatch(/^순번,/);

    const exists = await runCli(['audit', 'export', '--data-dir', data, '--format', 'csv', '--out', csv]);
    expect(exists.code).toBe(1);
    expect(exists.stderr).toMatch(/already exists/);
    const badFormat = await runCli(['audit', 'export', '--data-dir', data, '--format', 'xml', '--out', join(base, 'x')]);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toMatch(/--format must be one of jsonl, csv, syslog, cef/);
  });

  it('tail shows the latest events one per line', async () => {
    const r = await runCli(['audit', 'tail', '--data-dir', data, '--lines', '3']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/^\s*\d+ {2}\d{4}-\d{2}-\d{2}T.* 감사 /);
  });

  it('backup writes a folder laid out like a data folder, which verify checks with the key', async () => {
    const target = join(base, 'backup');
    const r = await runCli(['audit', 'backup', '--data-dir', data, '--out', target]);
    expect(r.code).toBe(0);
    expect(readdirSync(auditDir(target)).some((n) => n.endsWith('.sqlite3'))).toBe(true);
    const check = await runCli(['audit', 'verify', '--data-dir', target, '--key', key]);
    expect(check.code).toBe(0);
    const nowhere = await runCli(['audit', 'verify', '--data-dir', join(base, 'nothing-here'), '--key', key]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/No audit records in .*nothing-here/);
  });

  it('viewer rows forged to hide a row from the viewer make verify fail although the chain is intact', async () => {
    const segment = listSegments(auditDir(data))[0]?.file ?? '';
    const hidden = [...readLedgerRows(auditDir(data))].find((row) => row.body.includes('"tool":"filesystem.read"'));
    const db = new Database(segment);
    // As the writer leaves it at its next batch boundary (a few rows here; it fills every 4,096).
    fillViewerRows(db);
    const relabel = (tool: string) => db.prepare('UPDATE viewer_rows SET tool = ? WHERE seq = ?').run(tool, hidden?.seq);
    relabel('filesystem.list');
    const r = await runCli(['audit', 'verify', '--data-dir', data, '--key', key]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Audit verification OK/); // the rows themselves are untouched…
    expect(r.stdout).toMatch(new RegExp(`Search indexes damaged[\\s\\S]*viewer_rows disagrees with the stored event at seq ${hidden?.seq} `)); // …but the viewer would misfile one
    relabel('filesystem.read'); // honest again, for the next test
    db.close();
    expect((await runCli(['audit', 'verify', '--data-dir', data, '--key', key])).code).toBe(0);
  });

  it('after an attacker edits a row, verify exits 1 naming the first bad seq and the reason', async () => {
    const target = [...readLedgerRows(auditDir(data))].find((row) => row.body.includes('"type":"tool.proposed"'));
    expect(target).toBeDefined();
    const segment = listSegments(auditDir(data))[0]?.file ?? '';
    const db = new Database(segment);
    db.exec('DROP TRIGGER entries_no_update');
    db.prepare("UPDATE entries SET body = replace(body, 'filesystem.read', 'filesystem.xxxx') WHERE seq = ?").run(target?.seq);
    db.close();
    const r = await runCli(['audit', 'verify', '--data-dir', data, '--key', key]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`first bad seq: ${target?.seq}\\n`));
    expect(r.stdout).toMatch(/edited/);
  });
});
