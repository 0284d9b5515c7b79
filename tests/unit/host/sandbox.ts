import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FileAccess } from '../../../electron/common/file-access';
import { createFileAccess, createPathRules } from '../../../electron/main/host/files';
import { Confiner } from '../../../electron/main/host/files/confine';

/**
 * A real workspace in a temp folder: ws/ (the root), outside/ (a secret next to it), data/ with the
 * trash and an audit folder (protected), plus ws/.baram-audit, a protected path inside the root.
 */
export interface Sandbox {
  readonly base: string;
  readonly ws: string;
  readonly outside: string;
  readonly secret: string;
  readonly trashDir: string;
  readonly auditDir: string;
  readonly protectedInside: string;
  readonly files: FileAccess;
  cleanup(): Promise<void>;
}

export async function makeSandbox(options: { readonly maxReadBytes?: number } = {}): Promise<Sandbox> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'baram-files-'));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  const trashDir = path.join(base, 'data', 'trash');
  const auditDir = path.join(base, 'data', 'audit');
  const protectedInside = path.join(ws, '.baram-audit');
  await mkdir(ws);
  await mkdir(outside);
  await mkdir(auditDir, { recursive: true });
  await mkdir(protectedInside);
  await writeFile(path.join(protectedInside, 'ledger.db'), 'ledger');
  const secret = path.join(outside, 'secret.txt');
  await writeFile(secret, 'TOP SECRET');
  const files = await createFileAccess({
    roots: [ws],
    trashDir,
    protectedPaths: [auditDir, protectedInside],
    home: path.join(base, 'home'),
    ...(options.maxReadBytes === undefined ? {} : { maxReadBytes: options.maxReadBytes }),
  });
  return {
    base,
    ws: files.roots[0] as string,
    outside,
    secret,
    trashDir,
    auditDir,
    protectedInside,
    files,
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** Rejects with a FileAccessError of this code (and the caller's path), or fails the test. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof Error && e.name === 'FileAccessError') return (e as Error & { code: string }).code;
    throw e;
  }
  return 'no error';
}

/** Every name in a folder tree, for "no temp file left behind" checks. */
export async function allNames(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(dir, { withFileTypes: true })) {
    out.push(d.name);
    if (d.isDirectory()) out.push(...(await allNames(path.join(dir, d.name))).map((n) => `${d.name}/${n}`));
  }
  return out.sort();
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** The confinement the sandbox's FileAccess applies, for tests that drive host internals directly. */
export function confinerOf(b: Sandbox): Confiner {
  return new Confiner({
    rules: createPathRules({ platform: process.platform, home: path.join(b.base, 'home') }),
    realRoots: [b.ws],
    lexicalRoots: [b.ws],
    protectedPaths: [b.auditDir, b.protectedInside],
  });
}
