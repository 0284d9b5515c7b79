import { createHash } from 'node:crypto';
import { mkdir as fsMkdir, realpath, stat as fsStat } from 'node:fs/promises';
import os from 'node:os';
import type { FileAccess, FileInfo, Fingerprint, FingerprintOptions, ReadTreeOptions, TrashEntry, TreeFile, WalkEntry, WalkOptions } from '../../../common/file-access';
import { Confiner } from './confine';
import { lstatOrNull, toFileInfo, toFingerprint } from './entries';
import { fileError, fromOsError } from './errors';
import { DEFAULT_MAX_MATCHES, globConfined } from './glob';
import { listConfined } from './list';
import { createPathRules, type PathRules } from './path-rules';
import { readConfined } from './read';
import { readTreeConfined } from './read-tree';
import { realForm } from '../../policy/paths';
import { copyConfined, moveConfined } from './transfer';
import { Trash } from './trash';
import { walkConfined } from './walk';
import { writeConfined } from './write';
import type { DocumentTextStore } from '../documents/text-cache';

/**
 * 50 MiB: above the largest office documents we expect to parse whole (big xlsx/pdf run to tens of
 * MB), below what would strain the main process if several tools read at once.
 */
export const DEFAULT_MAX_READ_BYTES = 50 * 1024 * 1024;

export interface FileAccessOptions {
  /** Workspace roots; must exist. The first is where relative paths resolve. */
  readonly roots: readonly string[];
  /** Baram's trash, in its data directory and outside every root; created if missing. */
  readonly trashDir: string;
  /** Paths no tool may touch (audit directory, policy file, Baram's data directory). */
  readonly protectedPaths: readonly string[];
  readonly home?: string;
  /**
   * Only the path flavour may be simulated: 'win32' rules need a Windows host for real files. Tests
   * of the Windows lexical rules use createPathRules directly.
   */
  readonly platform?: NodeJS.Platform;
  readonly maxReadBytes?: number;
  /**
   * Where readTree keeps documents' extracted texts (ReadTreeOptions.documents): the session's
   * cache in the data folder. Absent: every document is extracted each time.
   */
  readonly documentStore?: DocumentTextStore;
}

/** Creates the file capability. Async because it resolves the roots (symlinks) once, up front. */
export async function createFileAccess(options: FileAccessOptions): Promise<FileAccess> {
  const platform = options.platform ?? process.platform;
  if ((platform === 'win32') !== (process.platform === 'win32')) {
    throw new Error(
      `createFileAccess: platform '${platform}' cannot be used on a '${process.platform}' host (path syntax differs); test Windows rules with createPathRules`,
    );
  }
  const maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
  if (!Number.isSafeInteger(maxReadBytes) || maxReadBytes <= 0) throw new Error(`maxReadBytes must be a positive integer: ${maxReadBytes}`);
  const home = options.home ?? os.homedir();
  const rules = createPathRules({ platform, home });
  if (options.roots.length === 0) throw new Error('createFileAccess: at least one workspace root is required');

  const lexicalRoots: string[] = [];
  const realRoots: string[] = [];
  for (const root of options.roots) {
    const lexical = absoluteSetting(rules, root, 'workspace root', home);
    let real: string;
    try {
      real = await realpath(lexical);
    } catch {
      throw new Error(`Workspace root does not exist or cannot be read: ${root} — create the folder or fix the policy's workspaceRoots`);
    }
    if (!(await fsStat(real)).isDirectory()) throw new Error(`Workspace root is not a folder: ${root}`);
    lexicalRoots.push(lexical);
    realRoots.push(real);
  }

  const trashLexical = absoluteSetting(rules, options.trashDir, 'trash directory', home);
  await fsMkdir(trashLexical, { recursive: true, mode: 0o700 });
  const trashDir = await realpath(trashLexical);
  for (const root of [...realRoots, ...lexicalRoots]) {
    if (rules.isInsideFolded(trashDir, root) || rules.isInsideFolded(trashLexical, root) || rules.isInsideFolded(root, trashDir)) {
      throw new Error(`The trash directory must be outside the workspace roots (tools must not reach it): ${options.trashDir}`);
    }
  }

  const protectedPaths = new Set<string>([trashDir, trashLexical]);
  for (const p of options.protectedPaths) {
    const lexical = absoluteSetting(rules, p, 'protected path', home);
    protectedPaths.add(lexical);
    protectedPaths.add(realForm(lexical, process.platform));
  }

  const confiner = new Confiner({ rules, realRoots, lexicalRoots, protectedPaths: [...protectedPaths] });
  return new HostFileAccess(confiner, trashDir, maxReadBytes, platform, null, undefined, options.documentStore);
}

