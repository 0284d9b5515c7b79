import { lstatSync, type Dirent, type Stats } from 'node:fs';
import type { EntryType, WalkEntry, WalkOptions } from '../../../common/file-access';
import type { Confiner } from './confine';
import { isUnreadable, lstatOrNull, readDirectoryCheckedSync, resolveUnknownTypeSync, yieldEvery } from './entries';
import { fileError } from './errors';
import { IgnoreStack } from './ignore-rules';
import { direntsNeedingType, walkChildren } from './walk-children';

// Sizes are looked up in chunks as the cursor reaches them, so `maxFiles: 10` over a
// 100,000-file folder does not stat them all.
const STAT_CHUNK = 64;

/**
 * Listings and sizes are synchronous calls (docs/2026-12-03-host-metadata-calls-sync.md): on a
 * local disk an lstat takes microseconds, while an asynchronous one costs a thread-pool round trip
 * of more CPU than the call. The walk hands the event loop back every so often (yieldEvery), so a
 * long walk on a slow share does not hold up the main process in one piece.
 * Null for anything that vanished or cannot be read; the walk then skips it.
 */
function lstatQuiet(p: string): Stats | null {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** One folder's worth of work: its entries in order, and the sizes of the current chunk of its files. */
interface Frame {
  readonly ignores: IgnoreStack;
  readonly order: readonly ({ readonly file: string } | { readonly dir: string })[];
  readonly files: readonly string[];
  /** lstat of files[sizesFrom … sizesFrom + STAT_CHUNK). */
  sizes: readonly (Stats | null)[];
  sizesFrom: number;
  next: number;
  nextFile: number;
}

/**
 * Files below a folder, depth-first, each folder's entries by name. Symlinks are never followed
 * (so never out of the roots); `.git` is never entered; protected paths are skipped; .gitignore
 * and .ignore rules apply from the folder they are found in downwards. Everything else —
 * node_modules included — is searched unless a rule says otherwise. The per-folder rules live in
 * walk-children.ts, shared with FileAccess.readTree (read-tree.ts).
 */
export async function* walkConfined(
  confiner: Confiner,
  given: string,
  options: WalkOptions,
  ignoreCase: boolean,
  skip?: (absolutePath: string) => boolean,
): AsyncGenerator<WalkEntry> {
  const respectIgnoreFiles = options.respectIgnoreFiles ?? true;
  const includeHidden = options.includeHidden ?? false;
  let remaining = options.maxFiles ?? Number.POSITIVE_INFINITY;
  const api = confiner.rules.api;

  const start = await confiner.target(given);
  const startStat = await lstatOrNull(start.path, given);
  if (startStat === null) throw fileError('NOT_FOUND', given);
  if (startStat.isFile()) {
    // A file named explicitly is searched whatever the ignore rules say, as ripgrep does.
    if (remaining > 0) yield { path: start.path, size: startStat.size };
    return;
  }
  if (!startStat.isDirectory()) throw fileError('NOT_DIRECTORY', given);

  const pause = yieldEvery(256);

  async function open(dir: string, parentIgnores: IgnoreStack): Promise<Frame | null> {
    await pause();
    let dirents: Dirent[] | null;
    try {
      dirents = readDirectoryCheckedSync(dir, confiner);
    } catch (e) {
      if (isUnreadable(e)) return null;
      throw e;
    }
    if (dirents === null) return null;

    const ignores = respectIgnoreFiles ? await parentIgnores.enter(dir, dirents) : parentIgnores;
    const lookedUp = new Map<Dirent, EntryType | null>();
    for (const dirent of direntsNeedingType(dirents, includeHidden)) lookedUp.set(dirent, resolveUnknownTypeSync(dirent, api.join(dir, dirent.name)));
    const order: ({ file: string } | { dir: string })[] = [];
    const files: string[] = [];
    for (const child of walkChildren(dir, dirents, { confiner, ignores, includeHidden, skip }, lookedUp)) {
      if (child.isDir) {
        order.push({ dir: child.path });
      } else {
        order.push({ file: child.path });
        files.push(child.path);
      }
    }
    return { ignores, order, files, sizes: [], sizesFrom: -1, next: 0, nextFile: 0 };
  }

  /** The size of the frame's next file; called once per file, in order. */
  async function sizeOf(frame: Frame, fileIndex: number): Promise<Stats | null> {
    const chunkStart = fileIndex - (fileIndex % STAT_CHUNK);
    if (frame.sizesFrom !== chunkStart) {
      await pause();
      frame.sizes = frame.files.slice(chunkStart, chunkStart + STAT_CHUNK).map(lstatQuiet);
      frame.sizesFrom = chunkStart;
    }
    return frame.sizes[fileIndex - chunkStart] ?? null;
  }

  // An explicit stack rather than recursive generators: with `yield*` every file would be handed up
  // through one generator per folder level, a promise hop each.
  const stack: Frame[] = [];
  const first = await open(start.path, IgnoreStack.empty(confiner.rules, ignoreCase));
  if (first !== null) stack.push(first);
  while (stack.length > 0 && remaining > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const item = frame.order[frame.next++];
    if (item === undefined) {
      stack.pop();
      continue;
    }
    if ('dir' in item) {
      const child = await open(item.dir, frame.ignores);
      if (child !== null) stack.push(child);
      continue;
    }
    const st = await sizeOf(frame, frame.nextFile++);
    // Gone, or no longer a plain file (replaced by a link since the listing): skip it.
    if (st === null || !st.isFile()) continue;
    remaining--;
    yield { path: item.file, size: st.size };
  }
}
