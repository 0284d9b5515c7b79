import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReadTreeOptions, TreeFile } from '../../../electron/common/file-access';
import { readTreeConfined, type ReadTreeRuntime } from '../../../electron/main/host/files/read-tree';
import { codeOf, collect, confinerOf, makeSandbox, type Sandbox } from './sandbox';

/**
 * FileAccess.readTree on real files: the same files as walk, in the same order, with their first
 * window; early stops, the include filter and abort; descriptors closed however the loop ends.
 */

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

async function put(rel: string, content: string | Uint8Array = 'x'): Promise<void> {
  await mkdir(path.dirname(path.join(box.ws, rel)), { recursive: true });
  await writeFile(path.join(box.ws, rel), content);
}

/** 400 small files in 4 folders (more than four batches), written synchronously. */
const MANY = 400;
function manyFiles(): void {
  for (let d = 0; d < 4; d++) {
    const dir = path.join(box.ws, `d${String(d).padStart(2, '0')}`);
    mkdirSync(dir);
    for (let i = 0; i < 100; i++) writeFileSync(path.join(dir, `f${i}.txt`), `${d}/${i}`);
  }
}

function readTree(given: string, options: ReadTreeOptions, runtime: ReadTreeRuntime = {}): AsyncGenerator<TreeFile> {
  return readTreeConfined(confinerOf(box), given, options, { ignoreCase: false, maxReadBytes: 8 << 20 }, runtime);
}

const text = (f: TreeFile): string => (f.ok ? Buffer.from(f.bytes).toString('utf8') : `!${f.code}`);

