/**
 * The file capability handed to tools (implemented by electron/main/host). Tools never touch
 * node:fs: every path goes through this interface, so confinement to the workspace roots,
 * symlink checks at open time, atomic writes and the trash live in exactly one place.
 *
 * Paths given to these methods are as the model wrote them (relative ones resolve against the
 * first workspace root). Paths returned are absolute and normalised.
 *
 * Methods reject with a FileAccessError whose `code` says what went wrong; tools turn codes into
 * signpost messages (tools/kit/file-errors.ts). Any other exception is a bug and the gate maps it
 * to outcome `error`.
 */

export type FileErrorCode =
  | 'OUTSIDE_ROOTS' // lexically or after symlink resolution outside every workspace root
  | 'FORBIDDEN' // inside the roots but reserved (audit directory, policy file, Baram's own data)
  | 'INVALID_PATH' // NUL byte, empty, or otherwise not a path
  | 'NOT_FOUND'
  | 'EXISTS'
  | 'IS_DIRECTORY'
  | 'NOT_DIRECTORY'
  | 'TOO_LARGE'
  | 'CHANGED' // the file differs from what was approved
  | 'AMBIGUOUS' // two names in one folder differ only in Unicode normalisation (NFC/NFD): which one is meant cannot be told
  | 'IO'; // anything the OS reported that is none of the above

export class FileAccessError extends Error {
  override readonly name = 'FileAccessError';
  constructor(
    readonly code: FileErrorCode,
    /** The path as the caller gave it (never an OS error string; those can leak host details). */
    readonly path: string,
    message?: string,
  ) {
    super(message ?? `${code}: ${path}`);
  }
}

export function isFileAccessError(e: unknown): e is FileAccessError {
  return e instanceof Error && e.name === 'FileAccessError' && typeof (e as FileAccessError).code === 'string';
}

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface FileInfo {
  /** Absolute, normalised path. */
  readonly path: string;
  readonly type: EntryType;
  readonly size: number;
  readonly mtimeMs: number;
  readonly birthtimeMs: number;
  /** POSIX permission bits (e.g. 0o644); 0 where the OS has none. */
  readonly mode: number;
}

/**
 * What an approval binds to per file (SPEC G-APPROVE): the gate takes it again just before the tool
 * runs, and the plan-scoped capability once more at the operation, so a file that changed after
 * approval is reported and left alone. Device and inode catch a file replaced by another one (or by
 * a link) with the same size and time; `sha256` (taken for edits and overwrites) catches a same-size
 * edit whose mtime was put back.
 */
export interface Fingerprint {
  readonly type: EntryType;
  readonly size: number;
  readonly mtimeMs: number;
  readonly dev: number;
  readonly ino: number;
  /** SHA-256 (hex) of the content; only where asked for (FingerprintOptions.content), regular files only. */
  readonly sha256?: string;
}

export interface FingerprintOptions {
  /** Also hash the content (regular files up to the host's read limit; larger ones are TOO_LARGE). */
  readonly content?: boolean;
}

/** Same file in the same state. A content hash counts when the approved fingerprint has one. */
export function sameFingerprint(approved: Fingerprint | null, now: Fingerprint | null): boolean {
  if (approved === null || now === null) return approved === now;
  return (
    approved.type === now.type &&
    approved.size === now.size &&
    approved.mtimeMs === now.mtimeMs &&
    approved.dev === now.dev &&
    approved.ino === now.ino &&
    (approved.sha256 === undefined || approved.sha256 === now.sha256)
  );
}

export interface TrashEntry {
  readonly trashId: string;
  /** Absolute path the item had before it was deleted (where restore puts it back). */
  readonly originalPath: string;
  readonly deletedAt: string; // ISO 8601 UTC
  readonly type: EntryType;
  readonly size: number;
}

export interface WalkOptions {
  /** Apply .gitignore / .ignore files found on the way down (default true). */
  readonly respectIgnoreFiles?: boolean;
  /** Include dot-files and dot-directories (default false). `.git` is never entered. */
  readonly includeHidden?: boolean;
  /** Stop after this many files (default: unbounded). */
  readonly maxFiles?: number;
}

