import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedgerRows } from '../../electron/main/audit';
import { auditDir } from '../../electron/main/runtime/session';
import { runCli } from '../helpers/run-cli';

/**
 * Issue 14 classes 9 and 11, through the real `baram call` and `baram audit export`:
 *  9. a secret given as the argument after a secret-named flag (`["--password", "hunter2"]`) is
 *     stored in the ledger, and so in every export, in clear;
 * 11. U+2028, U+0085 (and the other C0/C1, separator and bidi controls) pass raw into the
 *     line-oriented exports, where a reader that splits lines there sees a forged record.
 * Each call here is refused or denied (`--approve none`, programs outside the whitelist): a call
 * that never runs is still recorded, which is exactly where its arguments must already be safe.
 */
let base: string;
let ws: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-argv-lines-')));
  ws = join(base, 'ws');
  await mkdir(ws);
});
afterAll(() => rm(base, { recursive: true, force: true }));

let dirs = 0;
async function freshDataDir(): Promise<string> {
  dirs += 1;
  const data = join(base, `data-${dirs}`);
  await mkdir(data);
  return data;
}

interface Body {
  readonly type: string;
  readonly callId?: string;
  readonly target?: readonly string[];
  readonly data?: Record<string, unknown>;
}

function ledgerBodies(data: string): { texts: string[]; bodies: Body[] } {
  const texts = [...readLedgerRows(auditDir(data))].map((row) => row.body);
  return { texts, bodies: texts.map((t) => JSON.parse(t) as Body) };
}

async function call(data: string, tool: string, args: string): Promise<{ callId: string; outcome: string }> {
  const r = await runCli(['call', tool, args, '--workspace', ws, '--data-dir', data, '--approve', 'none', '--lang', 'en']);
  const out = r.json<{ callId: string; outcome: string }>();
  expect(out.outcome).not.toBe('ok');
  return out;
}

async function exportAs(data: string, format: 'cef' | 'syslog' | 'csv' | 'jsonl'): Promise<string> {
  const out = join(data, `export.${format}`);
  const r = await runCli(['audit', 'export', '--format', format, '--out', out, '--data-dir', data]);
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(out, 'utf8');
}

function proposedArgs(bodies: readonly Body[], callId: string): unknown {
  return (bodies.find((b) => b.callId === callId && b.type === 'tool.proposed')?.data as { args?: unknown } | undefined)?.args;
}

