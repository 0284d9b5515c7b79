import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_RATIO, MAX_TOTAL_BYTES } from '../../tools/archive/limits';
import { rawZip, type RawEntry } from '../helpers/archive-zips';
import { useTestGate } from '../helpers/gate-harness';

/**
 * Zip bombs: caps judged from the directory before approval (entry count, declared sizes, ratio),
 * and, because declared sizes are the attacker's word, the real bytes counted while inflating: an
 * entry that inflates past what it declared stops the extraction and leaves no file of its own.
 */

const open = useTestGate();
const zeros = (n: number) => new Uint8Array(n);
const listing = async (dir: string) => (await readdir(dir, { recursive: true })).map(String).sort();

describe('archive.unzip caps', () => {
  it('refuses more than MAX_ENTRIES entries before anyone is asked', async () => {
    const entries: RawEntry[] = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => ({ name: `f${i}.txt`, content: '', method: 0 }));
    const g = await open({ files: { 'many.zip': rawZip(entries) } });
    const r = await g.call('archive.unzip', { path: 'many.zip' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain(`${MAX_ENTRIES + 1} entries`);
    expect(g.approvals).toHaveLength(0);
    expect(await listing(g.workspace)).toEqual(['many.zip']);
  });

  it(`refuses an entry whose ratio is over ${MAX_RATIO}× (10 MiB of zeros in ~10 KB)`, async () => {
    const g = await open({ files: { 'bomb.zip': rawZip([{ name: 'zeros.bin', content: zeros(10 * 1024 * 1024) }]) } });
    const r = await g.call('archive.unzip', { path: 'bomb.zip' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('zeros.bin');
    expect(r.text).toContain('zip bomb');
    expect(g.approvals).toHaveLength(0);
  });

  it('refuses an entry that declares more than one file may have', async () => {
    const g = await open({ files: { 'big.zip': rawZip([{ name: 'huge.iso', content: 'x', declaredSize: MAX_ENTRY_BYTES + 1, declaredCompressedSize: 20 * 1024 * 1024 }]) } });
    const r = await g.call('archive.unzip', { path: 'big.zip' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('huge.iso');
    expect(g.approvals).toHaveLength(0);
  });

  it('refuses a zip whose entries add up to more than the total cap', async () => {
    const each = Math.floor(MAX_ENTRY_BYTES * 0.9);
    const count = Math.ceil(MAX_TOTAL_BYTES / each) + 1;
    const entries: RawEntry[] = Array.from({ length: count }, (_, i) => ({ name: `part${i}.bin`, content: 'x', declaredSize: each, declaredCompressedSize: Math.ceil(each / 50) }));
    const g = await open({ files: { 'total.zip': rawZip(entries) } });
    const r = await g.call('archive.unzip', { path: 'total.zip' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('would produce more than');
    expect(g.approvals).toHaveLength(0);
  });

  it('stops at an entry that inflates beyond its declared size, and leaves no file of it (nor a temp file)', async () => {
    // Declares 1,000 bytes (ratio 1000/~1000 passes), really inflates to 4 MiB.
    const liar: RawEntry = { name: 'liar.txt', content: zeros(4 * 1024 * 1024), declaredSize: 1000 };
    const g = await open({ files: { 'liar.zip': rawZip([{ name: 'first.txt', content: 'honest' }, liar, { name: 'after.txt', content: 'never' }]) } });
    const r = await g.call('archive.unzip', { path: 'liar.zip', to: 'out' });
    expect(g.approvals).toHaveLength(1); // the directory looked harmless
    expect(r.outcome).toBe('error');
    expect(r.text).toContain("'liar.txt'");
    expect(r.text).toContain('inflates beyond its declared');
    // The complete file before it stays; the liar and everything after it do not exist.
    expect(await listing(join(g.workspace, 'out'))).toEqual(['first.txt']);
    expect(r.details).toMatchObject({ written: 1 });
  });

  it('refuses a stored entry whose two sizes disagree before anyone is asked', async () => {
    const g = await open({ files: { 'liar.zip': rawZip([{ name: 'stored.txt', content: 'x'.repeat(5000), method: 0, declaredSize: 10, declaredCompressedSize: 5000 }]) } });
    const r = await g.call('archive.unzip', { path: 'liar.zip', to: 'out' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('damaged');
    expect(g.approvals).toHaveLength(0);
    expect(await listing(g.workspace)).toEqual(['liar.zip']);
  });

  it('stops at a damaged entry (bad CRC) and leaves no file of it', async () => {
    const g = await open({ files: { 'bad.zip': rawZip([{ name: 'ok.txt', content: 'fine' }, { name: 'crc.txt', content: 'damaged', badCrc: true }]) } });
    const r = await g.call('archive.unzip', { path: 'bad.zip', to: 'out' });
    expect(r.outcome).toBe('error');
    expect(r.text).toContain('damaged');
    expect(await listing(join(g.workspace, 'out'))).toEqual(['ok.txt']);
  });
});
