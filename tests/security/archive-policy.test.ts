import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLedgerRows } from '../../electron/main/audit';
import { auditDir } from '../../electron/main/runtime/session';
import { rawZip } from '../helpers/archive-zips';
import { useTestGate } from '../helpers/gate-harness';
import { runCli } from '../helpers/run-cli';

/**
 * Every file an extraction writes is a planned target, so the gate judges each one against the
 * policy's deny rules and the built-in protections (execution-equivalent writes, .git) before the
 * human is asked: one bad entry denies the whole call, and nothing is written.
 */

const open = useTestGate();
const listing = async (dir: string) => (await readdir(dir, { recursive: true })).map(String).sort();

describe('archive.unzip under the policy', () => {
  it('is denied when an entry would land in a folder a deny rule covers', async () => {
    const g = await open({
      files: { '자료.zip': rawZip([{ name: '공개/안내.txt', content: 'ok' }, { name: '공개/인사/급여.csv', content: '김,100' }]) },
      policy: { rules: { deny: ['archive.*(**/인사/**)'] } },
    });
    const r = await g.call('archive.unzip', { path: '자료.zip' });
    expect(r.outcome).toBe('denied');
    expect(g.approvals).toHaveLength(0);
    expect(await listing(g.workspace)).toEqual(['자료.zip']);
    const verdicts = (await g.auditEvents()).filter((e) => e['type'] === 'permission.decided');
    expect(JSON.stringify(verdicts)).toContain('archive.*(**/인사/**)');
  });

  for (const [what, name] of [
    ['a batch script', 'tools/setup.bat'],
    ['a macro-enabled workbook', '예산.xlsm'],
    ['a VBScript', 'run.VBS'],
    ['git metadata', 'project/.git/config'],
    ['a shortcut', '바로가기.lnk'],
  ] as const) {
    it(`is denied when an entry is ${what} (execution-equivalent write)`, async () => {
      const g = await open({ files: { 'a.zip': rawZip([{ name: '문서.txt', content: 'x' }, { name, content: 'echo hi' }]) } });
      const r = await g.call('archive.unzip', { path: 'a.zip', to: 'out' });
      expect(r.outcome).toBe('denied');
      expect(g.approvals).toHaveLength(0);
      expect(await listing(g.workspace)).toEqual(['a.zip']);
    });
  }

  it('is denied when `to` leaves the workspace', async () => {
    const g = await open({ files: { 'a.zip': rawZip([{ name: 'x.txt', content: 'x' }]) } });
    const r = await g.call('archive.unzip', { path: 'a.zip', to: '../outside' });
    expect(['denied', 'refused']).toContain(r.outcome);
    expect(await listing(g.outside)).toEqual([]);
  });

  it('does not write through a symbolic link in the destination that leads outside', async () => {
    const g = await open({ files: { 'a.zip': rawZip([{ name: 'link/stolen.txt', content: 'x' }]) } });
    await mkdir(join(g.workspace, 'out'));
    await symlink(g.outside, join(g.workspace, 'out/link'));
    const r = await g.call('archive.unzip', { path: 'a.zip', to: 'out' });
    expect(['refused', 'denied']).toContain(r.outcome);
    expect(g.approvals).toHaveLength(0);
    expect(await listing(g.outside)).toEqual([]);
  });

  it('archive.zip leaves out nothing silently: a folder holding a denied subfolder is not zipped', async () => {
    const g = await open({
      files: { '팀/공지.txt': 'a', '팀/인사/평가.txt': 'secret' },
      policy: { rules: { deny: ['archive.*(**/인사/**)'] } },
    });
    const r = await g.call('archive.zip', { from: '팀', to: '팀.zip' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('policy rules keep some of them from being read');
    expect(await listing(g.workspace)).not.toContain('팀.zip');
  });
});

describe('archive.unzip and the protected paths', () => {
  let base: string | undefined;
  afterEach(async () => {
    if (base) await rm(base, { recursive: true, force: true });
    base = undefined;
  });

  it('attack: an entry that lands on the settings file (spelled in other case) is denied as protected; nothing is written', async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'baram-archive-protected-')));
    const ws = join(base, 'ws');
    const data = join(base, 'data');
    await mkdir(join(ws, 'cfg'), { recursive: true });
    const settings = join(ws, 'cfg', 'settings.json');
    const rules = JSON.stringify({ rules: { deny: ['filesystem.delete'] } });
    await writeFile(settings, rules);
    // On NTFS and APFS, SETTINGS.json is settings.json.
    await writeFile(join(ws, 'p.zip'), rawZip([{ name: 'readme.txt', content: 'hi' }, { name: 'SETTINGS.json', content: '{"rules":{}}' }]));
    const r = await runCli(['call', 'archive.unzip', '{"path":"p.zip","to":"cfg"}', '--workspace', ws, '--data-dir', data, '--settings', settings, '--approve', 'all', '--lang', 'en']);
    expect(r.json().outcome, r.stdout + r.stderr).toBe('denied');
    expect(await readFile(settings, 'utf8')).toBe(rules);
    expect((await readdir(join(ws, 'cfg'))).sort()).toEqual(['settings.json']);
    const ledger = [...readLedgerRows(auditDir(data))].map((row) => JSON.parse(row.body) as Record<string, unknown>);
    expect(ledger.filter((e) => e['type'] === 'permission.decided').at(-1)).toMatchObject({ decision: 'deny', rule: 'protected', ruleSource: 'builtin' });
    expect(ledger.some((e) => e['type'] === 'execution.started')).toBe(false);
  });
});