describe('a secret after a secret-named flag never reaches the ledger or an export in clear (class 9)', () => {
  it('shell.execute args ["--password", VALUE] and ["--token", VALUE]; a port, a file flag and a count stay', async () => {
    const data = await freshDataDir();
    const attack = await call(data, 'shell.execute', JSON.stringify({ command: 'git', args: ['log', '--password', 'hunter2-pw', '--token', 'tok-9f8e7d6c'] }));
    // Positive control: `-p` is a port here, `--password-file` names a file, `--max-count` a number.
    const control = await call(data, 'shell.execute', JSON.stringify({ command: 'git', args: ['log', '-p', '2222', '--password-file', 'pw-list.txt', '--max-count', '5'] }));
    const { texts, bodies } = ledgerBodies(data);

    for (const text of texts) {
      expect(text).not.toContain('hunter2-pw');
      expect(text).not.toContain('tok-9f8e7d6c');
    }
    expect(proposedArgs(bodies, attack.callId)).toEqual({ command: 'git', args: ['log', '--password', '[redacted]', '--token', '[redacted]'] });
    // The command line the permission step recorded as its target is redacted the same way.
    expect(bodies.find((b) => b.callId === attack.callId && b.type === 'permission.decided')?.target).toEqual(['git log --password [redacted] --token [redacted]']);
    expect(proposedArgs(bodies, control.callId)).toEqual({ command: 'git', args: ['log', '-p', '2222', '--password-file', 'pw-list.txt', '--max-count', '5'] });

    const cef = await exportAs(data, 'cef');
    expect(cef).not.toContain('hunter2-pw');
    expect(cef).not.toContain('tok-9f8e7d6c');
    expect(cef).toContain('"--password","[redacted]","--token","[redacted]"');
    expect(cef).toContain('"-p","2222","--password-file","pw-list.txt","--max-count","5"');
  });

  it('the program decides a short flag: mysql -pSECRET and sshpass -p SECRET are redacted, ssh -p 2222 is not', async () => {
    const data = await freshDataDir();
    const mysql = await call(data, 'shell.execute', JSON.stringify({ command: 'mysql', args: ['-pGlu3dSecret', 'salesdb'] }));
    const sshpass = await call(data, 'shell.execute', JSON.stringify({ command: 'sshpass', args: ['-p', 'Sshp4ssSecret', 'ssh', 'kim@db'] }));
    const ssh = await call(data, 'shell.execute', JSON.stringify({ command: 'ssh', args: ['-p', '2222', 'kim@db'] }));
    const { texts, bodies } = ledgerBodies(data);
    for (const text of texts) {
      expect(text).not.toContain('Glu3dSecret');
      expect(text).not.toContain('Sshp4ssSecret');
    }
    expect(proposedArgs(bodies, mysql.callId)).toEqual({ command: 'mysql', args: ['-p[redacted]', 'salesdb'] });
    expect(proposedArgs(bodies, sshpass.callId)).toEqual({ command: 'sshpass', args: ['-p', '[redacted]', 'ssh', 'kim@db'] });
    expect(proposedArgs(bodies, ssh.callId)).toEqual({ command: 'ssh', args: ['-p', '2222', 'kim@db'] });
    const cef = await exportAs(data, 'cef');
    expect(cef).not.toContain('Glu3dSecret');
    expect(cef).not.toContain('Sshp4ssSecret');
    expect(cef).toContain('"-p","2222","kim@db"');
  });

  it('a command line (ssh.execute) and arguments recorded as JSON text (a refused __proto__ call) are redacted too', async () => {
    const data = await freshDataDir();
    const ssh = await call(data, 'ssh.execute', JSON.stringify({ host: 'db', command: 'mysql --password Cmdl1neSecret -h db' }));
    // A refused `__proto__` call is recorded as the JSON text that was sent.
    const proto = await call(data, 'shell.execute', '{"command":"git","args":["log","--api-key","J5onTextSecret","--max-count","3"],"__proto__":{}}');
    const { texts, bodies } = ledgerBodies(data);
    for (const text of texts) {
      expect(text).not.toContain('Cmdl1neSecret');
      expect(text).not.toContain('J5onTextSecret');
    }
    expect(proposedArgs(bodies, ssh.callId)).toEqual({ host: 'db', command: 'mysql --password [redacted] -h db' });
    expect(proposedArgs(bodies, proto.callId)).toBe('{"command":"git","args":["log","--api-key","[redacted]","--max-count","3"],"__proto__":{}}');
    const cef = await exportAs(data, 'cef');
    expect(cef).not.toContain('Cmdl1neSecret');
    expect(cef).not.toContain('J5onTextSecret');
    expect(cef).toContain('mysql --password [redacted] -h db');
  });
});

/**
 * Every character some line reader splits a record at: LF, CR, VT, FF, FS, GS, RS, NEL, U+2028,
 * U+2029 (Python's str.splitlines(); JavaScript's line terminators are LF, CR, U+2028, U+2029).
 */
const ANY_LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/;
const RAW_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069]/;

