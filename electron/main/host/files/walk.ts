import { lstat as lstatCallback, type Dirent, type Stats } from 'node:fs';
import type { EntryType, WalkEntry, WalkOptions } from '../../../common/file-access';
import { mapLimit } from './concurrency';
import type { Confiner } from './confine';
import { isUnreadable, lstatOrNull, readDirectoryChecked, resolveUnknownType } from './entries';
import { fileError } from './errors';
import { IgnoreStack } from './ignore-rules';
import { direntsNeedingType, walkChildren } from './walk-children';

// Sizes are fetched in chunks ahead of use: enough to keep libuv's 4 threads busy, few enough that
// `maxFiles: 10` over a 100,000-file folder does not stat them all.
const STAT_CHUNK = 64;
const STAT_CONCURRENCY = 16;
// Folder listings read ahead of the depth-first cursor, so readdir calls overlap on the thread pool
// instead of running one at a time.
const PREFETCH_DIRS = 8;

/**
 * lstat through the callback API: cheaper per call than fs/promises (measured on node_modules here:
 * 12,436 files at concurrency 16 in 190 ms vs 225 ms, best of 3), on the hot path of every search.
 * Null for anything that vanished or cannot be read; the walk then skips it.
 */
function lstatQuiet(p: string): Promise<Stats | null> {
  return new Promise((resolve) => {
    lstatCallback(p, (error, st) => resolve(error === null ? st : null));
  });
}

/** One folder's worth of work: its entries in order, their sizes fetched ahead in chunks. */
interface Frame {
  readonly ignores: IgnoreStack;
  readonly order: readonly ({ readonly file: string } | { readonly dir: string })[];
  readonly files: readonly string[];
  readonly dirs: readonly string[];
  readonly chunks: Map<number, Promise<(Stats | null)[]>>;
  next: number;
  nextFile: number;
  nextDir: number;
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

  const prefetched = new Map<string, Promise<Dirent[] | null>>();
  function readAhead(dirs: readonly string[]): void {
    for (const dir of dirs) {
      if (prefetched.size >= PREFETCH_DIRS) return;
      if (prefetched.has(dir)) continue;
      const listing = readDirectoryChecked(dir, confiner);
      listing.catch(() => undefined); // its error is raised when the walk gets there
      prefetched.set(dir, listing);
    }
  }

  async function open(dir: string, parentIgnores: IgnoreStack): Promise<Frame | null> {
    let dirents: Dirent[] | null;
    try {
      const ahead = prefetched.get(dir);
      prefetched.delete(dir);
      dirents = await (ahead ?? readDirectoryChecked(dir, confiner));
    } catch (e) {
      if (isUnreadable(e)) return null;
      throw e;
    }
    if (dirents === null) return null;

    const ignores = respectIgnoreFiles ? await parentIgnores.enter(dir, dirents) : parentIgnores;
    const lookedUp = new Map<Dirent, EntryType | null>();
    for (const dirent of direntsNeedingType(dirents, includeHidden)) lookedUp.set(dirent, await resolveUnknownType(dirent, api.join(dir, dirent.name)));
    const order: ({ file: string } | { dir: string })[] = [];
    const files: string[] = [];
    const dirs: string[] = [];
    for (const child of walkChildren(dir, dirents, { confiner, ignores, includeHidden, skip }, lookedUp)) {
      if (child.isDir) {
        order.push({ dir: child.path });
        dirs.push(child.path);
      } else {
        order.push({ file: child.path });
        files.push(child.path);
      }
    }
    const frame: Frame = { ignores, order, files, dirs, chunks: new Map(), next: 0, nextFile: 0, nextDir: 0 };
    if (files.length > 0) void chunkAt(frame, 0); // sizes start while subfolders are read
    readAhead(frame.dirs);
    return frame;
  }

  function chunkAt(frame: Frame, chunkStart: number): Promise<(Stats | null)[]> {
    let chunk = frame.chunks.get(chunkStart);
    if (chunk === undefined) {
      chunk = mapLimit(frame.files.slice(chunkStart, chunkStart + STAT_CHUNK), STAT_CONCURRENCY, lstatQuiet);
      frame.chunks.set(chunkStart, chunk);
    }
    return chunk;
  }

  /** The size of the frame's next file; called once per file, in order. */
  async function sizeOf(frame: Frame, fileIndex: number): Promise<Stats | null> {
    const offset = fileIndex % STAT_CHUNK;
    const chunkStart = fileIndex - offset;
    const chunk = chunkAt(frame, chunkStart);
    if (offset === 0) frame.chunks.delete(chunkStart - STAT_CHUNK); // the previous chunk is used up
    // Halfway through a chunk, fetch the next one so the consumer never waits at the boundary.
    if (offset === STAT_CHUNK / 2 && chunkStart + STAT_CHUNK < frame.files.length) void chunkAt(frame, chunkStart + STAT_CHUNK);
    return (await chunk)[offset] ?? null;
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
      frame.nextDir++;
      readAhead(frame.dirs.slice(frame.nextDir, frame.nextDir + PREFETCH_DIRS));
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