export interface WalkEntry {
  readonly path: string;
  readonly size: number;
}

/** Options of readTree. */
export interface ReadTreeOptions extends WalkOptions {
  /**
   * Bytes read from the start of each file (capped at the host's read limit). A larger file comes
   * with `complete: false`; read on with readBytes(path, { offset: bytes.length, … }).
   */
  readonly windowBytes: number;
  /** Aborting stops the reading at once; the iteration then simply ends. */
  readonly signal?: AbortSignal;
  /**
   * Let the host reuse the memory of files the loop has moved past (default false). A file's
   * `bytes` is then valid only until the loop asks for a later file: copy what you keep. Saves the
   * page faults of fresh buffers, ~16 ms of ~250 ms reading per 55 MB (a search scans each file once).
   */
  readonly reuseBuffers?: boolean;
  /** Only files (absolute paths) this accepts are read and yielded; the rest are passed over unread. */
  readonly include?: (path: string) => boolean;
  /**
   * Office documents (search.text, issue 18 item 5): files with these extensions are not read as
   * bytes but yielded with `document`, whose text comes from the host's cache of extracted text
   * (in Baram's data folder, outside every root; no tool can name it) or, when the cache holds
   * nothing for the file as it is now (device, inode, size, mtime, ctime), from `extract`.
   */
  readonly documents?: DocumentTextOptions;
}

export interface DocumentTextOptions {
  /** Names the extraction and its version: the cache keeps each extractor's texts apart. */
  readonly extractor: string;
  /** Lowercase extensions without the dot ('xlsx', 'pdf', …). */
  readonly extensions: readonly string[];
  /** Larger documents are never read: their text() answers TOO_LARGE from the size alone. */
  readonly maxBytes: number;
  /**
   * Makes the text of one document from its whole content, read from the very descriptor whose
   * identity keys the cache. What it resolves to is cached; a rejection (time limit, Stop) is not.
   */
  extract(document: { readonly path: string; readonly bytes: Uint8Array }, signal: AbortSignal): Promise<string>;
}

/** What TreeDocument.text answers. */
export type DocumentText =
  | { readonly ok: true; readonly text: string; readonly cached: boolean }
  | { readonly ok: false; readonly code: FileErrorCode };

/** A document readTree found (ReadTreeOptions.documents). */
export interface TreeDocument {
  /**
   * Its text: from the cache, or extracted now and cached. `cachedOnly` answers null instead of
   * extracting (a search out of time still searches what is known). Rejects as `extract` rejected.
   */
  text(options?: { readonly signal?: AbortSignal; readonly cachedOnly?: boolean }): Promise<DocumentText | null>;
}

/** A file readTree read (TreeFile with ok: true). */
export type TreeFileRead = Extract<TreeFile, { readonly ok: true }>;

/**
 * One file of readTree: its first window of content, or why it could not be read. A file that
 * vanished, became a link or stopped being a regular file since its folder was listed is passed
 * over, as walk passes it over; everything else that goes wrong is reported here.
 */
export type TreeFile =
  | {
      readonly ok: true;
      /** Absolute, normalised. */
      readonly path: string;
      /** Size when the file was opened. */
      readonly size: number;
      /** The first min(size, windowBytes) bytes. */
      readonly bytes: Uint8Array;
      /** True when `bytes` is the whole file (size ≤ windowBytes). */
      readonly complete: boolean;
      /**
       * Whether `bytes` is well-formed UTF-8, computed when first asked (node:buffer's isUtf8,
       * ~7 GB/s against ~0.4 GB/s for the JavaScript check a tool could run itself, Korean text).
       */
      readonly utf8: boolean;
      /**
       * Whether every byte of `bytes` is below 0x80, computed when first asked (node:buffer's
       * isAscii, ~20 GB/s): a search for non-ASCII text (Korean) passes such a file over unscanned.
       */
      readonly ascii: boolean;
      /** Set for a file of ReadTreeOptions.documents' extensions: `bytes` is then empty; ask this for the text. */
      readonly document?: TreeDocument;
    }
  | { readonly ok: false; readonly path: string; readonly code: FileErrorCode };

