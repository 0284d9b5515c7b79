import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { rawZip, SYMLINK_ATTRIBUTES, type RawEntry } from '../helpers/archive-zips';
import { useTestGate, type TestGate } from '../helpers/gate-harness';

/**
 * archive.unzip against zips an attacker writes: every entry name that could land outside the
 * destination, on a device, or on another entry's file is refused before anyone is asked, naming
 * the entry; nothing is written anywhere (the workspace holds only the zip, the outside nothing).
 */

const open = useTestGate();

async function tree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

async function refusedBeforeApproval(g: TestGate, entries: RawEntry[], shown: string): Promise<string> {
  const r = await g.call('archive.unzip', { path: 'evil.zip', to: 'out' });
  expect({ outcome: r.outcome, approvals: g.approvals.length }).toEqual({ outcome: 'refused', approvals: 0 });
  expect(r.text).toContain(shown);
  expect(await tree(g.workspace)).toEqual(['evil.zip']);
  expect(await tree(g.outside)).toEqual([]);
  return r.text;
}

const slip: [string, string, string][] = [
  // entry name, how the message shows it, the reason it must mention (en)
  ['../evil.txt', '../evil.txt', "'..'"],
  ['a/../../evil.txt', 'a/../../evil.txt', "'..'"],
  ['..\\evil.txt', '..\\evil.txt', "'..'"],
  ['a\\..\\..\\..\\evil.txt', 'a\\..\\..\\..\\evil.txt', "'..'"],
  ['/etc/evil.txt', '/etc/evil.txt', 'absolute'],
  ['\\Windows\\evil.txt', '\\Windows\\evil.txt', 'absolute'],
  ['C:/Users/evil.txt', 'C:/Users/evil.txt', 'drive letter'],
  ['C:evil.txt', 'C:evil.txt', 'drive letter'],
  ['a\u0000b.txt', 'a\\u0000b.txt', 'control character'],
  ['report\n.txt', 'report\\u000a.txt', 'control character'],
  ['CON.txt', 'CON.txt', 'reserved Windows name'],
  ['docs/nul', 'docs/nul', 'reserved Windows name'],
  ['LPT1', 'LPT1', 'reserved Windows name'],
  ['a.txt:hidden', 'a.txt:hidden', 'does not allow'],
  ['what?.txt', 'what?.txt', 'does not allow'],
  ['trailing.txt.', 'trailing.txt.', 'ends in a dot or space'],
  ['folder /x.txt', 'folder /x.txt', 'ends in a dot or space'],
  ['a//b.txt', 'a//b.txt', "empty or '.'"],
  ['./x.txt', './x.txt', "empty or '.'"],
  [`${'가'.repeat(90)}.txt`, '가가가', '255 bytes'],
];

describe('archive.unzip refuses zip-slip and ill-formed names', () => {
  for (const [name, shown, reason] of slip) {
    it(`refuses ${JSON.stringify(name)}`, async () => {
      const entries: RawEntry[] = [{ name: 'fine.txt', content: 'ok' }, { name, content: 'evil' }];
      const g = await open({ files: { 'evil.zip': rawZip(entries) } });
      const text = await refusedBeforeApproval(g, entries, shown);
      expect(text).toContain(reason);
      expect(text).toContain('ask its sender');
    });
  }

  it('says it in Korean in a Korean session', async () => {
    const entries: RawEntry[] = [{ name: '../../비밀.txt', content: 'x' }];
    const g = await open({ files: { 'evil.zip': rawZip(entries) }, lang: 'ko' });
    const text = await refusedBeforeApproval(g, entries, '../../비밀.txt');
    expect(text).toContain('풀지 않습니다');
  });

  const collisions: [string, RawEntry[], string[]][] = [
    ['letter case', [{ name: 'Report.txt', content: 'a' }, { name: 'report.txt', content: 'b' }], ['Report.txt', 'report.txt']],
    ['NFC and NFD spellings', [{ name: '휴가계.hwp', content: 'a' }, { name: '휴가계.hwp'.normalize('NFD'), content: 'b' }], ['휴가계.hwp']],
    ['the same name twice', [{ name: 'x.txt', content: 'a' }, { name: 'x.txt', content: 'b' }], ['x.txt']],
    ['a file where a folder is needed', [{ name: 'a', content: 'file' }, { name: 'A/b.txt', content: 'b' }], ["'a'", 'A/']],
    ['a backslash path onto a slash path', [{ name: 'd/e.txt', content: 'a' }, { name: 'd\\E.txt', content: 'b' }], ['d/e.txt', 'd\\E.txt']],
  ];
  for (const [what, entries, names] of collisions) {
    it(`refuses two entries that land on one file: ${what}`, async () => {
      const g = await open({ files: { 'evil.zip': rawZip(entries) } });
      const text = await refusedBeforeApproval(g, entries, names[0]!);
      for (const n of names) expect(text).toContain(n);
      expect(text).toContain('would become one file');
    });
  }

  it('refuses a symbolic link entry (Unix mode) and a reparse point (Windows attribute)', async () => {
    const link: RawEntry[] = [{ name: 'docs/link', content: '/etc/passwd', externalAttributes: SYMLINK_ATTRIBUTES }];
    const g = await open({ files: { 'evil.zip': rawZip(link) } });
    expect(await refusedBeforeApproval(g, link, 'docs/link')).toContain('symbolic link');
  });

  it('refuses a Windows reparse-point entry', async () => {
    const link: RawEntry[] = [{ name: 'junction', content: '', versionMadeBy: 0x0014, externalAttributes: 0x410 }];
    const g = await open({ files: { 'evil.zip': rawZip(link) } });
    expect(await refusedBeforeApproval(g, link, 'junction')).toContain('symbolic link');
  });

  it('refuses a device or FIFO entry', async () => {
    const fifo: RawEntry[] = [{ name: 'pipe', content: '', externalAttributes: (0o010644 << 16) >>> 0 }];
    const g = await open({ files: { 'evil.zip': rawZip(fifo) } });
    expect(await refusedBeforeApproval(g, fifo, 'pipe')).toContain('neither a file nor a folder');
  });

  it('refuses an encrypted entry and says how to get it out instead', async () => {
    const locked: RawEntry[] = [{ name: '급여.xlsx', content: 'xx', flags: 0x0801 }];
    const g = await open({ files: { 'evil.zip': rawZip(locked) } });
    const text = await refusedBeforeApproval(g, locked, '급여.xlsx');
    expect(text).toContain('encrypted');
    expect(text).toContain('password');
  });

  it('refuses a name flagged UTF-8 that is not UTF-8', async () => {
    const bad: RawEntry[] = [{ name: new Uint8Array([0x61, 0xff, 0xfe, 0x2e, 0x74]), flags: 0x0800, content: 'x' }];
    const g = await open({ files: { 'evil.zip': rawZip(bad) } });
    expect(await refusedBeforeApproval(g, bad, '(5 bytes)')).toContain('marked UTF-8');
  });

  it('refuses a file that is not a zip at all', async () => {
    const g = await open({ files: { 'evil.zip': 'Rar!\u001a\u0007\u0000 not a zip' } });
    const r = await g.call('archive.unzip', { path: 'evil.zip' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('not a zip file');
  });
});
