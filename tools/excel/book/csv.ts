import type { ReadOnlyFileAccess } from '../../kit/define-tool';
import { decodeText, type TextEncodingName } from '../../kit/text-decoding';
import type { RowData } from './cells';
import type { BookProblem } from './problems';

/**
 * CSV and TSV: decoded like every text file (UTF-8 with or without BOM, UTF-16, CP949 — what
 * Korean Excel writes by default), the delimiter detected, fields parsed as RFC 4180 (quotes,
 * doubled quotes, line breaks inside quotes). Values stay text: "01234" is a postcode, not 1234.
 */

export interface CsvBook {
  readonly kind: 'csv';
  readonly path: string;
  readonly encoding: TextEncodingName;
  readonly delimiter: string;
  readonly text: string;
}

/**
 * The whole file is decoded at once: CSV has no index to seek in, and 48 MB of text (about 450k
 * rows of ten fields) is a few hundred MB of strings at most, well inside a desktop's memory. It
 * stays under the host's whole-file read limit (50 MB), so the cap's own message is the one shown.
 */
export const MAX_CSV_BYTES = 48 * 1024 * 1024;

const CANDIDATES = [',', '\t', ';', '|'] as const;

export function delimiterName(d: string): string {
  return d === '\t' ? 'tab' : d;
}

/**
 * The delimiter that splits the first lines into the same number of fields (more than one), most
 * consistently; ties go to the order above (a comma first). A `.tsv` says tab unless its lines
 * say otherwise.
 */
export function detectDelimiter(sample: string, preferTab = false): string {
  let best: { d: string; score: number } = { d: preferTab ? '\t' : ',', score: 0 };
  const order = preferTab ? ['\t', ',', ';', '|'] : CANDIDATES;
  for (const d of order) {
    const counts: number[] = [];
    for (const row of parseRows(sample, d)) {
      counts.push(row.length);
      if (counts.length >= 30) break;
    }
    // The sample may end inside the last line: leave that line out when there are others.
    if (counts.length > 1) counts.pop();
    const freq = new Map<number, number>();
    for (const c of counts) if (c > 1) freq.set(c, (freq.get(c) ?? 0) + 1);
    const top = Math.max(0, ...freq.values());
    const score = counts.length === 0 ? 0 : top / counts.length;
    if (score > best.score) best = { d, score };
  }
  return best.d;
}

/** Fields of each line; a quoted field may contain the delimiter, quotes ("") and line breaks. */
export function* parseRows(text: string, delimiter: string): Generator<string[]> {
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      i++;
    } else if (ch === delimiter) {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      yield row;
      row = [];
      field = '';
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    yield row;
  }
}

export async function openCsv(files: ReadOnlyFileAccess, path: string, size: number, ext: string): Promise<CsvBook | BookProblem> {
  if (size > MAX_CSV_BYTES) return { problem: 'too-large', limit: MAX_CSV_BYTES };
  const bytes = await files.readBytes(path, { maxBytes: MAX_CSV_BYTES });
  const decoded = decodeText(bytes);
  return { kind: 'csv', path, encoding: decoded.encoding, delimiter: detectDelimiter(decoded.text.slice(0, 64 * 1024), ext === 'tsv'), text: decoded.text };
}

export function* csvRows(book: CsvBook): Generator<RowData> {
  let index = 0;
  for (const cells of parseRows(book.text, book.delimiter)) {
    index++;
    yield { index, cells: cells.length === 1 && cells[0] === '' ? [] : cells };
  }
}
