import { mkdtemp, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedgerRows, verifyLedger } from '../../../electron/main/audit';
import { auditDir } from '../../../electron/main/runtime/session';
import { runCli } from '../../helpers/run-cli';

let base: string;
let ws: string;
let data: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-cli-')));
  ws = join(base, 'ws');
  data = join(base, 'data');
  await mkdir(ws);
  await writeFile(join(ws, 'a.txt'), '안녕하세요, 바람입니다.\nsecond line\n');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const common = () => ['--workspace', ws, '--data-dir', data, '--lang', 'en'];

describe('baram CLI (SPEC §7)', () => {
  it('tools --json lists every tool with its schema', async () => {
    const r = await runCli(['tools', '--json']);
    expect(r.code).toBe(0);
    const tools = r.json<Array<{ name: string; risk: string; schema: { type: string; additionalProperties: boolean } }>>();
    expect(tools.map((t) => t.name)).toContain('system.info');
    expect(tools).toHaveLength(37);
    for (const t of tools) expect(t.schema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(tools.find((t) => t.name === 'filesystem.read')?.risk).toBe('read');
  });

  it('call filesystem.read prints outcome ok, the text and the audit sequence; exit 0', async () => {
    const r = await runCli(['call', 'filesystem.read', '{"path":"a.txt"}', ...common(), '--approve', 'none']);
    expect(r.code).toBe(0);
    const out = r.json<{ outcome: string; tool: string; text: string; auditSeq: number }>();
    expect(out.outcome).toBe('ok');
    expect(out.tool).toBe('filesystem.read');
    expect(out.text).toContain('안녕하세요, 바람입니다.');
    expect(out.auditSeq).toBeGreaterThan(0);
    // The ledger holds the whole session: its start (toolset and policy digests) through the result,
    // and its hash chain verifies.
    const ledger = auditDir(data);
    expect(verifyLedger(ledger)).toMatchObject({ ok: true });
    const bodies = [...readLedgerRows(ledger)].map((row) => JSON.parse(row.body) as Record<string, unknown>);
    const start = bodies.find((b) => b.type === 'session.start');
    expect(start?.data).toMatchObject({ toolsetDigest: expect.stringMatching(/^[0-9a-f]{64}$/), policyDigest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(bodies.find((b) => b.seq === out.auditSeq)).toMatchObject({ type: 'execution.finished', outcome: 'ok', tool: 'filesystem.read' });
  });

  it('a write needs approval: --approve none denies with exit 3 and creates nothing', async () => {
    const r = await runCli(['call', 'filesystem.write', '{"path":"new.txt","content":"x"}', ...common(), '--approve', 'none']);
    expect(r.code).toBe(3);
    expect(r.json<{ outcome: string }>().outcome).toBe('denied');
    expect(existsSync(join(ws, 'new.txt'))).toBe(false);
  });

  it('--approve ask shows the request in the terminal and takes the answer', async () => {
    const r = await runCli(['call', 'filesystem.write', '{"path":"asked.txt","content":"hi"}', ...common(), '--approve', 'ask'], {
      // Answer only once the prompt is armed: input typed earlier is ignored by design.
      stdin: 'y\n',
      when: /\[y\] allow once/,
    });
    expect(r.stderr).toContain('Approval needed');
    expect(r.stderr).toContain('asked.txt');
    expect(r.code).toBe(0);
    expect(await readFile(join(ws, 'asked.txt'), 'utf8')).toBe('hi');
  });

  it('invalid arguments exit 3 with the schema message', async () => {
    const r = await runCli(['call', 'filesystem.read', '{"paht":"a.txt"}', ...common()]);
    expect(r.code).toBe(3);
    expect(r.json<{ text: string }>().text).toContain("Unknown parameter 'paht'. Did you mean 'path'? The tool was not executed.");
  });

  it('usage errors exit 2 and say what to do', async () => {
    const r = await runCli(['call', 'filesystem.read', '{not json', ...common()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON/);
    const typo = await runCli(['call', 'filesystem.read', '{}', '--aprove', 'all', '--lang', 'en']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/Unknown option --aprove/);
  });

  it('policy check reports problems with JSON paths, and OK for a good file', async () => {
    const bad = join(base, 'bad.json');
    await writeFile(bad, '{ "version": 1, "shell": { "comands": {} }, "defaults": { "read": "maybe" } }');
    const r = await runCli(['policy', 'check', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('$.shell');
    expect(r.stdout).toContain('comands');
    expect(r.stdout).toContain('$.defaults.read');
    const good = join(base, 'good.jsonc');
    await writeFile(good, '// admin policy\n{ "version": 1, "rules": { "allow": ["filesystem.read"] } }\n');
    const ok = await runCli(['policy', 'check', good]);
    expect(ok.stdout).toContain('OK');
    expect(ok.code).toBe(0);
  });
});
