import { cp, mkdtemp, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSegments, readLedgerRows } from '../../../electron/main/audit';
import { auditDir } from '../../../electron/main/runtime/session';
import { runCli } from '../../helpers/run-cli';

/**
 * Issue 15 items 14–16, as a security officer meets them: a checkpoint saved with `>` or typed back
 * from paper, a verify report in their words and language, a backup without its key, a CSV that
 * Excel sorts by date. Each data folder is a real one, set up by `baram audit init` and used by a
 * real `baram call`.
 */
let base: string;
let data: string;
let key: string;
let saved: string;

const HANGUL = /[\uac00-\ud7a3]/;

async function newDataFolder(name: string): Promise<{ data: string; key: string }> {
  const ws = join(base, `${name}-ws`);
  const folder = join(base, name);
  await mkdir(ws);
  await writeFile(join(ws, 'a.txt'), '안녕하세요\n');
  const init = await runCli(['audit', 'init', '--data-dir', folder]);
  expect(init.code).toBe(0);
  const k = /baram-k0-v1:\d+:[0-9a-f]{64}/.exec(init.stdout)?.[0] ?? '';
  expect((await runCli(['call', 'filesystem.read', '{"path":"a.txt"}', '--workspace', ws, '--data-dir', folder, '--approve', 'none'])).code).toBe(0);
  return { data: folder, key: k };
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-auditor-')));
  ({ data, key } = await newDataFolder('data'));
  const r = await runCli(['audit', 'checkpoint', '--data-dir', data]);
  expect(r.code).toBe(0);
  saved = r.stdout;
  await writeFile(join(base, 'saved.txt'), saved);
  await writeFile(join(base, 'whole-output.txt'), r.stderr + r.stdout + r.stderr);
}, 60_000);
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function verifyTyped(name: string, typed: string, withKey = true) {
  const file = join(base, `${name}.txt`);
  await writeFile(file, typed);
  return runCli(['audit', 'verify', '--data-dir', data, ...(withKey ? ['--key', key] : []), '--checkpoint', file]);
}

/** Flips the case of the first letter at or after `from` in line `line` (0-based) of the checkpoint. */
function flipCase(text: string, line: number, from = 0): string {
  const lines = text.split('\n');
  const target = lines[line] ?? '';
  const at = [...target].findIndex((c, i) => i >= from && /[a-zA-Z]/.test(c));
  const c = target[at] ?? '';
  lines[line] = target.slice(0, at) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + target.slice(at + 1);
  return lines.join('\n');
}

