import type { Stats } from 'node:fs';
import { isFileAccessError, type DocumentText, type DocumentTextOptions, type TreeDocument } from '../../../common/file-access';
import { sameKey, type DocumentKey, type DocumentTextStore } from '../documents/text-cache';
import type { Confiner } from './confine';
import { fromOsError } from './errors';
import { openVerifiedForRead } from './open-verified';
import { ReadTreeFile } from './tree-file';

/**
 * readTree's documents (ReadTreeOptions.documents): a file of a document extension is opened
 * with the same proof as every other file (open-verified.ts) and its identity taken from that
 * descriptor; its text then comes from the cache for exactly that identity, or, on a miss, from
 * the extractor, fed the bytes of a descriptor proven again and whose identity is the key the
 * text is stored under. The extractor never gets a path to open, and the cache never a key it
 * did not take itself.
 */

export interface TreeDocuments {
  readonly options: DocumentTextOptions;
  /** The tool's size cap, never above the host's read limit: a document is read whole into memory. */
  readonly maxBytes: number;
  readonly store: DocumentTextStore;
  readonly extensions: ReadonlySet<string>;
}

export function treeDocuments(options: DocumentTextOptions | undefined, store: DocumentTextStore, maxReadBytes: number): TreeDocuments | undefined {
  if (options === undefined) return undefined;
  const maxBytes = Math.min(options.maxBytes, maxReadBytes);
  return { options, store, maxBytes, extensions: new Set(options.extensions.map((e) => e.toLowerCase())) };
}

/** Whether the file's name has one of the document extensions (any case: "보고서.PDF"). */
export function isDocumentPath(path: string, documents: TreeDocuments): boolean {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'))) return false;
  return documents.extensions.has(path.slice(dot + 1).toLowerCase());
}

export function keyOf(stat: Stats): DocumentKey {
  return { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

const EMPTY = new Uint8Array(0);
const NEVER = new AbortController().signal;

class ReadTreeDocument extends ReadTreeFile {
  constructor(
    path: string,
    size: number,
    readonly document: TreeDocument,
  ) {
    super(path, size, EMPTY, true);
  }
}

/** A document the walk reached, `stat` taken from the descriptor it proved to be `path`. */
export function treeDocumentFile(path: string, stat: Stats, documents: TreeDocuments, confiner: Confiner): ReadTreeFile {
  const walked = keyOf(stat);
  const { options, store, maxBytes } = documents;
  const tooLarge: DocumentText = { ok: false, code: 'TOO_LARGE' };
  const document: TreeDocument = {
    async text({ signal, cachedOnly } = {}) {
      // From the size alone: a document over the cap is not read at all.
      if (walked.size > maxBytes) return tooLarge;
      const hit = store.get(options.extractor, walked);
      if (hit !== null) return { ok: true, text: hit, cached: true };
      if (cachedOnly === true) return null;
      const read = await readWhole(path, confiner, options, maxBytes, store, walked);
      if (!read.ok) return read.outcome;
      store.noteExtraction();
      const text = await options.extract({ path, bytes: read.bytes }, signal ?? NEVER);
      // Only a read that saw the file the same before and after is kept: an edit during the read
      // would otherwise be stored as the text of the edited file.
      if (read.steady) store.put(options.extractor, read.key, path, text);
      return { ok: true, text, cached: false };
    },
  };
  return new ReadTreeDocument(path, walked.size, document);
}

type WholeRead =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly key: DocumentKey; readonly steady: boolean }
  | { readonly ok: false; readonly outcome: DocumentText };

/**
 * The whole document from a freshly proven descriptor. If the file changed since the walk (other
 * identity), its text may be cached under the new identity already.
 */
async function readWhole(path: string, confiner: Confiner, options: DocumentTextOptions, maxBytes: number, store: DocumentTextStore, walked: DocumentKey): Promise<WholeRead> {
  let opened;
  try {
    opened = await openVerifiedForRead(path, confiner, path);
  } catch (e) {
    return { ok: false, outcome: { ok: false, code: isFileAccessError(e) ? e.code : fromOsError(e, path).code } };
  }
  const { handle, stat } = opened;
  try {
    const key = keyOf(stat);
    if (!sameKey(key, walked)) {
      if (key.size > maxBytes) return { ok: false, outcome: { ok: false, code: 'TOO_LARGE' } };
      const hit = store.get(options.extractor, key);
      if (hit !== null) return { ok: false, outcome: { ok: true, text: hit, cached: true } };
    }
    // Buffer.alloc, not allocUnsafe: the extractor must not see another file's leftovers.
    const bytes = Buffer.alloc(key.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const after = keyOf(await handle.stat());
    return { ok: true, bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled), key, steady: filled === bytes.length && sameKey(after, key) };
  } catch (e) {
    return { ok: false, outcome: { ok: false, code: fromOsError(e, path).code } };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
