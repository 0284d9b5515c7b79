import type { FileErrorCode } from '../../../common/file-access';

/** Where a reader puts a file's window: `view` at `offset`. */
export interface Slot {
  readonly view: Uint8Array<ArrayBuffer>;
  readonly offset: number;
}

/**
 * Gives the slot a file's window goes to, for its length. An object rather than a callback: a
 * closure made per file costs an allocation (and, from the TypeScript sources, a naming call).
 */
export interface SlotSource {
  place(length: number): Slot;
}

/** Each window in a buffer of its own (files read late, one at a time). */
export const OWN_BUFFER: SlotSource = {
  place: (length) => ({ view: new Uint8Array(length), offset: 0 }),
};

/** What reading one listed file came to (readOneSync by path, readAtSync relative to its folder). */
export type ReadOutcome =
  | { readonly kind: 'read'; readonly size: number; readonly slot: Slot; readonly length: number }
  | { readonly kind: 'failed'; readonly code: FileErrorCode }
  /** Gone, a link now, or no longer a regular file since the listing: passed over, as walk does. */
  | { readonly kind: 'skipped' };
