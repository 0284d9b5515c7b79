import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli';

/** `baram call archive.zip / archive.unzip`: the real command, the built CLI when it is current. */
let base: string;
let ws: string;
let data: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-archive-cli-')));
  ws = join(base, 'ws');
  data = join(base, 'data');
  await mkdir(join(ws, '견적'), { recursive: true });
  await writeFile(join(ws, '견적/견적서 2026.txt'), '견적 금액: 3,000,000원\n');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('baram call archive.*', () => {
  it('zips a folder and unzips it again, in Korean, approvals given on the command line', async () => {
    const common = ['--workspace', ws, '--data-dir', data, '--approve', 'all', '--lang', 'ko'];
    const zipped = await runCli(['call', 'archive.zip', JSON.stringify({ from: '견적', to: '견적.zip' }), ...common]);
    expect(zipped.code).toBe(0);
    expect(zipped.json()).toMatchObject({ outcome: 'ok', tool: 'archive.zip' });
    const unzipped = await runCli(['call', 'archive.unzip', JSON.stringify({ path: '견적.zip', to: '복원' }), ...common]);
    expect(unzipped.code).toBe(0);
    expect(unzipped.json<{ text: string }>().text).toMatch(/^'견적\.zip' 파일을 풀었습니다: 파일 1개/);
    expect(await readFile(join(ws, '복원/견적/견적서 2026.txt'), 'utf8')).toBe('견적 금액: 3,000,000원\n');
  });

  it('exits 3 when the gate blocks a zip-slip entry', async () => {
    // A zip whose only entry is '../탈출.txt', made by hand (stored, CRC of "x").
    const name = Buffer.from('../탈출.txt', 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt32LE(0x8cdc1683, 14);
    local.writeUInt32LE(1, 18);
    local.writeUInt32LE(1, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(0x8cdc1683, 16);
    central.writeUInt32LE(1, 20);
    central.writeUInt32LE(1, 24);
    central.writeUInt16LE(name.length, 28);
    const dirAt = 30 + name.length + 1;
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(46 + name.length, 12);
    end.writeUInt32LE(dirAt, 16);
    await writeFile(join(ws, 'evil.zip'), Buffer.concat([local, name, Buffer.from('x'), central, name, end]));
    const r = await runCli(['call', 'archive.unzip', '{"path":"evil.zip"}', '--workspace', ws, '--data-dir', data, '--approve', 'all', '--lang', 'en']);
    expect(r.code).toBe(3);
    expect(r.json()).toMatchObject({ outcome: 'refused' });
    expect(r.json<{ text: string }>().text).toContain("'../탈출.txt'");
  });
});
