import type { EntryType } from '../../../common/file-access';
import type { Confiner } from './confine';
import { compareNames, hasUnknownType, type ListedEntry } from './entries';
import type { IgnoreStack } from './ignore-rules';

/**
 * What a walk does with one folder's listing. Shared by walkConfined (async) and readTree
 * (synchronous, read-tree.ts), so the two walks cannot drift apart: the same files are searched
 * as listed.
 */
export interface WalkChild {
  /** Absolute: the checked folder joined with the entry's name. */
  readonly path: string;
  /** The entry's name in its folder. */
  readonly name: string;
  readonly isDir: boolean;
}

export interface ChildRules {
  readonly confiner: Confiner;
  readonly ignores: IgnoreStack;
  readonly includeHidden: boolean;
  /** The policy's path veto (FileAccess.withPathVeto): true = skip this entry (it has been counted). */
  readonly skip?: ((absolutePath: string) => boolean) | undefined;
}

/** True for names a walk never looks at, whatever their type. */
function skippedByName(name: string, includeHidden: boolean): boolean {
  return name === '.git' || (!includeHidden && name.startsWith('.'));
}

/** Dirents whose type the caller must look up (lstat) before walkChildren: rare (some network shares). */
export function direntsNeedingType<E extends ListedEntry>(dirents: readonly E[], includeHidden: boolean): E[] {
  return dirents.filter((d) => !skippedByName(d.name, includeHidden) && hasUnknownType(d));
}

/**
 * The children a walk visits, sorted by name (code-unit order). `.git` is never entered; hidden
 * names only with includeHidden; symlinks are never followed (so never out of the roots); devices
 * and pipes are not files; protected paths are skipped; ignore rules apply. `lookedUp` holds the
 * type of each dirent of direntsNeedingType (null: vanished). Sorts `dirents` in place.
 */
export function walkChildren<E extends ListedEntry>(dir: string, dirents: E[], rules: ChildRules, lookedUp: ReadonlyMap<E, EntryType | null>): WalkChild[] {
  const { confiner, ignores, includeHidden } = rules;
  const { api, windows } = confiner.rules;
  const checkProtected = confiner.hasProtectedWithin(dir);
  const children: WalkChild[] = [];
  dirents.sort((a, b) => compareNames(a.name, b.name));
  for (const dirent of dirents) {
    const name = dirent.name;
    if (skippedByName(name, includeHidden)) continue;
    let isFile = dirent.isFile();
    let isDir = dirent.isDirectory();
    if (!isFile && !isDir && lookedUp.has(dirent)) {
      const type = lookedUp.get(dirent);
      isFile = type === 'file';
      isDir = type === 'directory';
    }
    if (!isFile && !isDir) continue; // symlinks are not followed; devices and pipes are not files
    // `dir` is absolute and normalised and `name` a single component: on POSIX a concatenation is
    // the join (path.join re-normalises, ~2 ms per 6,000 files on the reader's hot path).
    const child = windows ? api.join(dir, name) : dir === '/' ? `/${name}` : `${dir}/${name}`;
    if (checkProtected && confiner.isProtected(child)) continue;
    if (!ignores.isEmpty && ignores.ignores(child, isDir)) continue;
    if (rules.skip !== undefined && rules.skip(child)) continue;
    children.push({ path: child, name, isDir });
  }
  return children;
}
