import { openSegmentReader } from '../ledger/segments';

export type IndexCheck = { readonly ok: true } | { readonly ok: false; readonly problems: readonly string[] };

/** integrity_check stops after this many problems; the first few say enough. */
const MAX_PROBLEMS = 20;

/**
 * The viewer's filters read the v4 indexes, and no index is covered by the hash chain: someone
 * with write access to the file could rewrite an index so that, say, the rows of one tool are
 * missing from it, and the filtered view would silently skip them while every row still verifies.
 * SQLite's integrity_check recomputes every index entry from its row (json_extract included) and
 * reports "row N missing from index …" or "wrong # of entries in index …", so running it next to
 * the chain check closes that gap. quick_check would not: it skips the index-versus-table check.
 * Read-only, like verify. Cost: about one json_extract per row per index (see the bench report).
 */
export function checkSegmentIndexes(file: string): IndexCheck {
  const db = openSegmentReader(file);
  try {
    const results = db.pragma(`integrity_check(${MAX_PROBLEMS})`, { simple: false }) as { integrity_check: string }[];
    const problems = results.map((r) => r.integrity_check).filter((line) => line !== 'ok');
    return problems.length === 0 ? { ok: true } : { ok: false, problems };
  } finally {
    db.close();
  }
}
