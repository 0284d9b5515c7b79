import { schemaVersion, SCHEMA_VERSION } from '../ledger/schema';
import { openSegmentReader } from '../ledger/segments';
import { VIEWER_COLUMNS, VIEWER_HIGH } from '../ledger/viewer-rows';

export type IndexCheck = { readonly ok: true } | { readonly ok: false; readonly problems: readonly string[] };

/** integrity_check stops after this many problems; the first few say enough. */
const MAX_PROBLEMS = 20;

/**
 * Where viewer_rows disagrees with the bodies: first its rows for a seq that has no entry
 * (kind 0), then, lowest seq first, entries whose row there is missing (below viewer_rows' highest
 * seq) or holds a value other than the body's (kind 1; the entries columns of the same name are
 * json_extract of the body). IS NOT compares NULLs as values.
 */
const VIEWER_MISMATCH_SQL = `
  SELECT seq, kind FROM (
    SELECT v.seq AS seq, 0 AS kind FROM viewer_rows AS v LEFT JOIN entries AS e ON e.seq = v.seq WHERE e.seq IS NULL
    UNION ALL
    SELECT e.seq AS seq, 1 AS kind FROM entries AS e LEFT JOIN viewer_rows AS v ON v.seq = e.seq
     WHERE e.seq <= ${VIEWER_HIGH}
       AND (v.seq IS NULL OR ${VIEWER_COLUMNS.map((c) => `v.${c} IS NOT e.${c}`).join(' OR ')})
  ) ORDER BY kind, seq LIMIT ${MAX_PROBLEMS}`;

const viewerProblem = (row: { seq: number; kind: number }): string =>
  row.kind === 0
    ? `viewer_rows has a row for seq ${row.seq}, which the ledger does not have / 감사 화면용 목록(viewer_rows)에 없는 기록(seq ${row.seq})이 있습니다`
    : `viewer_rows disagrees with the stored event at seq ${row.seq} / 감사 화면용 목록(viewer_rows)이 seq ${row.seq}의 기록과 다릅니다`;

/**
 * The viewer's filters read viewer_rows and its indexes, and neither is covered by the hash
 * chain: someone with write access to the file could rewrite them so that, say, the rows of one
 * tool are missing, and the filtered view would silently skip them while every row still verifies.
 * - SQLite's integrity_check recomputes every index entry from its row and reports "row N missing
 *   from index …" or "wrong # of entries in index …". quick_check would not: it skips the index-versus-table check.
 * - viewer_rows itself is compared with the bodies (VIEWER_MISMATCH_SQL).
 * Read-only, like verify. Cost: about one body parse per row (see the query bench's report).
 */
export function checkSegmentIndexes(file: string): IndexCheck {
  const db = openSegmentReader(file);
  try {
    const results = db.pragma(`integrity_check(${MAX_PROBLEMS})`, { simple: false }) as { integrity_check: string }[];
    const problems = results.map((r) => r.integrity_check).filter((line) => line !== 'ok');
    if (problems.length === 0 && schemaVersion(db) === SCHEMA_VERSION) {
      problems.push(...(db.prepare(VIEWER_MISMATCH_SQL).all() as { seq: number; kind: number }[]).map(viewerProblem));
    }
    return problems.length === 0 ? { ok: true } : { ok: false, problems };
  } finally {
    db.close();
  }
}