export interface FileAccess {
  /** Absolute, realpath'd workspace roots; roots[0] is where relative paths resolve. */
  readonly roots: readonly string[];

  /** Lexical resolution only (no file system access): absolute + normalised, `~` expanded. */
  resolve(path: string): string;
  /** Path relative to the root that contains it, for display ("보고서/2024.xlsx"). */
  display(absolutePath: string): string;
  /** Full confinement check (lexical AND realpath of the longest existing prefix). Returns the absolute path. */
  check(path: string): Promise<string>;

  /** null when nothing exists at the path (a dangling symlink counts as existing, type 'symlink'). */
  stat(path: string): Promise<FileInfo | null>;
  fingerprint(path: string, options?: FingerprintOptions): Promise<Fingerprint | null>;
  list(path: string, options?: { readonly recursive?: boolean; readonly maxEntries?: number }): Promise<FileInfo[]>;
  /**
   * Expand a glob (picomatch syntax; relative patterns against the first root) into absolute paths of
   * existing entries, sorted. A pattern without glob characters returns that one path if it exists.
   */
  glob(pattern: string, options?: { readonly maxMatches?: number }): Promise<string[]>;
  /** Files below `path`, depth-first, sorted per directory. Never follows symlinks out of the roots. */
  walk(path: string, options?: WalkOptions): AsyncIterable<WalkEntry>;
  /**
   * walk() and readBytes() in one: the files walk(path, options) would yield, in the same order,
   * each with its first window of content, under the same confinement as readBytes (no link
   * followed, every opened file proven to be the listed one inside the roots before it is read).
   * Read on the calling thread in synchronous calls, in time slices of a few milliseconds: for
   * reading many files at once (search.text), where readBytes per file costs six thread-pool
   * round trips. A file named as `path` is read whatever the ignore rules say, as walk yields it.
   * Stop early by leaving the loop (or aborting `signal`): the reading stops within one file.
   * docs/2026-12-03-search-reads-in-thread.md.
   */
  readTree(path: string, options: ReadTreeOptions): AsyncIterable<TreeFile>;

  readBytes(path: string, options?: { readonly maxBytes?: number; readonly offset?: number }): Promise<Uint8Array>;
  /** Atomic: written to a temp file in the same directory, fsync'd, then renamed over the target. */
  writeAtomic(path: string, data: Uint8Array | string, options: { readonly overwrite: boolean }): Promise<void>;
  mkdir(path: string): Promise<{ readonly created: boolean }>;
  /** Moves a file or directory; refuses to overwrite unless `overwrite`. */
  move(from: string, to: string, options?: { readonly overwrite?: boolean }): Promise<void>;
  copy(from: string, to: string, options?: { readonly overwrite?: boolean }): Promise<void>;
  /** Moves the item into Baram's trash (outside the workspace); restorable by trashId. */
  trash(path: string): Promise<TrashEntry>;
  /** Puts the item back at its original path, or at `to` (another name or place inside the roots). Never overwrites. */
  restore(trashId: string, options?: { readonly to?: string }): Promise<TrashEntry>;
  trashList(): Promise<TrashEntry[]>;
  /**
   * SPEC G-PERM (issue 14 class 3): a view whose walk, readTree, list and glob skip every entry a
   * policy deny/ask rule covers (`veto.ruleFor(path)` non-null), counting them. The gate builds one
   * per tool call from that tool's rules; absent on test doubles.
   */
  withPathVeto?(veto: { ruleFor(absolutePath: string): string | null } | null): FileAccess;
  /** How many entries this view's path veto kept out (0 without one). */
  skippedByPolicy?(): number;
  /**
   * Whether this view's path veto covers an absolute path (counted as kept out): for paths a tool
   * learns from elsewhere than a walk, such as the files git lists (the git tools).
   */
  vetoed?(absolutePath: string): boolean;
}
