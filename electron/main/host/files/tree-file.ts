import { isAscii, isUtf8 } from 'node:buffer';
import type { TreeFileRead } from '../../../common/file-access';

/** A file readTree read. A class, not a literal with getters: one allocation per file, not three. */
export class ReadTreeFile implements TreeFileRead {
  readonly ok = true;
  private checkedUtf8: boolean | undefined;
  private checkedAscii: boolean | undefined;

  constructor(
    readonly path: string,
    readonly size: number,
    readonly bytes: Uint8Array,
    readonly complete: boolean,
  ) {}

  /** Computed on first use (node:buffer's isUtf8): a search asks only about files with a non-ASCII match. */
  get utf8(): boolean {
    return (this.checkedUtf8 ??= isUtf8(this.bytes));
  }

  /** Computed on first use (node:buffer's isAscii): a search asks only when it looks for non-ASCII bytes. */
  get ascii(): boolean {
    return (this.checkedAscii ??= isAscii(this.bytes));
  }
}

export function readTreeFile(path: string, size: number, bytes: Uint8Array, windowBytes: number): ReadTreeFile {
  return new ReadTreeFile(path, size, bytes, size <= windowBytes);
}
