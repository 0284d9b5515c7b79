import { isAscii, isUtf8 } from 'node:buffer';
import type { TreeFileRead } from '../../../common/file-access';

/**
 * A file readTree read. A class, not a literal with getters: one allocation per file, not three.
 * Made on both reading threads (the worker makes one to scan a file, ReadTreeOptions.scan).
 */
export class ReadTreeFile implements TreeFileRead {
  readonly ok = true;
  scanned: readonly string[] | undefined = undefined;
  private checkedUtf8: boolean | undefined;
  private checkedAscii: boolean | undefined;

  constructor(
    readonly path: string,
    readonly size: number,
    readonly bytes: Uint8Array,
    readonly complete: boolean,
  ) {}

  /** Computed on first use: a search asks only about files with a non-ASCII match. */
  get utf8(): boolean {
    return (this.checkedUtf8 ??= isUtf8(this.bytes));
  }

  /** Computed on first use: a search asks only when it looks for non-ASCII bytes. */
  get ascii(): boolean {
    return (this.checkedAscii ??= isAscii(this.bytes));
  }
}

export function readTreeFile(path: string, size: number, bytes: Uint8Array, windowBytes: number): ReadTreeFile {
  return new ReadTreeFile(path, size, bytes, size <= windowBytes);
}

/**
 * The file for a window that lies in `buffer`. A Buffer view (a Uint8Array to the consumer): the
 * search needs one for native indexOf and would otherwise wrap every file a second time (~2 ms per
 * 6,000 files).
 */
export function fileOf(path: string, size: number, buffer: ArrayBuffer, offset: number, length: number, windowBytes: number): ReadTreeFile {
  return readTreeFile(path, size, Buffer.from(buffer, offset, length), windowBytes);
}

