import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedgerRows } from '../../electron/main/audit';
import { escapeForDisplay } from '../../electron/common/display-text';
import { auditDir } from '../../electron/main/runtime/session';
import { runCli } from '../helpers/run-cli';

/**
 * Issue 14 classes 7, 8 and 13 (terminal part), through the real `baram call`: names that try to
 * rewrite the approval prompt, `__proto__` in arguments, and `--approve ask` with a terminal whose
 * input stays open.
 */
let base: string;
let ws: string;
let data: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-term-')));
  ws = join(base, 'ws');
  data = join(base, 'data');
  await mkdir(ws);
  await writeFile(join(ws, 'a.txt'), 'hello\n');
});
afterAll(() => rm(base, { recursive: true, force: true }));

const common = () => ['--workspace', ws, '--data-dir', data, '--lang', 'en'];
const ledger = () => [...readLedgerRows(auditDir(data))].map((row) => JSON.parse(row.body) as Record<string, unknown>);

describe('the terminal approval shows control and bidi characters escaped (class 7)', () => {
  it('an ESC sequence, a CR and U+202E in a file name reach the terminal as visible escapes', async () => {
    const evil = 'report\u001b[2K\u001b[1Ainvoice\r\u202Etxt.fdp';
    const r = await runCli(['call', 'filesystem.write', JSON.stringify({ path: evil, content: 'x' }), ...common(), '--approve', 'ask'], {
      stdin: 'n\n\n',
      when: /\[y\] allow once/,
    });
    expect(r.stderr).not.toMatch(/[\u001b\r\u202e]/);
    expect(r.stderr).toContain('report\\u{001B}[2K\\u{001B}[1Ainvoice\\r\\u{202E}txt.fdp');
    expect(r.code).toBe(3);
    expect(existsSync(join(ws, evil))).toBe(false);
  });

  it('plain Korean names and newlines in a preview are shown as they are (positive control)', () => {
    expect(escapeForDisplay('보고서/2024 정리.xlsx')).toBe('보고서/2024 정리.xlsx');
    expect(escapeForDisplay('- old\n+ new', { keepNewlines: true })).toBe('- old\n+ new');
    expect(escapeForDisplay('a\u2028b\u0085c\u200Bd')).toBe('a\\u{2028}b\\u{0085}c\\u{200B}d');
  });
});

describe('__proto__ in arguments (class 8)', () => {
  it('is refused before anything runs, and the ledger records the key that was sent', async () => {
    const args = '{"path":"a.txt","__proto__":{"path":"../../etc/passwd","content":"pwned"}}';
    const r = await runCli(['call', 'filesystem.read', args, ...common(), '--approve', 'all']);
    expect(r.code).toBe(3);
    const out = r.json<{ outcome: string; text: string; callId: string }>();
    expect(out.outcome).toBe('invalid');
    expect(out.text).toContain("may not contain the key '__proto__'");
    const proposed = ledger().find((e) => e.callId === out.callId && e.type === 'tool.proposed');
    expect(proposed?.data).toMatchObject({ forbiddenKey: '__proto__' });
    expect(String((proposed?.data as { args: string }).args)).toContain('../../etc/passwd');
    expect(ledger().some((e) => e.callId === out.callId && e.type === 'execution.started')).toBe(false);
  });

  it('nested, too', async () => {
    const r = await runCli(['call', 'shell.execute', '{"command":"git","args":["status"],"x":{"__proto__":{}}}', ...common(), '--approve', 'none']);
    expect(r.json<{ outcome: string; text: string }>()).toMatchObject({ outcome: 'invalid', text: expect.stringContaining("'x.__proto__'") });
  });
});

describe('--approve ask with a terminal that stays open (class 13)', () => {
  it('exits after the answer although stdin is still open', async () => {
    const r = await runCli(['call', 'filesystem.write', '{"path":"kept-open.txt","content":"hi"}', ...common(), '--approve', 'ask'], {
      stdin: 'y\n',
      when: /\[y\] allow once/,
      keepStdinOpen: true,
    });
    expect(r.code).toBe(0);
    expect(readFileSync(join(ws, 'kept-open.txt'), 'utf8')).toBe('hi');
  });

  it('a denial typed at the terminal is recorded as that person\'s, not as "no approver"', async () => {
    const r = await runCli(['call', 'filesystem.write', '{"path":"denied.txt","content":"x"}', ...common(), '--approve', 'ask'], {
      stdin: 'n\n',
      when: /\[y\] allow once/,
    });
    const out = r.json<{ outcome: string; text: string; callId: string }>();
    expect(out.outcome).toBe('denied');
    expect(out.text).not.toMatch(/no approver/i);
    const decided = ledger().find((e) => e.callId === out.callId && e.type === 'approval.decided');
    expect((decided?.data as { approver: string }).approver).toMatch(/^os:/);
  });
});
