import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/**
 * Zips from and for real programs: Info-ZIP's zip and unzip (what Linux servers and many scripts
 * use). A zip it made is extracted; a zip we made passes its integrity test and lists our names.
 */

const open = useTestGate();
const ZIP = '/usr/bin/zip';
const UNZIP = '/usr/bin/unzip';

describe.skipIf(!existsSync(ZIP) || !existsSync(UNZIP))('Info-ZIP interop', () => {
  it('extracts a zip made by Info-ZIP zip, Korean names and subfolders included', async () => {
    const g = await open();
    await mkdir(join(g.workspace, 'src/결재 문서'), { recursive: true });
    await writeFile(join(g.workspace, 'src/결재 문서/품의서.txt'), '품의 내용\n');
    await writeFile(join(g.workspace, 'src/요약.txt'), 'x'.repeat(100_000));
    execFileSync(ZIP, ['-q', '-r', '../info.zip', '.'], { cwd: join(g.workspace, 'src'), env: { LANG: 'C.UTF-8', PATH: '/usr/bin:/bin' } });
    const r = await g.call('archive.unzip', { path: 'info.zip', to: 'out' });
    expect(r.outcome, r.text).toBe('ok');
    expect(await readFile(join(g.workspace, 'out/결재 문서/품의서.txt'), 'utf8')).toBe('품의 내용\n');
    expect(await readFile(join(g.workspace, 'out/요약.txt'), 'utf8')).toBe('x'.repeat(100_000));
  });

  it('makes zips Info-ZIP unzip tests as sound and lists with the same names', async () => {
    const g = await open({ files: { '보고서/1분기.txt': '1분기\n', '보고서/사진.jpg': new Uint8Array(5000).fill(7) } });
    const r = await g.call('archive.zip', { from: '보고서', to: '보고서.zip' });
    expect(r.outcome).toBe('ok');
    const zip = join(g.workspace, '보고서.zip');
    expect(execFileSync(UNZIP, ['-t', zip], { env: { LANG: 'C.UTF-8', PATH: '/usr/bin:/bin' } }).toString()).toContain('No errors detected');
    const listed = execFileSync(UNZIP, ['-Z1', zip], { env: { LANG: 'C.UTF-8', PATH: '/usr/bin:/bin' } }).toString().trim().split('\n').sort();
    expect(listed).toEqual(['보고서/1분기.txt', '보고서/사진.jpg']);
  });
});
