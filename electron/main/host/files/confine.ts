import { closeSync, constants, openSync, readlinkSync, realpathSync } from 'node:fs';
import { fileError, isErrno } from './errors';
import type { PathRules } from './path-rules';
import { realForm } from '../../policy/paths';
import { diskSpelling } from './spelling';

const DIRECTORY_PROOF_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** /proc/self/fd names descriptors on Linux; false once it failed to (hidden /proc). */
let procFd: boolean | undefined;
function useProcFd(): boolean {
  return process.platform === 'linux' && procFd !== false;
}

/** A path that passed confinement: `path` is what operations act on. */
export interface Confined {
  /** As the caller wrote it; the only form that goes into error messages. */
  readonly given: string;
  /** Lexically resolved (absolute, `..` folded, `~` expanded). */
  readonly lexical: string;
  /** Directories resolved through symlinks; see Confiner.entry / Confiner.target for the last part. */
  readonly path: string;
}

export interface ConfinerOptions {
  readonly rules: PathRules;
  /** Realpath'd roots; real locations must lie in one of these. roots[0] resolves relative paths. */
  readonly realRoots: readonly string[];
  /** The roots as configured (may contain symlinks); accepted for the lexical check only. */
  readonly lexicalRoots: readonly string[];
  /** Lexical and realpath'd forms of every protected path (the trash directory included). */
  readonly protectedPaths: readonly string[];
}

/**
 * Confinement in two steps, both required (SPEC G-PERM PATH subject): the lexical path must be
 * inside a root, and so must its real location after symlinks. Protected paths are refused in
 * either form.
 */
export class Confiner {
  readonly rules: PathRules;
  readonly realRoots: readonly string[];
  private readonly lexicalRoots: readonly string[];
  private readonly protectedPaths: readonly string[];

  constructor(options: ConfinerOptions) {
    this.rules = options.rules;
    this.realRoots = options.realRoots;
    this.lexicalRoots = options.lexicalRoots;
    this.protectedPaths = options.protectedPaths;
  }

  get base(): string {
    return this.realRoots[0] as string;
  }

  /** Lexical resolution and the lexical half of the checks. */
  lexical(given: string): string {
    const abs = this.rules.resolve(given, this.base);
    const roots = [...this.realRoots, ...this.lexicalRoots];
    if (!roots.some((root) => this.rules.isInside(abs, root))) throw fileError('OUTSIDE_ROOTS', given);
    if (this.isProtected(abs)) throw fileError('FORBIDDEN', given);
    return abs;
  }

  /**
   * The entry itself: parent directories resolved through symlinks, the last component NOT
   * followed. For operations on the name (stat, move, trash): a link is moved, not its target.
   */
  async entry(given: string): Promise<Confined> {
    const lexical = this.spelled(this.lexical(given), given);
    const api = this.rules.api;
    const rootIndex = this.lexicalRoots.findIndex((root) => this.rules.isInside(root, lexical) && this.rules.isInside(lexical, root));
    let real: string;
    if (rootIndex >= 0) {
      // A configured root may itself be a symlink (a redirected Documents folder); it means its target.
      real = this.realRoots[rootIndex] as string;
    } else {
      const parent = api.dirname(lexical);
      real = parent === lexical ? lexical : api.join(await this.realpathOf(parent, given), api.basename(lexical));
    }
    this.assertReal(real, given);
    return { given, lexical, path: real };
  }

  /** Fully resolved, the last component followed too. For operations on content (read, write, list). */
  async target(given: string): Promise<Confined> {
    const lexical = this.spelled(this.lexical(given), given);
    const real = await this.realpathOf(lexical, given);
    this.assertReal(real, given);
    return { given, lexical, path: real };
  }

