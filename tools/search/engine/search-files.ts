import type { DocumentTextOptions, FileAccess, TreeFile } from '../../../electron/common/file-access';
import type { Lang } from '../../../electron/common/i18n';
import { searchDocument, type DocumentOutcome } from './search-documents';
import { isFileAccessError, type FileErrorCode } from '../../../electron/common/file-access';
import { decodeText } from '../../kit/text-decoding';
import { isBinary, isUtf16Bom, isUtf8Bom, WINDOW_BYTES } from './file-kind';
import { asBuffer } from './finders';
import { formatFinding, formatLine } from './format';
import type { Query } from './query';
import { needsNonAscii } from './needles';
import { scanBytes, scanText, type LineHit, type ScanState } from './scan';

/**
 * Reads and scans files for one search. Pure orchestration over the FileAccess capability
 * (no node:*), so the tool and the benchmark run exactly the same code. The host's readTree
 * walks and reads in bulk on the calling thread; each file is scanned here as it is handed out,
 * and readBytes only continues files larger than one window.
 */
export type FileSource = Pick<FileAccess, 'readTree' | 'readBytes' | 'display'>;

export interface SearchOptions {
  /** File or folder as the model gave it (the host resolves it; '' is not allowed here). */
  readonly path: string;
  readonly query: Query;
  /** Extra filter on absolute file paths (the `glob` argument), applied before reading; null = every file. */
  readonly include: ((absolutePath: string) => boolean) | null;
  /** Stop after this many matching lines. */
  readonly maxResults: number;
  /** Stop before the formatted lines exceed this many characters (the model's output budget). */
  readonly maxChars: number;
  readonly signal: AbortSignal;
  /** Search inside office documents too (search.text; the host caches their text). */
  readonly documents?: DocumentTextOptions;
  /** Milliseconds this search may spend extracting documents not yet cached; after that only cached ones are searched. */
  readonly extractionBudgetMs?: number;
  /** Language of the places named in documents ("3쪽" / "page 3"). */
  readonly lang?: Lang;
}

/** A document that could not be searched, and why. */
export interface DocumentTrouble {
  readonly path: string;
  readonly problem: Extract<DocumentOutcome, { kind: 'problem' }>['problem'];
}

export interface Unreadable {
  readonly path: string;
  readonly code: FileErrorCode;
}

export interface SearchReport {
  /** Formatted `path:LINE:text` lines, in walk order. */
  readonly lines: readonly string[];
  readonly filesWithMatches: number;
  readonly filesSearched: number;
  readonly binarySkipped: number;
  readonly unreadable: readonly Unreadable[];
  /** Files of which only the beginning was searched (display paths). */
  readonly partial: readonly string[];
  /** Why the search stopped before the end, if it did. */
  readonly stopped: 'maxResults' | 'maxChars' | null;
  readonly cancelled: boolean;
  /** Office documents whose text was searched (also counted in filesSearched). */
  readonly documentsSearched: number;
  /** Of those, how many texts came from the cache. */
  readonly documentsFromCache: number;
  readonly documentsWithMatches: number;
  readonly documentTrouble: readonly DocumentTrouble[];
  /** Documents left unread because the search's time for extracting ran out. */
  readonly documentsPending: number;
}

/**
 * Time one search spends extracting documents it has not seen before (a first search of a
 * shared drive); the rest are searched by the next call, which finds the first ones cached.
 */
export const DEFAULT_EXTRACTION_BUDGET_MS = 5 * 60_000;

// A "line" longer than this is not text anyone reads line by line; the rest of the file is skipped.
const MAX_CARRY_BYTES = 2 * WINDOW_BYTES;

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

interface FileOutcome {
  readonly partial: boolean;
  readonly unreadable?: FileErrorCode;
}

type ReadFile = Extract<TreeFile, { readonly ok: true }>;

/** After the first window: the file's outcome, or where to go on from. */
type FirstScan = { readonly done: FileOutcome } | { readonly state: ScanState; readonly consumed: number };

/** The outcome of nearly every file, shared rather than made for each. */
const WHOLE: FirstScan = { done: { partial: false } };