describe('readTree', () => {
  it('yields what walk yields, in the same order, each with its content', async () => {
    await put('.gitignore', '*.log\nbuild/\n');
    await put('app.ts', 'const app = 1;\n');
    await put('debug.log', 'ignored');
    await put('build/out.js', 'ignored');
    await put('src/.gitignore', 'secret.txt\n!keep.log\n');
    await put('src/secret.txt', 'ignored');
    await put('src/keep.log', 'kept');
    await put('src/sub/.ignore', '*.tmp\n');
    await put('src/sub/a.tmp', 'ignored');
    await put('.git/config', 'never');
    await put('.hidden/x.ts', 'hidden');
    await put('한글/보고서.txt', '개인정보 보고서\n');
    await put('한글/옛글.txt', iconv.encode('개인정보 처리방침\n', 'cp949'));
    // Enough files for several batches.
    for (let i = 0; i < 240; i++) await put(`many/${String(Math.floor(i / 40))}/f${String(i).padStart(3, '0')}.txt`, `file ${i}\n`);
    const walked = (await collect(box.files.walk('.'))).map((e) => e.path);
    const files = await collect(box.files.readTree('.', { windowBytes: 1 << 16 }));
    expect(files.map((f) => f.path)).toEqual(walked);
    expect(files.every((f) => f.ok && f.complete)).toBe(true);
    const byName = new Map(files.map((f) => [box.files.display(f.path), f]));
    expect(text(byName.get('app.ts') as TreeFile)).toBe('const app = 1;\n');
    expect(text(byName.get('many/3/f123.txt') as TreeFile)).toBe('file 123\n');
    expect(byName.get('src/keep.log')).toMatchObject({ ok: true, size: 4 });
    expect(byName.get('한글/보고서.txt')).toMatchObject({ utf8: true, ascii: false });
    expect(byName.get('한글/옛글.txt')).toMatchObject({ utf8: false, ascii: false });
    expect(byName.get('app.ts')).toMatchObject({ utf8: true, ascii: true });
    expect([...byName.keys()].some((p) => p.startsWith('.') || p.includes('ignored'))).toBe(false);
  });

  it.each([false, true])('gives each file exactly its own bytes, across batches and with files larger than a slab (reuseBuffers: %s)', async (reuseBuffers) => {
    // Windows share slabs of 1 MiB: a 0.6 MiB file does not fit beside another, a 1.5 MiB one gets its own buffer.
    const sizes = [10, 600 << 10, 20, 600 << 10, 1536 << 10, 7, 0];
    for (const [i, size] of sizes.entries()) await put(`f${i}.bin`, Buffer.alloc(size, 0x61 + i));
    manyFiles();
    let count = 0;
    const wrong: string[] = [];
    // Checked as each file is handed out: with reuseBuffers, that is as long as its bytes are valid.
    for await (const f of readTree('.', { windowBytes: 8 << 20, reuseBuffers })) {
      count++;
      if (!f.ok) throw new Error(`${f.path}: ${f.code}`);
      const name = path.basename(f.path);
      const expected = name.endsWith('.bin')
        ? Buffer.alloc(sizes[Number(name.slice(1, -4))] as number, 0x61 + Number(name.slice(1, -4)))
        : Buffer.from(`${Number(path.basename(path.dirname(f.path)).slice(1))}/${name.slice(1, -4)}`);
      if (!Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength).equals(expected)) wrong.push(box.files.display(f.path));
    }
    expect(wrong).toEqual([]);
    expect(count).toBe(MANY + sizes.length);
  });

  it('reads the first window of a larger file and says it is not complete', async () => {
    await put('big.txt', '0123456789abcdef');
    await put('small.txt', '0123');
    const files = await collect(readTree('.', { windowBytes: 10 }));
    expect(files.map((f) => [box.files.display(f.path), text(f), f.ok && f.complete, f.ok && f.size])).toEqual([
      ['big.txt', '0123456789', false, 16],
      ['small.txt', '0123', true, 4],
    ]);
  });

  it('reads a file named as the start whatever the ignore rules say, and refuses bad starts', async () => {
    await put('.gitignore', '*.log\n');
    await put('debug.log', 'named');
    expect((await collect(box.files.readTree('debug.log', { windowBytes: 100 }))).map(text)).toEqual(['named']);
    expect(await codeOf(collect(box.files.readTree('nothing', { windowBytes: 100 })))).toBe('NOT_FOUND');
    expect(await codeOf(collect(box.files.readTree('../outside', { windowBytes: 100 })))).toBe('OUTSIDE_ROOTS');
    await expect(collect(box.files.readTree('.', { windowBytes: 0 }))).rejects.toThrow(RangeError);
  });

  it('stops after maxFiles and reads only what include accepts', async () => {
    for (let i = 0; i < 30; i++) await put(`f${String(i).padStart(2, '0')}.${i % 3 === 0 ? 'md' : 'txt'}`, `${i}`);
    const first = await collect(box.files.readTree('.', { windowBytes: 100, maxFiles: 4 }));
    expect(first.map((f) => box.files.display(f.path))).toEqual(['f00.md', 'f01.txt', 'f02.txt', 'f03.md']);
    const opened: string[] = [];
    const md = await collect(readTree('.', { windowBytes: 100, include: (p) => p.endsWith('.md') }, { beforeOpen: (p) => void opened.push(p) }));
    expect(md.map(text)).toEqual(['0', '3', '6', '9', '12', '15', '18', '21', '24', '27']);
    expect(opened.every((p) => p.endsWith('.md'))).toBe(true); // the others are not even opened
  });

  it('stops reading as soon as the loop is left', async () => {
    manyFiles();
    let opened = 0;
    for await (const file of readTree('.', { windowBytes: 100 }, { beforeOpen: () => void opened++ })) {
      expect(file.ok).toBe(true);
      break;
    }
    // One batch at most was read ahead of the consumer.
    expect(opened).toBeLessThanOrEqual(96);
  });

  it('ends the iteration when the signal aborts, and opens nothing more', async () => {
    manyFiles();
    const controller = new AbortController();
    let seen = 0;
    let opened = 0;
    let openedAtAbort = 0;
    for await (const _file of readTree('.', { windowBytes: 100, signal: controller.signal }, { beforeOpen: () => void opened++ })) {
      if (++seen === 5) {
        controller.abort();
        openedAtAbort = opened;
      }
    }
    expect(seen).toBe(5); // nothing more once aborted, though the batch in hand held more
    expect(opened).toBe(openedAtAbort);
    // Aborted before it starts: nothing at all.
    expect(await collect(readTree('.', { windowBytes: 100, signal: AbortSignal.abort() }, { beforeOpen: () => void opened++ }))).toEqual([]);
    expect(opened).toBe(openedAtAbort);
  });

  it('goes on past folders that hold no file', async () => {
    for (let i = 0; i < 1500; i++) mkdirSync(path.join(box.ws, `e${String(i).padStart(4, '0')}`));
    await put('z/last.txt', 'found');
    expect((await collect(readTree('.', { windowBytes: 100 }))).map(text)).toEqual(['found']);
  });

  it.runIf(process.platform === 'linux')('closes every descriptor it opened, at the end or left early', async () => {
    manyFiles();
    const descriptors = (): number => readdirSync('/proc/self/fd').length;
    const before = descriptors();
    for await (const _file of readTree('.', { windowBytes: 100 })) break;
    expect(await collect(readTree('.', { windowBytes: 100, maxFiles: 150 }))).toHaveLength(150);
    expect(await collect(readTree('.', { windowBytes: 100 }))).toHaveLength(MANY);
    expect(descriptors()).toBe(before);
  });
});