  /**
   * The lexical path with each existing name below its root spelled as the disk spells it: typed
   * 휴가계.hwp (NFC) finds a file from a Mac named in NFD (spelling.ts). Names from the first
   * missing one on stay as typed (they are to be created). AMBIGUOUS when a folder holds two names
   * that differ only in normalisation.
   */
  private spelled(lexical: string, given: string): string {
    const rules = this.rules;
    let root: string | undefined;
    for (const r of [...this.realRoots, ...this.lexicalRoots]) {
      if (rules.isInside(lexical, r) && (root === undefined || r.length > root.length)) root = r;
    }
    if (root === undefined) return lexical;
    const rel = rules.relative(root, lexical);
    if (rel === '.') return lexical;
    const names = rel.split('/');
    let dir = root;
    let respelled = false;
    for (const [i, name] of names.entries()) {
      const onDisk = diskSpelling(dir, name, rules, given);
      if (onDisk === null) return rules.api.join(dir, ...names.slice(i));
      respelled ||= onDisk.name !== name;
      // The permission layer judged the typed spelling, which names nothing on disk, so it could
      // not follow a link at or behind the respelled name: where that leads was never judged.
      if (respelled && onDisk.link) throw fileError('INVALID_PATH', given, 'symbolic link behind a name spelled otherwise on disk');
      dir = rules.api.join(dir, onDisk.name);
    }
    return dir;
  }

  /** Real-location half of the checks, for paths we built ourselves from checked parts. */
  assertReal(real: string, given: string): void {
    if (!this.isInsideRoots(real)) throw fileError('OUTSIDE_ROOTS', given);
    if (this.isProtected(real)) throw fileError('FORBIDDEN', given);
  }

  isInsideRoots(real: string): boolean {
    return this.realRoots.some((root) => this.rules.isInside(real, root));
  }

  isProtected(p: string): boolean {
    return this.protectedPaths.some((guarded) => this.rules.isInsideFolded(p, guarded));
  }

  /** True when a protected path lies at or below `dir`: only then must a traversal test each child. */
  hasProtectedWithin(dir: string): boolean {
    return this.protectedPaths.some((guarded) => this.rules.isInsideFolded(guarded, dir));
  }

  /** True when a root or a protected path lies at or below `dir` (so it must not be moved away). */
  holdsGuarded(dir: string): boolean {
    return [...this.realRoots, ...this.protectedPaths].some((guarded) => this.rules.isInsideFolded(guarded, dir));
  }

  /** The root containing a real path (the longest, when roots nest). */
  rootOf(real: string): string | undefined {
    let best: string | undefined;
    for (const root of this.realRoots) {
      if (this.rules.isInside(real, root) && (best === undefined || root.length > best.length)) best = root;
    }
    return best;
  }

  /** The configured (lexical) root containing a lexical path, for display of unresolved paths. */
  lexicalRootOf(abs: string): string | undefined {
    let best: string | undefined;
    for (const root of this.lexicalRoots) {
      if (this.rules.isInside(abs, root) && (best === undefined || root.length > best.length)) best = root;
    }
    return best;
  }

  /**
   * Re-checks, after the fact, that a directory we are about to read still resolves to itself.
   * On Linux the proof is the kernel's own name for a descriptor opened on it (O_DIRECTORY,
   * O_NOFOLLOW; readlink of /proc/self/fd/N): three system calls whatever the depth. realpath(3)
   * walks the path in user space, one lstat/readlink per component, so proving every folder of a
   * walk that way cost O(depth²) system calls, each itself O(depth) in the kernel (issue 14
   * class 12: 1,000 nested folders ≈ 15 s). Elsewhere, or without /proc, realpath as before.
   */
  stillResolvesToSync(dir: string): boolean {
    if (useProcFd()) {
      let fd: number;
      try {
        fd = openSync(dir, DIRECTORY_PROOF_FLAGS);
      } catch {
        return false;
      }
      try {
        return this.sameLocation(readlinkSync(`/proc/self/fd/${fd}`), dir);
      } catch {
        procFd = false;
      } finally {
        closeSync(fd);
      }
    }
    try {
      return this.sameLocation(realpathSync.native(dir), dir);
    } catch {
      return false;
    }
  }

  /** Same path, under the platform's case rules (Windows may report another drive-letter case). */
  private sameLocation(now: string, dir: string): boolean {
    return now === dir || (this.rules.isInside(now, dir) && this.rules.isInside(dir, now));
  }

  private async realpathOf(abs: string, given: string): Promise<string> {
    try {
      return realForm(abs, process.platform);
    } catch (e) {
      if (isErrno(e, 'ELOOP')) throw fileError('INVALID_PATH', given, 'symbolic link loop');
      // EACCES on a directory on the way, and the like: we cannot tell where the path leads.
      throw fileError('IO', given, isErrno(e) ? e.code : undefined);
    }
  }
}