export async function searchFiles(source: FileSource, options: SearchOptions): Promise<SearchReport> {
  const { query, include, maxResults, maxChars, signal } = options;
  const lines: string[] = [];
  const unreadable: Unreadable[] = [];
  const partial: string[] = [];
  let chars = 0;
  let filesWithMatches = 0;
  let filesSearched = 0;
  let binarySkipped = 0;
  let stopped: SearchReport['stopped'] = null;
  let cancelled = false;
  let documentsSearched = 0;
  let documentsFromCache = 0;
  let documentsWithMatches = 0;
  let documentsPending = 0;
  const documentTrouble: DocumentTrouble[] = [];
  const extractionDeadline = performance.now() + (options.extractionBudgetMs ?? DEFAULT_EXTRACTION_BUDGET_MS);
  const lang = options.lang ?? 'en';

  /**
   * Appends a file's findings as result lines; true when the search stops here (a cap reached).
   * A file's scan stops at what is left of the cap plus one (which tells "capped" apart).
   */
  function append(display: string, findings: readonly string[]): boolean {
    filesWithMatches++;
    for (const finding of findings) {
      const line = formatLine(display, finding);
      if (chars + line.length + 1 > maxChars) {
        stopped = 'maxChars';
        return true;
      }
      chars += line.length + 1;
      lines.push(line);
    }
    if (lines.length <= maxResults) return false;
    lines.length = maxResults;
    stopped = 'maxResults';
    return true;
  }

  /** Scans the first window of a file (decoded whole if UTF-16); collects its hits. */
  function scanFirst(file: ReadFile, hay: Buffer, hits: LineHit[], room: number): FirstScan {
    const first = file.bytes;
    // A window shorter than asked means the end of the file was reached (it may have shrunk).
    const final = file.complete || first.length < WINDOW_BYTES;
    if (isUtf16Bom(first)) {
      // UTF-16 is rare in offices (some exports); decoded whole, up to one window.
      scanText(decodeText(first).text, query, room, hits);
      return { done: { partial: !final } };
    }
    const bom = isUtf8Bom(first);
    const state: ScanState = { firstLine: 1, encoding: bom ? 'utf-8' : null, whole: file };
    const outcome = scanBytes(hay, bom ? 3 : 0, final, query, state, room, hits);
    if (final || outcome.stoppedEarly || hits.length >= room) return WHOLE;
    if (first.length - outcome.consumed > MAX_CARRY_BYTES) return { done: { partial: true } };
    return { state, consumed: outcome.consumed };
  }

  /** Continues a file larger than one window with readBytes, window by window. */
  async function scanRest(file: ReadFile, state: ScanState, consumed: number, hits: LineHit[], room: number): Promise<FileOutcome> {
    let carry = file.bytes.subarray(consumed);
    let offset = file.bytes.length;
    for (;;) {
      if (signal.aborted) return { partial: true };
      let next: Uint8Array;
      try {
        next = await source.readBytes(file.path, { offset, maxBytes: WINDOW_BYTES });
      } catch (e) {
        if (isFileAccessError(e)) return { partial: true, unreadable: e.code };
        throw e;
      }
      offset += next.length;
      const final = next.length < WINDOW_BYTES;
      const buffer = carry.length === 0 ? next : concat(carry, next);
      const outcome = scanBytes(buffer, 0, final, query, state, room - hits.length, hits);
      if (final || outcome.stoppedEarly || hits.length >= room) return { partial: false };
      carry = buffer.subarray(outcome.consumed);
      if (carry.length > MAX_CARRY_BYTES) return { partial: true };
    }
  }

  const tree = source.readTree(options.path, {
    respectIgnoreFiles: true,
    includeHidden: false,
    windowBytes: WINDOW_BYTES,
    signal,
    // Each file is scanned before the next is asked for; nothing keeps its bytes (hits are strings).
    reuseBuffers: true,
    ...(include === null ? {} : { include }),
    ...(options.documents ? { documents: options.documents } : {}),
  });
  // Looking for Korean in a file of ASCII (code, English): no needle can occur. The host's ASCII
  // check (~20 GB/s) stands in for the scan (~3 GB/s).
  const nonAsciiOnly = needsNonAscii(query.prefilter);
  const hits: LineHit[] = [];
  // Asked per file through a flag: the signal's own getter cost ~1 ms per 6,000 files.
  let aborted = signal.aborted;
  const onAbort = (): void => {
    aborted = true;
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    // Leaving this loop early (cap reached, cancelled, or an error) ends the host's reading.
    for await (const file of tree) {
      if (aborted) break;
      if (!file.ok) {
        unreadable.push({ path: source.display(file.path), code: file.code });
        continue;
      }
      if (file.document !== undefined) {
        const room = maxResults + 1 - lines.length;
        const outcome = await searchDocument(file.document, query, room, lang, { signal, cachedOnly: performance.now() >= extractionDeadline });
        if (outcome.kind === 'cancelled') break;
        if (outcome.kind === 'pending') {
          documentsPending++;
          continue;
        }
        const display = source.display(file.path);
        if (outcome.kind === 'problem') {
          documentTrouble.push({ path: display, problem: outcome.problem });
          continue;
        }
        filesSearched++;
        documentsSearched++;
        if (outcome.cached) documentsFromCache++;
        if (outcome.cut) partial.push(display);
        if (outcome.findings.length === 0) continue;
        documentsWithMatches++;
        if (append(display, outcome.findings)) break;
        continue;
      }
      const hay = asBuffer(file.bytes); // the host hands Buffers already; others are wrapped once
      if (isBinary(hay)) {
        binarySkipped++;
        continue;
      }
      filesSearched++;
      // An ASCII file holds no BOM: a single window of it (complete, or shorter than asked) is done.
      if (nonAsciiOnly && (file.complete || hay.length < WINDOW_BYTES) && file.ascii) continue;
      hits.length = 0; // one array for all files: the hits are formatted before the next file
      const room = maxResults + 1 - lines.length;
      const first = scanFirst(file, hay, hits, room);
      const outcome = 'done' in first ? first.done : await scanRest(file, first.state, first.consumed, hits, room);
      if (hits.length === 0 && outcome.unreadable === undefined && !outcome.partial) continue;
      const display = source.display(file.path);
      if (outcome.unreadable !== undefined) unreadable.push({ path: display, code: outcome.unreadable });
      else if (outcome.partial) partial.push(display);
      if (hits.length > 0 && append(display, hits.map(formatFinding))) break;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted && stopped === null) cancelled = true;
  return { lines, filesWithMatches, filesSearched, binarySkipped, unreadable, partial, stopped, cancelled, documentsSearched, documentsFromCache, documentsWithMatches, documentTrouble, documentsPending };
}
