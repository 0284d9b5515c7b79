import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli';

/**
 * Issue 15 item 6: in a workspace that already is the 다운로드 folder, "./다운로드" names nothing. The
 * message says so and what to write instead, in both languages.
 */

let base: string;
let ws: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-named-again-')));
  ws = join(base, '다운로드');
  await mkdir(ws);
  await writeFile(join(ws, '휴가계.hwp'), 'hwp');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const call = (tool: string, args: unknown, lang: 'ko' | 'en') =>
  runCli(['call', tool, JSON.stringify(args), '--workspace', ws, '--data-dir', join(base, 'data'), '--lang', lang, '--approve', 'none']);

describe('the workspace named again inside itself', () => {
  it('filesystem.list ./다운로드: the workspace already is that folder, use "."', async () => {
    const en = await call('filesystem.list', { path: './다운로드' }, 'en');
    expect(en.code).toBe(3);
    expect(en.json<{ text: string }>().text).toContain("the workspace already is the folder '다운로드'");
    expect(en.json<{ text: string }>().text).toContain("write '.'");
    const ko = await call('filesystem.list', { path: './다운로드' }, 'ko');
    expect(ko.json<{ text: string }>().text).toContain("작업 폴더가 이미 '다운로드' 폴더이므로");
    expect(ko.json<{ text: string }>().text).toContain("'.'을 쓰세요");
  });

  it('a file below it: the same, with the path to write instead', async () => {
    const r = await call('filesystem.info', { path: '다운로드/휴가계.hwp' }, 'en');
    expect(r.code).toBe(3);
    expect(r.json<{ text: string }>().text).toContain("write '휴가계.hwp'");
    // And the path it suggests works.
    expect((await call('filesystem.info', { path: '휴가계.hwp' }, 'en')).code).toBe(0);
  });

  it('a glob below it: the same, instead of "nothing matches"', async () => {
    const r = await call('filesystem.move', { from: './다운로드/*.hwp', to: '정리' }, 'en');
    expect(r.code).toBe(3);
    expect(r.json<{ text: string }>().text).toContain("the workspace already is the folder '다운로드'");
    expect(r.json<{ text: string }>().text).toContain("write '*.hwp'");
  });

  it('a folder of that name inside the workspace is simply used', async () => {
    await mkdir(join(ws, '다운로드'));
    const r = await call('filesystem.list', { path: './다운로드' }, 'en');
    expect(r.code).toBe(0);
    await rm(join(ws, '다운로드'), { recursive: true });
  });
});
