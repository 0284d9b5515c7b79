import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkGguf } from '../../../electron/main/model/gguf';
import { tinyGgufBytes } from '../../../scripts/make-tiny-gguf';

const dir = mkdtempSync(join(tmpdir(), 'baram-gguf-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(bytes: Buffer | string): string {
  const p = join(dir, `m${n++}.gguf`);
  writeFileSync(p, bytes);
  return p;
}
const problem = (p: string) => {
  const c = checkGguf(p);
  if (c.ok) throw new Error('expected a problem');
  expect(c.problem.ko).toMatch(/[가-힣]/);
  return c.problem.en;
};

describe('GGUF header check (before the engine, which aborts the process on a bad header)', () => {
  const good = tinyGgufBytes();

  it('accepts the generated model and reports its facts', () => {
    const c = checkGguf(file(good));
    expect(c.ok).toBe(true);
    if (c.ok) {
      expect(c.info).toMatchObject({ version: 3, architecture: 'llama', contextLength: 4096, tensorCount: 12, name: 'baram-tiny-test' });
      expect(c.info.fileSize).toBe(good.length);
    }
  });

  it('the generator is deterministic', () => {
    expect(tinyGgufBytes().equals(good)).toBe(true);
  });

  it('refuses a missing file, a non-GGUF file, a short file', () => {
    expect(problem(join(dir, 'absent.gguf'))).toContain('ENOENT');
    expect(problem(file('PK\u0003\u0004 this is a zip, not a model at all'))).toContain('GGUF');
    expect(problem(file('GGUF'))).toContain('only 4 bytes');
  });

  it('refuses an unsupported version and absurd counts', () => {
    const v = Buffer.from(good);
    v.writeUInt32LE(99, 4);
    expect(problem(file(v))).toContain('version 99');
    const t = Buffer.from(good);
    t.writeBigUInt64LE(10n ** 12n, 8);
    expect(problem(file(t))).toContain('tensor count');
    const k = Buffer.from(good);
    k.writeBigUInt64LE(2n ** 63n, 16);
    expect(problem(file(k))).toMatch(/too large|key count/);
  });

  it.each(['llama.feed_forward_length', 'llama.attention.head_count', 'llama.block_count', 'tokenizer.ggml.tokens', 'general.architecture'])(
    'refuses a header without %s (each would abort llama.cpp)',
    (key) => {
      const short = key.split('.').slice(-1)[0]!;
      expect(problem(file(tinyGgufBytes({ omitKeys: [key] })))).toContain(key === 'general.architecture' ? 'architecture' : short);
    },
  );

  it('refuses a file cut short (tensor data past the end, or the header itself)', () => {
    expect(problem(file(good.subarray(0, good.length - 1000)))).toContain('beyond the end');
    expect(problem(file(good.subarray(0, 2000)))).toContain('past the end');
  });
});
