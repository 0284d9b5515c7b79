import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { rawZip } from '../../helpers/archive-zips';
import { useTestGate } from '../../helpers/gate-harness';

/**
 * archive.zip and archive.unzip through the real gate, on real files: what an office worker asks
 * ("이 폴더 압축해줘", "첨부.zip 풀어줘") and checks afterwards (the files, their names, the approval).
 */

const open = useTestGate();

const report = {
  '보고서/1분기 매출.txt': '1분기 매출 합계 1,234,000원\n',
  '보고서/하위 폴더/회의록.txt': '회의록: 예산 검토\n',
  '보고서/사진.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]),
};

/** The central directory's names and their flag bit 11, read back from the written bytes. */
function centralNames(zip: Buffer): { name: string; utf8Flag: boolean }[] {
  const out: { name: string; utf8Flag: boolean }[] = [];
  for (let at = zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2])); at >= 0; at = zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2]), at + 4)) {
    const flags = zip.readUInt16LE(at + 8);
    const n = zip.readUInt16LE(at + 28);
    out.push({ name: zip.subarray(at + 46, at + 46 + n).toString('utf8'), utf8Flag: (flags & 0x800) !== 0 });
  }
  return out;
}

describe('archive.zip → archive.unzip round trip', () => {
  it('zips a folder with Korean names (UTF-8 names, flag set) and extracts it back byte for byte', async () => {
    const g = await open({ files: report, lang: 'ko' });
    const zipped = await g.call('archive.zip', { from: '보고서', to: '보고서.zip' });
    expect(zipped.outcome).toBe('ok');
    expect(zipped.text).toMatch(/^'보고서\.zip' 파일을 만들었습니다: 파일 3개/);
    expect(g.approvals).toHaveLength(1);
    expect(g.approvals[0]!.targets).toEqual([expect.objectContaining({ path: '보고서.zip', exists: false })]);
    expect(g.approvals[0]!.summary.ko).toMatch(/^파일 3개\(.+\)를 '보고서\.zip' 파일로 압축합니다$/);
    expect(g.approvals[0]!.preview).toContain('- 보고서/하위 폴더/회의록.txt');

    const bytes = await readFile(join(g.workspace, '보고서.zip'));
    expect(centralNames(bytes).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: '보고서/1분기 매출.txt', utf8Flag: true },
      { name: '보고서/사진.png', utf8Flag: true },
      { name: '보고서/하위 폴더/회의록.txt', utf8Flag: true },
    ]);

    await rm(join(g.workspace, '보고서'), { recursive: true });
    const unzipped = await g.call('archive.unzip', { path: '보고서.zip', to: '풀기' });
    expect(unzipped.outcome).toBe('ok');
    expect(unzipped.text).toMatch(/^'보고서\.zip' 파일을 풀었습니다: 파일 3개/);
    const approval = g.approvals[1]!;
    expect(approval.summary.ko).toMatch(/^보고서\.zip의 파일 3개\(.+\)를 풀기\/에 풉니다$/);
    // Folders first (parents before children), then every file the extraction writes.
    const planned = approval.targets.map((t) => t.path);
    expect(planned.slice(0, 3)).toEqual(['풀기', '풀기/보고서', '풀기/보고서/하위 폴더']);
    expect(planned.slice(3).sort()).toEqual(['풀기/보고서/1분기 매출.txt', '풀기/보고서/사진.png', '풀기/보고서/하위 폴더/회의록.txt']);
    expect(approval.preview).toContain('- 풀기/보고서/하위 폴더/회의록.txt');
    expect(approval.targets.every((t) => !t.exists)).toBe(true);
    expect(approval.targets).toHaveLength(6);
    expect(await readFile(join(g.workspace, '풀기/보고서/1분기 매출.txt'), 'utf8')).toBe(report['보고서/1분기 매출.txt']);
    expect(await readFile(join(g.workspace, '풀기/보고서/하위 폴더/회의록.txt'), 'utf8')).toBe(report['보고서/하위 폴더/회의록.txt']);
    expect(new Uint8Array(await readFile(join(g.workspace, '풀기/보고서/사진.png')))).toEqual(report['보고서/사진.png']);
  });

  it('extracts by default into a new folder named after the zip, beside it', async () => {
    const g = await open({ files: { '첨부/자료.zip': rawZip([{ name: '계약서.txt', content: '계약 내용' }]) } });
    const r = await g.call('archive.unzip', { path: '첨부/자료.zip' });
    expect(r.outcome).toBe('ok');
    expect(await readFile(join(g.workspace, '첨부/자료/계약서.txt'), 'utf8')).toBe('계약 내용');
    expect(g.approvals[0]!.summary.en).toMatch(/^Extracts 1 file \(.+\) from 첨부\/자료\.zip into 첨부\/자료\/$/);
  });

  it('decodes CP949 names written without the UTF-8 flag (Korean Windows zips)', async () => {
    const cp949 = (s: string) => new Uint8Array(iconv.encode(s, 'cp949'));
    const zip = rawZip([
      { name: cp949('한글 폴더/'), flags: 0, method: 0, externalAttributes: 0x10, versionMadeBy: 0x0014 },
      { name: cp949('한글 폴더/예산(최종).txt'), content: '예산', flags: 0, versionMadeBy: 0x0014, externalAttributes: 0x20 },
      // 똠 is one of the 8,822 extended (UHC) syllables plain EUC-KR lacks.
      { name: cp949('똠방각하.txt'), content: 'x', flags: 0, versionMadeBy: 0x0014, externalAttributes: 0x20 },
    ]);
    // The names really are CP949 bytes, not UTF-8.
    expect(Buffer.from(zip).includes(Buffer.from('똠', 'utf8'))).toBe(false);
    const g = await open({ files: { '받은 파일.zip': zip } });
    const r = await g.call('archive.unzip', { path: '받은 파일.zip' });
    expect(r.outcome).toBe('ok');
    expect((await readdir(join(g.workspace, '받은 파일'))).sort()).toEqual(['똠방각하.txt', '한글 폴더']);
    expect(await readFile(join(g.workspace, '받은 파일/한글 폴더/예산(최종).txt'), 'utf8')).toBe('예산');
  });

  it('writes NFD names from a Mac zip (no UTF-8 flag) as typed, NFC, so they are found again', async () => {
    const nfd = (s: string) => new TextEncoder().encode(s.normalize('NFD'));
    const g = await open({ files: { 'mac.zip': rawZip([{ name: nfd('휴가/휴가계.hwp'), content: 'hwp', flags: 0 }]) } });
    const r = await g.call('archive.unzip', { path: 'mac.zip' });
    expect(r.outcome).toBe('ok');
    expect(await readdir(join(g.workspace, 'mac/휴가'))).toEqual(['휴가계.hwp']);
    const info = await g.call('filesystem.info', { path: 'mac/휴가/휴가계.hwp' });
    expect(info.outcome).toBe('ok');
  });

  it('keeps empty files both ways, and creates empty folders a zip lists', async () => {
    const g = await open({ files: { '빈/비어있음.txt': '' } });
    expect((await g.call('archive.zip', { from: '빈', to: '빈.zip' })).outcome).toBe('ok');
    const r = await g.call('archive.unzip', { path: '빈.zip', to: '다시' });
    expect(r.outcome).toBe('ok');
    expect(await readFile(join(g.workspace, '다시/빈/비어있음.txt'), 'utf8')).toBe('');
    await writeFile(join(g.workspace, 'dirs.zip'), rawZip([{ name: '서류함/', content: '', method: 0, externalAttributes: (0o040755 << 16) >>> 0 }]));
    const dirs = await g.call('archive.unzip', { path: 'dirs.zip' });
    expect(dirs.outcome).toBe('ok');
    expect((await stat(join(g.workspace, 'dirs/서류함'))).isDirectory()).toBe(true);
  });

  it('refuses to extract over existing files, naming them, and writes nothing', async () => {
    const g = await open({
      files: {
        '자료.zip': rawZip([{ name: '새 파일.txt', content: 'new' }, { name: '기존.txt', content: 'from zip' }]),
        '자료/기존.txt': 'mine',
      },
      lang: 'ko',
    });
    const r = await g.call('archive.unzip', { path: '자료.zip' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('자료/기존.txt');
    expect(r.text).toContain('to에 새 폴더 이름');
    expect(g.approvals).toHaveLength(0);
    expect(await readFile(join(g.workspace, '자료/기존.txt'), 'utf8')).toBe('mine');
    expect(await readdir(join(g.workspace, '자료'))).toEqual(['기존.txt']);
  });

  it('refuses a .zip target that exists unless overwrite is true', async () => {
    const g = await open({ files: { 'a.txt': 'a', 'out.zip': 'old' } });
    const refused = await g.call('archive.zip', { from: 'a.txt', to: 'out.zip' });
    expect(refused.outcome).toBe('refused');
    expect(refused.text).toContain('overwrite: true');
    const replaced = await g.call('archive.zip', { from: 'a.txt', to: 'out.zip', overwrite: true });
    expect(replaced.outcome).toBe('ok');
    expect((await stat(join(g.workspace, 'out.zip'))).size).toBeGreaterThan(22);
  });

  it('zips a glob and a list, and refuses a destination that is not a .zip', async () => {
    const g = await open({ files: { '월별/1월.csv': '1', '월별/2월.csv': '2', '월별/메모.txt': 'm' } });
    const r = await g.call('archive.zip', { from: ['월별/*.csv', '월별/메모.txt'], to: '묶음/월별.zip' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals[0]!.targets.map((t) => t.path)).toEqual(['묶음', '묶음/월별.zip']);
    expect(r.details).toMatchObject({ files: 3, names: ['1월.csv', '2월.csv', '메모.txt'] });
    const bad = await g.call('archive.zip', { from: '월별', to: '월별.rar' });
    expect(bad.outcome).toBe('refused');
    expect(bad.text).toContain('.zip');
  });

  it('records the call in the audit ledger', async () => {
    const g = await open({ files: { 'z.zip': rawZip([{ name: 'x.txt', content: 'x' }]) } });
    const r = await g.call('archive.unzip', { path: 'z.zip', to: 'out' });
    expect(r.outcome).toBe('ok');
    const events = await g.auditEvents();
    const mine = events.filter((e) => e['tool'] === 'archive.unzip');
    const types = mine.map((e) => e['type']);
    expect(types).toEqual(expect.arrayContaining(['tool.proposed', 'approval.requested', 'approval.decided', 'execution.started', 'execution.finished']));
    const finished = mine.find((e) => e['type'] === 'execution.finished')!;
    expect(finished['outcome']).toBe('ok');
    expect(JSON.stringify(finished['target'])).toContain('x.txt');
  });

  it('never overwrites a file that appeared at a planned place after approval', async () => {
    const g = await open({
      files: { 'z.zip': rawZip([{ name: 'a.txt', content: 'from zip' }, { name: 'b.txt', content: 'b' }]) },
      approve: async () => {
        await mkdir(join(g.workspace, 'out'), { recursive: true });
        await writeFile(join(g.workspace, 'out/a.txt'), 'planted');
        return { choice: 'allow-once', approver: 'test' };
      },
    });
    const r = await g.call('archive.unzip', { path: 'z.zip', to: 'out' });
    expect(r.outcome).not.toBe('ok');
    expect(await readFile(join(g.workspace, 'out/a.txt'), 'utf8')).toBe('planted');
  });

  it('refuses when the zip changed after approval', async () => {
    const g = await open({
      files: { 'z.zip': rawZip([{ name: 'x.txt', content: 'x' }]) },
      approve: async () => {
        await writeFile(join(g.workspace, 'z.zip'), rawZip([{ name: 'x.txt', content: 'other content' }]));
        return { choice: 'allow-once', approver: 'test' };
      },
    });
    const r = await g.call('archive.unzip', { path: 'z.zip', to: 'out' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('changed after it was approved');
    await expect(stat(join(g.workspace, 'out/x.txt'))).rejects.toThrow();
  });
});
