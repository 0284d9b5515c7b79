import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedgerRows, verifyLedger } from '../../../electron/main/audit';
import { auditDir } from '../../../electron/main/runtime/session';
import { runCli, type CliRun } from '../../helpers/run-cli';

/**
 * Issue 15, "Must show": the office worker's trial as a script, through the real `baram call`.
 * 214 downloaded files whose names carry no year (some named on a Mac, in NFD) are sorted by
 * modification date into year folders: one dated listing (no approval), then one move per year
 * with the list of that year's files — three approvals, each listing every file it moves. Then six
 * files are deleted (one approval), the trash is listed, and the six come back in one approval.
 * Checked on disk and in the ledger.
 */

const YEARS = [2021, 2022, 2023] as const;
const COUNT = 214;

interface Download {
  /** As on disk (some NFD). */
  readonly name: string;
  readonly year: number;
  readonly content: string;
}

/** No year in any name; every third Korean name decomposed, as a Mac or a zip file writes it. */
function downloads(): Download[] {
  const kinds = [(n: string) => `IMG_${n}.jpg`, (n: string) => `스캔 ${n}.pdf`, (n: string) => `회의록_${n}.hwp`, (n: string) => `사진 (${n}).png`];
  return Array.from({ length: COUNT }, (_, i) => {
    const n = String(i + 1).padStart(3, '0');
    const name = kinds[i % kinds.length]!(n);
    return { name: i % 3 === 0 ? name.normalize('NFD') : name, year: YEARS[i % YEARS.length]!, content: `file ${n}\n` };
  });
}

let base: string;
let ws: string;
let data: string;
const files = downloads();
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-trial-')));
  ws = join(base, '다운로드');
  data = join(base, 'data');
  await mkdir(ws);
  for (const [i, f] of files.entries()) {
    const path = join(ws, f.name);
    await writeFile(path, f.content);
    // Mid-year local time, so no time zone moves a file into another year.
    const when = new Date(f.year, 5, 1 + (i % 28), 10, 0, 0);
    await utimes(path, when, when);
  }
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

interface CallOutput {
  readonly outcome: string;
  readonly text: string;
}

/** One `baram call`; with `approve`, the terminal approval is answered y once it is armed. */
async function call(tool: string, args: unknown, approve = false): Promise<{ run: CliRun; out: CallOutput; approvals: string[] }> {
  const common = ['--workspace', ws, '--data-dir', data, '--lang', 'en'];
  const run = approve
    ? await runCli(['call', tool, JSON.stringify(args), ...common, '--approve', 'ask'], { stdin: 'y\n', when: /\[y\] allow once/ })
    : await runCli(['call', tool, JSON.stringify(args), ...common, '--approve', 'none']);
  // Each approval the person saw: from its header to its check code.
  const approvals = run.stderr.split('── Approval needed ──').slice(1);
  return { run, out: run.json<CallOutput>(), approvals };
}

/** Lines of a listing: "name  (size, YYYY-MM-DD HH:MM)". */
function datedNames(listing: string): { name: string; year: number }[] {
  return listing.split('\n').flatMap((line) => {
    const m = /^(.+?) {2}\((?:[^,()]+, )?(\d{4})-\d{2}-\d{2} \d{2}:\d{2}\)$/.exec(line);
    return m ? [{ name: m[1]!, year: Number(m[2]) }] : [];
  });
}

