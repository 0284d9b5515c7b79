import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import ignore, { type Ignore } from 'ignore';
import type { ListedEntry } from './entries';
import type { PathRules } from './path-rules';

/** Ignore files, in increasing precedence within one folder (ripgrep's order). */
const IGNORE_FILES = ['.gitignore', '.ignore'] as const;
// A real .gitignore is a few KiB; a huge one is a mistake or an attack on memory, not rules to honour.
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
// A rule file swapped for a link after the listing is not followed out of the roots (its content
// never reaches the model, but which files are searched would depend on a file outside).
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

interface Layer {
  /** Folder the rules belong to; they match paths relative to it. */
  readonly dir: string;
  readonly rules: Ignore;
}

/**
 * The .gitignore/.ignore rules in force in one folder: its own plus those of the folders above it
 * (down from where the walk started). Immutable; a subfolder gets a new stack.
 */
export class IgnoreStack {
  static empty(pathRules: PathRules, ignoreCase: boolean): IgnoreStack {
    return new IgnoreStack(pathRules, ignoreCase, []);
  }

  private constructor(
    private readonly pathRules: PathRules,
    private readonly ignoreCase: boolean,
    private readonly layers: readonly Layer[],
  ) {}

  /** This stack plus the rule files found among `dirents` of `dir` (unreadable ones are skipped). */
  async enter(dir: string, dirents: readonly ListedEntry[]): Promise<IgnoreStack> {
    const texts: string[] = [];
    for (const file of this.ruleFiles(dir, dirents)) {
      try {
        texts.push((await readFile(file, { flag: READ_FLAGS })).subarray(0, MAX_IGNORE_FILE_BYTES).toString('utf8'));
      } catch {
        continue; // unreadable rules: walk as if absent rather than abort a search
      }
    }
    return this.withRules(dir, texts);
  }

  /** enter() with synchronous reads, for readTree (same rules, same order). */
  enterSync(dir: string, dirents: readonly ListedEntry[]): IgnoreStack {
    const texts: string[] = [];
    for (const file of this.ruleFiles(dir, dirents)) {
      let fd: number;
      try {
        fd = openSync(file, READ_FLAGS);
      } catch {
        continue;
      }
      try {
        texts.push(readFileSync(fd).subarray(0, MAX_IGNORE_FILE_BYTES).toString('utf8'));
      } catch {
        continue;
      } finally {
        closeSync(fd);
      }
    }
    return this.withRules(dir, texts);
  }

  /** Rule files present in a folder's listing, in increasing precedence. */
  private ruleFiles(dir: string, dirents: readonly ListedEntry[]): string[] {
    const files: string[] = [];
    for (const name of IGNORE_FILES) {
      const dirent = dirents.find((d) => d.name === name);
      if (dirent !== undefined && dirent.isFile()) files.push(this.pathRules.api.join(dir, name));
    }
    return files;
  }

  private withRules(dir: string, texts: readonly string[]): IgnoreStack {
    if (texts.length === 0) return this;
    const rules = ignore({ ignorecase: this.ignoreCase });
    for (const text of texts) rules.add(text);
    return new IgnoreStack(this.pathRules, this.ignoreCase, [...this.layers, { dir, rules }]);
  }

  ignores(p: string, isDir: boolean): boolean {
    let ignored = false;
    // Deeper rule files override shallower ones and later rules earlier ones: the last layer with
    // an opinion wins, as in git ("!keep.log" in a subfolder re-includes what the root excluded).
    for (const layer of this.layers) {
      let verdict;
      try {
        verdict = layer.rules.test(this.relative(layer.dir, p) + (isDir ? '/' : ''));
      } catch {
        continue; // a name the ignore library cannot express is simply not ignored
      }
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }

  get isEmpty(): boolean {
    return this.layers.length === 0;
  }

  private relative(dir: string, p: string): string {
    const sep = this.pathRules.sep;
    const rel = p.slice(dir.endsWith(sep) ? dir.length : dir.length + 1);
    return this.pathRules.windows ? rel.replace(/\\/g, '/') : rel;
  }
}