/** A configured path: absolute or starting with '~' (policy files write "~/Documents/Baram"). */
function absoluteSetting(rules: PathRules, value: string, what: string, home: string): string {
  const fromHome = value === '~' || /^~[\\/]/.test(value);
  if (!fromHome && !rules.api.isAbsolute(value)) throw new Error(`The ${what} must be an absolute path: ${value}`);
  return rules.resolve(value, home);
}

/**
 * The policy's say over paths nobody named (policy/path-veto.ts): every entry a walk, listing or
 * glob would hand out is asked about, skipped when a deny/ask rule covers it, and counted.
 */
export interface PathVetoLike {
  ruleFor(absolutePath: string): string | null;
}

/** A veto with its count of skipped entries, one per tool call. */
class VetoCounter {
  skipped = 0;
  constructor(private readonly veto: PathVetoLike) {}
  readonly skip = (absolutePath: string): boolean => {
    if (this.veto.ruleFor(absolutePath) === null) return false;
    this.skipped++;
    return true;
  };
}

class HostFileAccess implements FileAccess {
  readonly roots: readonly string[];
  private readonly bin: Trash;
  private readonly skip: ((absolutePath: string) => boolean) | undefined;

  constructor(
    private readonly confiner: Confiner,
    private readonly trashDir: string,
    private readonly maxReadBytes: number,
    private readonly platform: NodeJS.Platform,
    private readonly veto: VetoCounter | null,
    bin?: Trash,
    private readonly documentStore?: DocumentTextStore,
  ) {
    this.roots = confiner.realRoots;
    this.bin = bin ?? new Trash(confiner, trashDir, (p) => this.display(p));
    this.skip = veto?.skip;
  }

  /**
   * The same capability, with walks, listings and globs skipping (and counting) what `veto`
   * covers. The gate hands each tool call such a view, built from the rules for that tool.
   */
  withPathVeto(veto: PathVetoLike | null): FileAccess {
    if (veto === null) return this;
    return new HostFileAccess(this.confiner, this.trashDir, this.maxReadBytes, this.platform, new VetoCounter(veto), this.bin, this.documentStore);
  }

  /** Entries the path veto kept out of walks, listings and globs made through this view. */
  skippedByPolicy(): number {
    return this.veto?.skipped ?? 0;
  }

  vetoed(absolutePath: string): boolean {
    return this.skip?.(this.resolve(absolutePath)) ?? false;
  }

  resolve(p: string): string {
    return this.confiner.rules.resolve(p, this.confiner.base);
  }

  display(absolutePath: string): string {
    let abs: string;
    try {
      abs = this.resolve(absolutePath);
    } catch {
      return absolutePath;
    }
    const root = this.confiner.rootOf(abs) ?? this.confiner.lexicalRootOf(abs);
    // Composed (NFC), so a name from a Mac reads as typed; tools find it again from that spelling.
    return (root === undefined ? abs : this.confiner.rules.relative(root, abs)).normalize('NFC');
  }

  async check(p: string): Promise<string> {
    const entry = await this.confiner.entry(p);
    // The entry AND where it leads: a link inside the roots pointing outside fails here.
    await this.confiner.target(p);
    return entry.path;
  }

