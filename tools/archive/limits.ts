import { MAX_TARGETS } from '../kit/targets';

/**
 * Caps of the archive tools, constants rather than settings (an admin cannot loosen a zip bomb
 * defence by mistake). Why each value: docs/2026-12-03-archive-tools.md.
 */

/**
 * Entries one zip may hold. Every entry extracted is one planned target in one approval, and an
 * approval lists at most MAX_TARGETS (5,000) files; a zip with more is almost always a bundle of
 * generated files, not an office attachment.
 */
export const MAX_ENTRIES = MAX_TARGETS;

/** Bytes all entries of one extraction (or all files of one new zip) may add up to, counted as really read. */
export const MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * Bytes one entry (or one file put into a zip) may have. The host writes a file in one atomic
 * write from memory (temp file + rename), so an entry is held whole in memory before it is written.
 */
export const MAX_ENTRY_BYTES = 512 * 1024 * 1024;

/** A new zip is built in memory and written atomically: what goes in is capped to keep that bounded. */
export const MAX_ZIP_INPUT_BYTES = 1024 * 1024 * 1024;

/**
 * Highest declared compression ratio (uncompressed / compressed) of an entry of RATIO_MIN_BYTES or
 * more. Office data compresses 3–20× (text, CSV, logs up to ~50×); deflate's limit is ~1032×, which
 * only runs of identical bytes reach. Small entries are exempt: they cannot add up past the caps.
 */
export const MAX_RATIO = 100;
export const RATIO_MIN_BYTES = 1024 * 1024;
