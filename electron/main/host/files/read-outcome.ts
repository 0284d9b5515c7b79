import type { FileErrorCode } from '../../../common/file-access';

/** Where a reader puts a file's window: `view` at `offset`. */
export interface Slot {
  readonly view: Uint8Array<ArrayBuffer>;
  readonly offset: number;
}

/** What reading one listed file came to (readOneSync by path, readAtSync relative to its folder). */
export type ReadOutcome =
  | { readonly kind: 'read'; readonly size: number; readonly slot: Slot; readonly length: number }
  | { readonly kind: 'failed'; readonly code: FileErrorCode }
  /** Gone, a link now, or no longer a regular file since the listing: passed over, as walk does. */
  | { readonly kind: 'skipped' };
