import type { Dirent, Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import ignore, { type Ignore } from 'ignore';
import type { WalkEntry, WalkOptions } from '../../../common/file-access';
import { mapLimit } from './concurrency';
import type { Confiner } from './confine';
import { compareNames, isUnreadable, lstatIfPresent, lstatOrNull, readDirectoryChecked, resolveUnknownType } from './entries';
import { fileError } from './errors';

/** Ignore files, in increasing precedence within one folder (ripgrep's order). */
const IGNORE_FILES = ['.gitignore', '.ignore'] as const;
// A real .gitignore is a few KiB; a huge one is a mistake or an attack on memory, not rules to honour.
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
// Sizes are fetched in chunks ahead of use: enough to keep libuv's 4 threads busy, few enough that
// `maxFiles: 10` over a 100,000-file folder does not stat them all.
const STAT_CHUNK = 64;
const STAT_CONCURRENCY = 16;

interface IgnoreLayer {
  /** Folder the rules belong to; they match paths relative to it. */
  readonly dir: string;
  readonly rules: Ignore;
}

interface WalkState {
  remaining: number;
}

/**
 * Files below a folder, depth-first, each folder's entries by name. Symlinks are never followed
 * (so never out of the roots); `.git` is never entered; protected paths are skipped; .gitignore
 * and .ignore rules apply from the folder they are found in downwards. Everything else —
 * node_modules included — is searched unless a rule says otherwise.
 */
export async function* walkConfined(confiner: Confiner, given: string, options: WalkOptions, ignoreCase: boolean): AsyncGenerator<WalkEntry> {
  const respectIgnoreFiles = options.respectIgnoreFiles ?? true;
  const includeHidden = options.includeHidden ?? false;
  const state: WalkState = { remaining: options.maxFiles ?? Number.POSITIVE_INFINITY };
  const api = confiner.rules.api;
  const sep = confiner.rules.sep;
  const windows = confiner.rules.windows;

  const start = await confiner.target(given);
  const startStat = await lstatOrNull(start.path, given);
  if (startStat === null) throw fileError('NOT_FOUND', given);
  if (startStat.isFile()) {
    // A file named explicitly is searched whatever the ignore rules say, as ripgrep does.
    if (state.remaining > 0) yield { path: start.path, size: startStat.size };
    return;
  }
  if (!startStat.isDirectory()) throw fileError('NOT_DIRECTORY', given);

  function relativeTo(dir: string, p: string): string {
    const rel = p.slice(dir.endsWith(sep) ? dir.length : dir.length + 1);
    return windows ? rel.replace(/\\/g, '/') : rel;
  }

  function isIgnored(layers: readonly IgnoreLayer[], p: string, isDir: boolean): boolean {
    let ignored = false;
    // Deeper rule files override shallower ones, and a later rule overrides an earlier one: the
    // last layer with an opinion wins, as in git.
    for (const layer of layers) {
      let verdict;
      try {
        verdict = layer.rules.test(relativeTo(layer.dir, p) + (isDir ? '/' : ''));
      } catch {
        continue; // a name the ignore library cannot express is simply not ignored
      }
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }

  async function loadLayer(dir: string, dirents: readonly Dirent[]): Promise<IgnoreLayer | null> {
    let rules: Ignore | null = null;
    for (const name of IGNORE_FILES) {
      const dirent = dirents.find((d) => d.name === name);
      if (dirent === undefined || !dirent.isFile()) continue;
      let text: string;
      try {
        const bytes = await readFile(api.join(dir, name));
        text = bytes.subarray(0, MAX_IGNORE_FILE_BYTES).toString('utf8');
      } catch {
        continue; // unreadable rules: walk as if absent rather than abort a search
      }
      rules ??= ignore({ ignorecase: ignoreCase });
      rules.add(text);
    }
    return rules === null ? null : { dir, rules };
  }

  /** One folder's worth of work: its entries in order, and their sizes fetched ahead in chunks. */
  interface Frame {
    readonly layers: readonly IgnoreLayer[];
    readonly order: readonly ({ readonly file: string } | { readonly dir: string })[];
    readonly files: readonly string[];
    readonly chunks: Map<number, Promise<(Stats | null)[]>>;
    next: number;
    nextFile: number;
  }

  async function open(dir: string, parentLayers: readonly IgnoreLayer[]): Promise<Frame | null> {
    let dirents: Dirent[] | null;
    try {
      dirents = await readDirectoryChecked(dir, confiner);
    } catch (e) {
      if (isUnreadable(e)) return null;
      throw e;
    }
    if (dirents === null) return null;

    let layers = parentLayers;
    if (respectIgnoreFiles) {
      const layer = await loadLayer(dir, dirents);
      if (layer !== null) layers = [...parentLayers, layer];
    }
    const checkProtected = confiner.hasProtectedWithin(dir);
    const files: string[] = [];
    const order: ({ file: string } | { dir: string })[] = [];
    dirents.sort((a, b) => compareNames(a.name, b.name));
    for (const dirent of dirents) {
      const name = dirent.name;
      if (name === '.git') continue;
      if (!includeHidden && name.startsWith('.')) continue;
      const child = api.join(dir, name);
      let isFile = dirent.isFile();
      let isDir = dirent.isDirectory();
      if (!isFile && !isDir && !dirent.isSymbolicLink()) {
        const type = await resolveUnknownType(dirent, child);
        isFile = type === 'file';
        isDir = type === 'directory';
      }
      if (!isFile && !isDir) continue; // symlinks are not followed; devices and pipes are not files
      if (checkProtected && confiner.isProtected(child)) continue;
      if (layers.length > 0 && isIgnored(layers, child, isDir)) continue;
      if (isDir) order.push({ dir: child });
      else {
        order.push({ file: child });
        files.push(child);
      }
    }
    return { layers, order, files, chunks: new Map(), next: 0, nextFile: 0 };
  }

  function sizeOf(frame: Frame, fileIndex: number): Promise<Stats | null> {
    const chunkStart = fileIndex - (fileIndex % STAT_CHUNK);
    let chunk = frame.chunks.get(chunkStart);
    if (chunk === undefined) {
      const slice = frame.files.slice(chunkStart, chunkStart + STAT_CHUNK);
      chunk = mapLimit(slice, STAT_CONCURRENCY, (f) => lstatIfPresent(f).catch(() => null));
      frame.chunks.set(chunkStart, chunk);
      frame.chunks.delete(chunkStart - STAT_CHUNK);
    }
    return chunk.then((stats) => stats[fileIndex - chunkStart] ?? null);
  }

  // An explicit stack rather than nested generators: with `yield*` every file would be handed up
  // through one generator per folder level, a promise hop each (measured: about half the time).
  const stack: Frame[] = [];
  const first = await open(start.path, []);
  if (first !== null) stack.push(first);
  while (stack.length > 0 && state.remaining > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const item = frame.order[frame.next++];
    if (item === undefined) {
      stack.pop();
      continue;
    }
    if ('dir' in item) {
      const child = await open(item.dir, frame.layers);
      if (child !== null) stack.push(child);
      continue;
    }
    const st = await sizeOf(frame, frame.nextFile++);
    // Gone, or no longer a plain file (replaced by a link since the listing): skip it.
    if (st === null || !st.isFile()) continue;
    state.remaining--;
    yield { path: item.file, size: st.size };
  }
}