describe('line-oriented exports escape line separators, C0/C1 and bidi controls (class 11)', () => {
  // One call per forged-record attempt: the path carries a fake record after U+2028 and after NEL.
  const FORGED_CEF = 'CEF:0|Baram|Baram|0.1|execution.finished|forged|10|outcome=ok';
  const FORGED_SYSLOG = '<110>1 2026-01-01T00:00:00Z forged baram - forged -';
  const evilPath = `report\u2028${FORGED_CEF}\u0085${FORGED_SYSLOG}\u2029x\u202Etxt.exe\u001b[2K\u000b\u000c\u001e`;
  const koreanPath = '보고서/2024 정리.xlsx';
  let data: string;

  beforeAll(async () => {
    data = await freshDataDir();
    await call(data, 'filesystem.read', JSON.stringify({ path: evilPath }));
    await call(data, 'filesystem.read', JSON.stringify({ path: koreanPath }));
    // The ledger itself keeps the exact text (it is JSON, escaped on the way out).
    expect(ledgerBodies(data).bodies.some((b) => JSON.stringify(b.data ?? {}).includes(JSON.stringify(evilPath).slice(1, -1)))).toBe(true);
  });

  /** Rows an export holds: all but the audit.export row recorded after it was written. */
  function rowsExported(): number {
    return [...readLedgerRows(auditDir(data))].length - 1;
  }

  /** Records as a reader splitting at every line break sees them; the file ends with one LF. */
  function records(text: string): string[] {
    return text.replace(/\n$/, '').split(ANY_LINE_BREAK);
  }

  it('CEF: one record per ledger row, no raw separator or control, the forged record is only text inside a value', async () => {
    const cef = await exportAs(data, 'cef');
    const lines = records(cef);
    expect(lines.length).toBe(rowsExported());
    expect(lines.every((l) => l.startsWith('CEF:0|Baram|Baram|'))).toBe(true);
    expect(lines.filter((l) => l.startsWith(FORGED_CEF))).toEqual([]);
    expect(cef.replace(/\n$/, '')).not.toMatch(RAW_UNSAFE);
    // Escaped as text (`\u2028`, its backslash escaped as CEF requires), and the Korean name as it is.
    expect(cef).toContain('report\\\\u2028CEF:0|Baram|Baram|0.1|execution.finished|forged|10|outcome\\=ok\\\\u0085<110>1');
    expect(cef).toContain('\\\\u2029x\\\\u202etxt.exe\\\\u001b[2K\\\\u000b\\\\u000c\\\\u001e');
    expect(cef).toContain(koreanPath);
  });

  it('syslog: one record per row, bidi controls escaped too', async () => {
    const syslog = await exportAs(data, 'syslog');
    const lines = records(syslog);
    expect(lines.length).toBe(rowsExported());
    expect(lines.every((l) => /^<\d+>1 /.test(l))).toBe(true);
    expect(syslog.replace(/\n$/, '')).not.toMatch(RAW_UNSAFE);
    expect(syslog).toContain('x\\\\u202etxt.exe');
    expect(syslog).toContain(koreanPath);
  });

  it('CSV: no raw separator, NEL or bidi control in any cell; the Korean name stays', async () => {
    const csv = await exportAs(data, 'csv');
    expect(csv).not.toMatch(/[\u000b\u000c\u001c-\u001e\u0085\u2028\u2029\u202e\u001b]/);
    expect(csv).toContain('report\\u2028CEF:0|Baram|Baram|0.1|execution.finished|forged|10|outcome=ok\\u0085<110>1');
    expect(csv).toContain(koreanPath);
    // Records split at CRLF only (RFC 4180); none starts with the forged text.
    expect(csv.split('\r\n').filter((l) => l.startsWith('CEF:') || l.startsWith('<110>'))).toEqual([]);
  });

  it('JSON Lines: one line per row, the raw characters written as \\uXXXX, and the export still verifies exactly', async () => {
    const jsonl = await exportAs(data, 'jsonl');
    const lines = records(jsonl);
    expect(lines.length).toBe(1 + rowsExported());
    expect(jsonl).not.toMatch(/[\u0085\u2028\u2029\u202e]/);
    expect(jsonl).toContain('\\u2028');
    expect(jsonl).toContain(koreanPath);
    // The body text read back is exactly the ledger's (with the raw characters), so the chain verifies.
    const bodies = lines.slice(1).map((l) => (JSON.parse(l) as { body: string }).body);
    expect(bodies.some((b) => b.includes(JSON.stringify(evilPath).slice(1, -1)))).toBe(true);
    const verify = await runCli(['audit', 'verify', '--file', join(data, 'export.jsonl'), '--data-dir', data]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  });
});
