import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

interface PackContextLike {
  readonly appOutDir: string;
  readonly electronPlatformName: string;
  readonly packager: { readonly executableName?: string; readonly appInfo?: { readonly productFilename: string } };
}
interface AfterPackModule {
  (context: PackContextLike): Promise<void>;
  readonly FUSES: Readonly<Record<string, boolean>>;
  electronBinaryPath(context: PackContextLike): string;
  flipAndVerify(binaryPath: string): Promise<Record<string, number>>;
}

const hook = createRequire(import.meta.url)(resolve(__dirname, '..', '..', '..', 'build', 'after-pack.cjs')) as AfterPackModule;
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A stand-in executable: filler, Electron's fuse sentinel, wire version 1, the wire, filler. */
function fakeElectron(wire: readonly number[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'baram-fuses-'));
  dirs.push(dir);
  const file = join(dir, 'baram');
  writeFileSync(file, Buffer.concat([Buffer.alloc(64, 0x41), Buffer.from(SENTINEL), Buffer.from([1, wire.length, ...wire]), Buffer.alloc(64, 0x41)]));
  return file;
}

describe('build/after-pack.cjs', () => {
  it('sets exactly the five security fuses and leaves the others as shipped', async () => {
    const file = fakeElectron([0x31, 0x30, 0x31, 0x31, 0x30, 0x30, 0x30, 0x31]);
    await hook({ appOutDir: join(file, '..'), electronPlatformName: 'linux', packager: { executableName: 'baram' } });
    const bytes = readFileSync(file);
    const at = bytes.indexOf(SENTINEL) + SENTINEL.length + 2;
    expect([...bytes.subarray(at, at + 8)].map((b) => String.fromCharCode(b)).join('')).toBe('00001101');
  });

  it('fails the build when the binary has no fuse wire', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baram-fuses-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'baram'), 'not electron');
    await expect(hook.flipAndVerify(join(dir, 'baram'))).rejects.toThrow(/sentinel/);
  });

  it('fails the build when the wire is too short for a fuse we need', async () => {
    await expect(hook.flipAndVerify(fakeElectron([0x31, 0x30, 0x31]))).rejects.toThrow(/not long enough/);
  });

  it('finds the executable the way electron-builder names it', () => {
    expect(hook.electronBinaryPath({ appOutDir: '/o', electronPlatformName: 'linux', packager: { executableName: 'baram' } })).toBe(join('/o', 'baram'));
    expect(hook.electronBinaryPath({ appOutDir: '/o', electronPlatformName: 'win32', packager: { appInfo: { productFilename: 'Baram' } } })).toBe(join('/o', 'Baram.exe'));
    expect(() => hook.electronBinaryPath({ appOutDir: '/o', electronPlatformName: 'aix', packager: {} })).toThrow(/unknown platform/);
  });

  it('asks for the fuses SPEC §6 requires', () => {
    expect(hook.FUSES).toEqual({
      RunAsNode: false,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
    });
  });
});