  async stat(p: string): Promise<FileInfo | null> {
    const entry = await this.confiner.entry(p);
    const st = await lstatOrNull(entry.path, p);
    return st === null ? null : toFileInfo(entry.path, st);
  }

  async fingerprint(p: string, options: FingerprintOptions = {}): Promise<Fingerprint | null> {
    const entry = await this.confiner.entry(p);
    const st = await lstatOrNull(entry.path, p);
    if (st === null) return null;
    const fingerprint = toFingerprint(st);
    if (!options.content || fingerprint.type !== 'file') return fingerprint;
    // Read through the same confined open as readBytes: the hash is of the bytes a tool would read.
    const bytes = await readConfined(this.confiner, p, {}, this.maxReadBytes);
    return { ...fingerprint, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  list(p: string, options: { readonly recursive?: boolean; readonly maxEntries?: number } = {}): Promise<FileInfo[]> {
    return listConfined(this.confiner, p, options, this.skip);
  }

  glob(pattern: string, options: { readonly maxMatches?: number } = {}): Promise<string[]> {
    return globConfined(this.confiner, pattern, options.maxMatches ?? DEFAULT_MAX_MATCHES, this.skip);
  }

  walk(p: string, options: WalkOptions = {}): AsyncIterable<WalkEntry> {
    return walkConfined(this.confiner, p, options, this.ignoresCase, this.skip);
  }

  /** .gitignore matching follows the file system's case rules (git's core.ignorecase). */
  private get ignoresCase(): boolean {
    return this.platform === 'win32' || this.platform === 'darwin';
  }

  readTree(p: string, options: ReadTreeOptions): AsyncIterable<TreeFile> {
    return readTreeConfined(this.confiner, p, options, {
      ignoreCase: this.ignoresCase,
      maxReadBytes: this.maxReadBytes,
      ...(this.skip ? { skip: this.skip } : {}),
      ...(this.documentStore ? { documentStore: this.documentStore } : {}),
    });
  }

  readBytes(p: string, options: { readonly maxBytes?: number; readonly offset?: number } = {}): Promise<Uint8Array> {
    return readConfined(this.confiner, p, options, this.maxReadBytes);
  }

  writeAtomic(p: string, data: Uint8Array | string, options: { readonly overwrite: boolean }): Promise<void> {
    return writeConfined(this.confiner, p, data, options.overwrite);
  }

  async mkdir(p: string): Promise<{ readonly created: boolean }> {
    const target = await this.confiner.target(p);
    let first: string | undefined;
    try {
      first = await fsMkdir(target.path, { recursive: true });
    } catch (e) {
      const mapped = fromOsError(e, p);
      throw mapped.code === 'EXISTS' ? fileError('NOT_DIRECTORY', p, 'a file with that name exists') : mapped;
    }
    // Recursive mkdir follows links that appear midway; confirm the folder is where we checked.
    let now: string;
    try {
      now = await realpath(target.path);
    } catch (e) {
      throw fromOsError(e, p);
    }
    if (now !== target.path) {
      this.confiner.assertReal(now, p);
      throw fileError('CHANGED', p, 'folder changed while being created');
    }
    return { created: first !== undefined };
  }

  move(from: string, to: string, options: { readonly overwrite?: boolean } = {}): Promise<void> {
    return moveConfined(this.confiner, { from, to }, options.overwrite ?? false);
  }

  copy(from: string, to: string, options: { readonly overwrite?: boolean } = {}): Promise<void> {
    return copyConfined(this.confiner, { from, to }, options.overwrite ?? false);
  }

  trash(p: string): Promise<TrashEntry> {
    return this.bin.put(p);
  }

  restore(trashId: string, options: { readonly to?: string } = {}): Promise<TrashEntry> {
    return this.bin.restore(trashId, options.to);
  }

  trashList(): Promise<TrashEntry[]> {
    return this.bin.list();
  }
}
