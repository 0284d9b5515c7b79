import type { TreeFileRead, TreeScanner, TreeScanRequest } from '../../../electron/common/file-access';
import { isBinary, isUtf16Bom, isUtf8Bom, WINDOW_BYTES } from './file-kind';
import { asBuffer } from './finders';
import { formatFinding } from './format';
import { needsNonAscii } from './needles';
import { compileQuery, type Query, type QueryOptions } from './query';
import { scanBytes, type LineHit, type ScanState } from './scan';

/**
 * The scan of one file that is a single window of text: what search.text does with nearly every
 * file. The host runs it where it reads (FileAccess.readTree's `scan`: on its reading worker for the
 * files the worker reads, on the main thread for the rest), so that the search is shared between
 * the threads as the reading is; searchFiles runs the same scanner on any file that arrives without
 * findings. docs/2026-12-03-search-scans-where-it-reads.md.
 *
 * This module is loaded by the host on its worker thread (createTreeScanner): it imports nothing
 * that needs the main thread.
 */

/** What the scanner needs to know, as plain data (it crosses to the worker). */
export interface TreeScanInput extends QueryOptions {
  /** Findings per file at most: the search's cap plus one (which tells "capped" apart). */
  readonly maxHits: number;
}

const NONE: readonly string[] = Object.freeze([]);

export class FileScanner implements TreeScanner {
  /** One array for all files: the hits are formatted before the next file. */
  private readonly hits: LineHit[] = [];
  private readonly nonAsciiOnly: boolean;

  constructor(
    private readonly query: Query,
    private readonly maxHits: number,
  ) {
    this.nonAsciiOnly = needsNonAscii(query.prefilter);
  }

  /**
   * The file's matching lines as `LINE:text` (formatFinding), or null when the file is not a single
   * window of text: binary, UTF-16 (decoded whole by the caller) or larger than one window (read on
   * with readBytes by the caller).
   */
  scan(file: TreeFileRead): readonly string[] | null {
    const bytes = file.bytes;
    // A window shorter than asked means the end of the file was reached (it may have shrunk).
    if (!file.complete && bytes.length >= WINDOW_BYTES) return null;
    if (isBinary(bytes)) return null;
    // Looking for Korean in a file of ASCII (code, English): no needle can occur. The host's
    // native check (~20 GB/s) stands in for the scan (~3 GB/s; 15 ms of the benchmark's Korean search).
    if (this.nonAsciiOnly && file.ascii) return NONE;
    if (isUtf16Bom(bytes)) return null;
    const bom = isUtf8Bom(bytes);
    const state: ScanState = { firstLine: 1, encoding: bom ? 'utf-8' : null, whole: file };
    const hits = this.hits;
    hits.length = 0;
    scanBytes(asBuffer(bytes), bom ? 3 : 0, true, this.query, state, this.maxHits, hits);
    if (hits.length === 0) return NONE;
    const found: string[] = [];
    for (const hit of hits) found.push(formatFinding(hit));
    return found;
  }
}

function isTreeScanInput(input: unknown): input is TreeScanInput {
  if (typeof input !== 'object' || input === null) return false;
  const i = input as Record<string, unknown>;
  return (
    typeof i['pattern'] === 'string' &&
    typeof i['ignoreCase'] === 'boolean' &&
    typeof i['fixedString'] === 'boolean' &&
    typeof i['maxHits'] === 'number' &&
    i['maxHits'] >= 1 // no cap at all: Infinity (NaN fails)
  );
}

/** TreeScanModule's entry, called by the host on each reading thread. */
export function createTreeScanner(input: unknown): TreeScanner {
  if (!isTreeScanInput(input)) throw new TypeError(`search.text tree scan: unexpected input ${JSON.stringify(input)}`);
  const compiled = compileQuery(input);
  if (!compiled.ok) throw new TypeError(`search.text tree scan: ${compiled.message}`);
  return new FileScanner(compiled.query, input.maxHits);
}

/**
 * This module as the host loads it: itself when run from the TypeScript sources; in the desktop
 * bundle (where this code is part of out/main/index.js) the copy electron.vite.config.ts builds
 * beside it. The name is held in a variable: a bundler treats `new URL('literal', import.meta.url)`
 * as an asset to copy.
 */
function moduleUrl(): string {
  return import.meta.url.endsWith('.ts') ? import.meta.url : new URL(BUNDLED_MODULE, import.meta.url).href;
}
const BUNDLED_MODULE = './search-tree-scan.js';

export function treeScanRequest(query: QueryOptions, maxHits: number): TreeScanRequest {
  const input: TreeScanInput = { pattern: query.pattern, ignoreCase: query.ignoreCase, fixedString: query.fixedString, maxHits };
  return { module: moduleUrl(), input };
}