describe('trial: sorting 214 downloads into year folders (issue 15)', () => {
  it('one dated listing, one move per year with every file in its approval, six deleted and restored in one approval', { timeout: 180_000 }, async () => {
    let approvalsSeen = 0;

    // 1. The dated listing: no approval, every file with its modification date, names readable (NFC).
    const listing = await call('filesystem.list', { path: '.' });
    expect(listing.run.code).toBe(0);
    expect(listing.approvals).toHaveLength(0);
    expect(listing.out.text).toBe(listing.out.text.normalize('NFC'));
    const dated = datedNames(listing.out.text);
    expect(dated).toHaveLength(COUNT);

    // 2. One move per year, with the names as the listing showed them (what a model types back).
    for (const year of YEARS) {
      const names = dated.filter((d) => d.year === year).map((d) => d.name);
      const expected = files.filter((f) => f.year === year);
      expect(names).toHaveLength(expected.length);
      const moved = await call('filesystem.move', { from: names, to: String(year) }, true);
      expect(moved.run.code, moved.run.stderr).toBe(0);
      expect(moved.out.outcome).toBe('ok');
      expect(moved.approvals).toHaveLength(1);
      approvalsSeen += moved.approvals.length;
      const shown = moved.approvals[0]!;
      expect(shown).toContain(`Affected items (${expected.length + 1})`); // the new folder, then each file
      // Every file, by its absolute path, composed (NFC) as the person typed and reads it.
      for (const f of expected) expect(shown).toContain(join(ws, f.name).normalize('NFC'));
      expect(shown).toBe(shown.normalize('NFC'));
      // On disk: every file of that year, under its real (NFD or NFC) name, content intact.
      expect(readdirSync(join(ws, String(year))).sort()).toEqual(expected.map((f) => f.name).sort());
    }
    expect(approvalsSeen).toBe(3);
    expect(readdirSync(ws).sort()).toEqual(YEARS.map(String));

    // 3. Six files deleted in one approval listing all six.
    const doomed = YEARS.flatMap((year) => files.filter((f) => f.year === year && /[가-힣]/.test(f.name.normalize('NFC'))).slice(0, 2));
    expect(doomed.filter((f) => f.name !== f.name.normalize('NFC')).length).toBeGreaterThan(0);
    const typed = doomed.map((f) => `${f.year}/${f.name.normalize('NFC')}`);
    const deleted = await call('filesystem.delete', { path: typed }, true);
    expect(deleted.run.code, deleted.run.stderr).toBe(0);
    expect(deleted.approvals).toHaveLength(1);
    for (const f of doomed) {
      expect(deleted.approvals[0]).toContain(join(ws, String(f.year), f.name).normalize('NFC'));
      expect(existsSync(join(ws, String(f.year), f.name))).toBe(false);
    }

    // 4. The trash, listed without approval: the six with their trashIds and original places.
    const trash = await call('filesystem.trash', {});
    expect(trash.run.code).toBe(0);
    expect(trash.approvals).toHaveLength(0);
    const ids = trash.out.text.split('\n').flatMap((line) => {
      const m = /^(\S+) {2}(\S.*?) {2}\(/.exec(line);
      return m ? [{ id: m[1]!, path: m[2]! }] : [];
    });
    expect(ids.map((e) => e.path).sort()).toEqual(typed.sort());

    // 5. All six back in one approval that lists them all.
    const restored = await call('filesystem.restore', { trashId: ids.map((e) => e.id) }, true);
    expect(restored.run.code, restored.run.stderr).toBe(0);
    expect(restored.approvals).toHaveLength(1);
    for (const f of doomed) {
      expect(restored.approvals[0]).toContain(join(ws, String(f.year), f.name).normalize('NFC'));
      expect(await readFile(join(ws, String(f.year), f.name), 'utf8')).toBe(f.content);
    }
    for (const year of YEARS) {
      expect(readdirSync(join(ws, String(year))).sort()).toEqual(files.filter((f) => f.year === year).map((f) => f.name).sort());
    }
    const empty = await call('filesystem.trash', {});
    expect(empty.out.text).toContain("trash is empty");

    // 6. The ledger: intact, five approvals asked and given, each call finished ok.
    const ledger = auditDir(data);
    expect(verifyLedger(ledger)).toMatchObject({ ok: true });
    const bodies = [...readLedgerRows(ledger)].map((row) => JSON.parse(row.body) as { type: string; tool?: string; outcome?: string; data?: Record<string, unknown> });
    const asked = bodies.filter((b) => b.type === 'approval.requested');
    expect(asked.map((b) => b.data?.targetCount)).toEqual([...YEARS.map((y) => files.filter((f) => f.year === y).length + 1), 6, 6]);
    expect(bodies.filter((b) => b.type === 'approval.decided').map((b) => b.data?.choice)).toEqual(Array(5).fill('allow-once'));
    const finished = bodies.filter((b) => b.type === 'execution.finished');
    expect(finished.map((b) => `${b.tool}:${b.outcome}`)).toEqual([
      'filesystem.list:ok',
      'filesystem.move:ok',
      'filesystem.move:ok',
      'filesystem.move:ok',
      'filesystem.delete:ok',
      'filesystem.trash:ok',
      'filesystem.restore:ok',
      'filesystem.trash:ok',
    ]);
  });
});
