import type { StoredEventBody } from './ledger/canonical-event';
import type { LedgerRow } from './ledger/rows';
import { eventFields } from './export/event-fields';
import { oneLine } from './export/summary';

/**
 * What a security officer asks first about a failed verification: when, who, with which tool
 * (issue 15 item 15). The rows around the first bad seq, as they read now — an edited row's text
 * may itself be the forgery, which the report says.
 */
export interface RowFacts {
  readonly seq: number;
  /** Local office time, `2026-12-03 23:05:09`, and its zone (`UTC+09:00`); the stored UTC time when those are unreadable. */
  readonly time: string;
  readonly osUser: string;
  readonly appUser: string;
  readonly tool: string;
  /** Event type code (`tool.proposed`). */
  readonly type: string;
}

export interface RowsAround {
  /** The last row before the first bad seq (in the order read). */
  readonly before?: RowFacts;
  /** The row holding the first bad seq, when there is one. */
  readonly at?: RowFacts;
  /** The first row after it, when the bad seq itself is absent (rows missing or cut). */
  readonly after?: RowFacts;
}

/** One pass over `rows` (a ledger's or an export's), stopping as soon as the answer is known; never throws. */
export function rowsAround(rows: () => Iterable<LedgerRow>, seq: number): RowsAround {
  let before: LedgerRow | undefined;
  let after: LedgerRow | undefined;
  try {
    for (const row of rows()) {
      if (row.seq === seq) return { ...facts('before', before), ...facts('at', row) };
      if (row.seq < seq) before = row;
      else after ??= row;
    }
  } catch {
    // A ledger too damaged to read to the end: say what was read.
  }
  return { ...facts('before', before), ...facts('after', after) };
}

function facts<K extends keyof RowsAround>(key: K, row: LedgerRow | undefined): Partial<Record<K, RowFacts>> {
  const described = row ? rowFacts(row) : undefined;
  return described ? ({ [key]: described } as Partial<Record<K, RowFacts>>) : {};
}

function rowFacts(row: LedgerRow): RowFacts | undefined {
  try {
    const fields = eventFields(JSON.parse(row.body) as StoredEventBody);
    const time = fields.localDateTime === '' ? fields.time : `${fields.localDateTime} (UTC${fields.utcOffset})`;
    // The text of a bad row is untrusted: one line each, no terminal controls.
    return { seq: row.seq, time: oneLine(time), osUser: oneLine(fields.osUser), appUser: oneLine(fields.appUser), tool: oneLine(fields.tool), type: oneLine(fields.type) };
  } catch {
    return undefined;
  }
}
