import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TreeFileRead, TreeScanModule, TreeScanner, TreeScanRequest } from '../../../common/file-access';
import type { ReadOutcome } from './read-outcome';
import { fileOf } from './tree-file';

/**
 * ReadTreeOptions.scan on the host's side: loads the caller's scan module on each reading thread
 * and keeps what it found per file of a part, so that the findings of a file refused by the
 * folder's final proof are dropped with its bytes. docs/2026-12-03-search-scans-where-it-reads.md.
 */

/**
 * Where a scan module may come from: the application's own code. From the TypeScript sources,
 * this file is electron/main/host/files/tree-scan.ts, four folders below the repository; in the
 * desktop bundle it is part of out/main/index.js (or of the worker's bundle beside it), and the
 * scan modules are built beside them. A module from anywhere else (a workspace, say) is refused:
 * the reading worker would run it with the descriptors of the open folders in reach.
 */
function applicationRoot(): string {
  const up = import.meta.url.endsWith('.ts') ? '../../../../' : './';
  return fileURLToPath(new URL(up, import.meta.url));
}

/** Throws an Error saying why, unless the module may be loaded (a lexical check). */
function assertApplicationModule(module: string): void {
  let url: URL;
  try {
    url = new URL(module);
  } catch {
    throw new Error(`readTree: scan module must be a file: URL, got ${JSON.stringify(module)}`);
  }
  if (url.protocol !== 'file:') throw new Error(`readTree: scan module must be a file: URL, got ${JSON.stringify(module)}`);
  const path = fileURLToPath(url);
  const root = applicationRoot();
  const base = root.endsWith(sep) ? root : root + sep;
  if (!path.startsWith(base)) throw new Error(`readTree: scan module ${path} is not part of the application (${root})`);
}

const modules = new Map<string, Promise<TreeScanModule>>();

async function loadModule(module: string): Promise<TreeScanModule> {
  assertApplicationModule(module);
  let loading = modules.get(module);
  if (loading === undefined) {
    loading = import(module).then((loaded: Partial<TreeScanModule>) => {
      if (typeof loaded.createTreeScanner !== 'function') throw new Error(`readTree: scan module ${module} exports no createTreeScanner`);
      return loaded as TreeScanModule;
    });
    modules.set(module, loading);
    // A failed load is not kept: the next search tries again (and reports the error again).
    loading.catch(() => modules.delete(module));
  }
  return loading;
}

/** The last scanner made on this thread, reused while searches repeat the same request. */
let last: { readonly key: string; readonly scanner: TreeScanner } | null = null;

/** A scanner for the request, on this thread. Throws (rejects) when the module cannot be loaded or refuses the input. */
export async function treeScanner(request: TreeScanRequest): Promise<TreeScanner> {
  const key = `${request.module}\n${JSON.stringify(request.input)}`;
  if (last !== null && last.key === key) return last.scanner;
  const module = await loadModule(request.module);
  const scanner = module.createTreeScanner(request.input);
  last = { key, scanner };
  return scanner;
}

/** Per index of a plan: not scanned (the consumer scans it), or how many findings and where they start. */
const UNSCANNED = -1;

/** The findings of one part as they cross between threads: flat, two numbers per index. */
export interface PackedScans {
  /** Per index: the number of findings, or -1 when the file was not scanned. */
  readonly counts: Int32Array<ArrayBuffer>;
  /** Per index: where its findings start in `findings`. */
  readonly starts: Int32Array<ArrayBuffer>;
  readonly findings: string[];
}

/** The scanner's findings for the file, or undefined where it leaves the file to the consumer (null, or an exception). */
export function findingsOf(scanner: TreeScanner, file: TreeFileRead): readonly string[] | undefined {
  try {
    return scanner.scan(file) ?? undefined;
  } catch {
    return undefined; // the consumer scans the file itself, and meets the error there
  }
}

/**
 * The worker's findings for the files it read of one plan, in the order it read them, packed to
 * cross to the main thread (which keeps its own on the files it made).
 */
export class PartScans {
  private readonly counts: Int32Array<ArrayBuffer>;
  private readonly starts: Int32Array<ArrayBuffer>;
  private readonly findings: string[] = [];
  /** Files scanned (tests: the worker really scans). */
  scannedFiles = 0;

  constructor(
    private readonly scanner: TreeScanner,
    files: number,
  ) {
    this.counts = new Int32Array(files).fill(UNSCANNED);
    this.starts = new Int32Array(files);
  }

  /** Scans the file at `index` if it was read (each reading thread calls this right after the read). */
  scanRead(index: number, path: string, outcome: ReadOutcome, windowBytes: number): void {
    if (outcome.kind !== 'read') return;
    const { view, offset } = outcome.slot;
    this.scan(index, fileOf(path, outcome.size, view.buffer, offset, outcome.length, windowBytes));
  }

  /** Scans the file just read at `index`. */
  scan(index: number, file: TreeFileRead): void {
    const found = findingsOf(this.scanner, file);
    if (found === undefined) return;
    this.counts[index] = found.length;
    this.starts[index] = this.findings.length;
    for (const finding of found) this.findings.push(finding);
    this.scannedFiles++;
  }

  /**
   * The findings of indices [0, count) whose outcome is still a read (after the folders' final
   * proof), for crossing or handing out; a refused file's findings are left behind.
   */
  pack(outcomes: ReadonlyMap<number, ReadOutcome>, count: number): PackedScans {
    const counts = this.counts.slice(0, count);
    const starts = this.starts.slice(0, count);
    let refused = false;
    for (let i = 0; i < count; i++) if (counts[i] !== UNSCANNED && outcomes.get(i)?.kind !== 'read') refused = true;
    if (!refused) return { counts, starts, findings: this.findings };
    const findings: string[] = [];
    for (let i = 0; i < count; i++) {
      if (counts[i] === UNSCANNED) continue;
      if (outcomes.get(i)?.kind !== 'read') {
        counts[i] = UNSCANNED;
        continue;
      }
      const from = starts[i] as number;
      starts[i] = findings.length;
      for (let k = 0; k < (counts[i] as number); k++) findings.push(this.findings[from + k] as string);
    }
    return { counts, starts, findings };
  }
}

const NOTHING: readonly string[] = Object.freeze([]);

/** The findings of `index`, or undefined when it was not scanned. */
export function scannedOf(scans: PackedScans | null, index: number): readonly string[] | undefined {
  if (scans === null || index >= scans.counts.length) return undefined;
  const count = scans.counts[index] as number;
  if (count === UNSCANNED) return undefined;
  if (count === 0) return NOTHING;
  const from = scans.starts[index] as number;
  return scans.findings.slice(from, from + count);
}