describe('item 14: a checkpoint saved or typed back', () => {
  it('`baram audit checkpoint > saved.txt` round-trips into verify --checkpoint; so does the whole output with stderr', async () => {
    for (const file of ['saved.txt', 'whole-output.txt']) {
      const r = await runCli(['audit', 'verify', '--data-dir', data, '--key', key, '--checkpoint', join(base, file)]);
      expect({ file, code: r.code }).toEqual({ file, code: 0 });
      expect(r.stderr).not.toMatch(/checkpoint/i);
      expect(r.stdout).toMatch(/checkpoints matched: \d+ \(1 given/);
    }
  });

  it('reads a checkpoint typed with - for —, full-width digits, upper-case hex, extra spaces, CRLF and a wrapped signature', async () => {
    const [origin = '', size = '', hash = '', time = '', , signature = ''] = saved.split('\n');
    const [, name = '', code = ''] = signature.split(' ');
    const fullWidth = (s: string): string => s.replace(/[0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    const typed = [
      `  ${origin.replace(/[0-9a-f]{16}$/, (hex) => hex.toUpperCase())} `,
      fullWidth(size),
      `${hash}   `,
      time.replace('time ', 'time   '),
      '',
      `-  ${name}  ${code.slice(0, 30)}`,
      code.slice(30),
      '',
    ].join('\r\n');
    const r = await verifyTyped('typed', typed);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Audit verification OK/);
    expect(r.stdout).toMatch(/checkpoints matched: \d+ \(1 given/);
  });

  it('calls curly quotes malformed, with the line and what to do, never tampering', async () => {
    const r = await verifyTyped('quoted', saved.replace(/time (\S+)/, 'time \u201C$1\u201D'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Malformed checkpoint \(line 4\)/);
    expect(r.stderr).toMatch(/not evidence of tampering/);
    expect(r.stdout).not.toMatch(/FAILED/);
  });

  it('reports a slip in the hash, the record count or the signature as malformed, never as tampering', async () => {
    const lines = saved.split('\n');
    const cases: [string, string, boolean, RegExp][] = [
      ['hash case, no key', flipCase(saved, 2), false, /third line \(the hash\)/],
      ['hash case, with the key', flipCase(saved, 2), true, /third line \(the hash\)/],
      ['record count', [lines[0], String(Number(lines[1]) + 1), ...lines.slice(2)].join('\n'), true, /second line \(the number of records\) looks mistyped/],
      ['signature', flipCase(saved, 5, (lines[5] ?? '').lastIndexOf(' ') + 20), true, /signature line .* mistyped/],
      ['time', saved.replace(/(time \S+)(\d)Z/, (_m, head: string, digit: string) => `${head}${(Number(digit) + 1) % 10}Z`), true, /fourth line \(the time\)/],
    ];
    for (const [name, typed, withKey, why] of cases) {
      const r = await verifyTyped(name.replace(/\W+/g, '-'), typed, withKey);
      expect({ name, code: r.code }).toEqual({ name, code: 2 });
      expect(r.stdout).toMatch(why);
      expect(r.stdout).toMatch(/malformed and was not used[\s\S]*not evidence of tampering/);
      expect(r.stdout).not.toMatch(/FAILED|rewritten|not signed by this ledger/);
    }
  });
});

describe('item 15: verify in the words of a security officer', () => {
  it('explains that today\'s rows are protected only by a checkpoint kept off the machine', async () => {
    const r = await runCli(['audit', 'verify', '--data-dir', data, '--key', key, '--lang', 'en']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/not yet sealed: \d+\. The key that sealed them is still on this machine/);
    expect(r.stdout).toMatch(/only a checkpoint kept off this machine protects them: print or photograph 'baram audit checkpoint' now/);
    expect(r.stdout).not.toMatch(HANGUL);
    const ko = await runCli(['audit', 'verify', '--data-dir', data, '--key', key, '--lang', 'ko']);
    expect(ko.stdout).toMatch(/이 컴퓨터 밖에 보관한 체크포인트뿐입니다/);
    expect(ko.stdout).not.toMatch(/verification OK|not yet sealed/);
  });

  it('names the time, user and tool of the first bad row and what to do, in the language asked for', async () => {
    const edited = await newDataFolder('edited');
    const target = [...readLedgerRows(auditDir(edited.data))].find((row) => row.body.includes('"type":"tool.proposed"'));
    const body = JSON.parse(target?.body ?? '{}') as { osUser: string };
    const db = new Database(listSegments(auditDir(edited.data))[0]?.file ?? '');
    db.exec('DROP TRIGGER entries_no_update');
    db.prepare("UPDATE entries SET body = replace(body, 'a.txt', 'b.txt') WHERE seq = ?").run(target?.seq);
    db.close();

    const en = await runCli(['audit', 'verify', '--data-dir', edited.data, '--key', edited.key, '--lang', 'en']);
    expect(en.code).toBe(1);
    expect(en.stdout).toMatch(new RegExp(`first bad seq: ${target?.seq}\\n`));
    expect(en.stdout).toMatch(/reason: edited/);
    expect(en.stdout).toMatch(new RegExp(`the first bad row \\(as it reads now; its text may itself be the altered part\\): seq ${target?.seq} · time \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} \\(UTC[+-]\\d{2}:\\d{2}\\) · user ${body.osUser}\\b.* · tool filesystem\\.read · Tool call proposed`));
    expect(en.stdout).toMatch(/the row just before it: seq \d+ · time /);
    expect(en.stdout).toMatch(/what to do: Leave this machine's Baram data folder as it is.*baram audit backup --out NEW-FOLDER/);
    expect(en.stdout).not.toMatch(HANGUL);

    const ko = await runCli(['audit', 'verify', '--data-dir', edited.data, '--key', edited.key, '--lang', 'ko']);
    expect(ko.code).toBe(1);
    expect(ko.stdout).toMatch(new RegExp(`처음 문제가 된 순번: ${target?.seq}\\n`));
    expect(ko.stdout).toMatch(/이유: 내용이 바뀜/);
    expect(ko.stdout).toMatch(/문제의 기록 .*: 순번 \d+ · 시각 \d{4}-\d{2}-\d{2} .* · 사용자 .* · 도구 filesystem\.read · 도구 호출 제안/);
    expect(ko.stdout).toMatch(/할 일: 이 컴퓨터의 바람 데이터 폴더를 더 쓰거나 지우지 말고/);
    expect(ko.stdout).not.toMatch(/what to do|first bad seq/);
  });

  it('reports two swapped rows of a JSONL export as reordered, not missing', async () => {
    const file = join(base, 'swapped.jsonl');
    const exported = await runCli(['audit', 'export', '--data-dir', data, '--format', 'jsonl', '--out', file]);
    expect(exported.code).toBe(0);
    const lines = (await readFile(file, 'utf8')).split('\n');
    [lines[3], lines[4]] = [lines[4] ?? '', lines[3] ?? ''];
    await writeFile(file, lines.join('\n'));
    const r = await runCli(['audit', 'verify', '--file', file, '--key', key]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/이유 \/ reason: 순서가 바뀜 \/ reordered/);
    expect(r.stdout).toMatch(/rows were put out of order \(none is missing\)/);
    expect(r.stdout).not.toMatch(/reason: missing|기록이 빠짐/);
  });

  it('says a backup leaves the sealing key out on purpose, not that the key was lost', async () => {
    const backup = join(base, 'backup');
    const made = await runCli(['audit', 'backup', '--data-dir', data, '--out', backup]);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/sealing key was left out on purpose/);
    const r = await runCli(['audit', 'verify', '--data-dir', backup, '--key', key]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/could not record|missing/);
    expect(r.stdout).toMatch(/This folder is a backup 'baram audit backup' made from .* at .*The sealing key was left out on purpose/);
    expect(r.stdout).not.toMatch(/missing|lost|사라진/);
    // What writes to a ledger says in plain words that a backup is only read, and where to do it instead.
    const exported = await runCli(['audit', 'export', '--data-dir', backup, '--format', 'csv', '--out', join(base, 'from-backup.csv'), '--lang', 'en']);
    expect(exported.code).toBe(2);
    expect(exported.stderr).toMatch(/This folder is a backup made from .*: it has no sealing key \(left out on purpose\) and is only read\. Export and take checkpoints on the original machine's data folder/);

    // A plain copy of a data folder, without the backup's note: the report says both what it may be and what to do.
    const copy = join(base, 'copy');
    await cp(auditDir(data), auditDir(copy), { recursive: true });
    await rm(join(auditDir(copy), 'seal.key'));
    const c = await runCli(['audit', 'verify', '--data-dir', copy, '--key', key]);
    expect(c.code).toBe(0);
    expect(c.stderr).not.toMatch(/could not record/);
    expect(c.stdout).toMatch(/If this folder is a backup or a copy, that is expected: check the seals with --key\. If it is the data folder Baram uses, the key was lost/);
  });
});

describe('item 16: a CSV export Excel reads', () => {
  it('has Korean words for event types, decisions and outcomes beside their codes, and local times Excel takes as dates', async () => {
    const file = join(base, 'audit.csv');
    expect((await runCli(['audit', 'export', '--data-dir', data, '--format', 'csv', '--out', file])).code).toBe(0);
    const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
    const [header = '', ...rows] = text.split('\r\n').filter((l) => l !== '' && /^\d+,|^순번/.test(l));
    expect(header.split(',').slice(0, 4)).toEqual(['순번', '현지 시각', '시간대', 'UTC 시각(정밀)']);
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(row).toMatch(/^\d+,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},UTC[+-]\d{2}:\d{2},\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,/);
    expect(text).toMatch(/,실행 완료,execution\.finished,/);
    expect(text).toMatch(/,허용,allow,/);
    expect(text).toMatch(/,성공,ok,/);

    const en = join(base, 'audit-en.csv');
    expect((await runCli(['audit', 'export', '--data-dir', data, '--format', 'csv', '--out', en, '--lang', 'en'])).code).toBe(0);
    const english = await readFile(en, 'utf8');
    expect(english).toMatch(/^\uFEFFSeq,Local time,Time zone,UTC time \(exact\),/);
    expect(english).toMatch(/,Execution finished,execution\.finished,/);
  });
});
