import { closeSync, openSync, readSync } from 'node:fs';
import type { LedgerRow } from '../ledger/rows';
import { lineSafeJson } from './line-safe';

/**
 * The verifiable export (SPEC §3): JSON Lines whose first line is a header carrying the checkpoint
 * taken at export time, and whose other lines are ledger rows exactly as stored — the canonical body
 * text that was hashed, its links and its seal — so another machine can run `baram audit verify
 * --file` on it without the database.
 */
export const JSONL_FORMAT = 'baram-audit-export-v1';

export interface JsonlHeader {
  readonly format: typeof JSONL_FORMAT;
  readonly exportedAt: string;
  /** The checkpoint text taken for this export (also a row of the ledger). */
  readonly checkpoint: string;
  readonly fromSeq: number;
  readonly toSeq: number;
  /** The time filter the export was made with, as given. */
  readonly from?: string;
  readonly to?: string;
}

export function jsonlHeaderLine(header: JsonlHeader): string {
  return `${lineSafeJson(JSON.stringify(header))}\n`;
}

export function jsonlRowLine(row: LedgerRow): string {
  // U+2028, U+2029, NEL and bidi controls as `\uXXXX` (JSON.stringify leaves them raw): JSON.parse
  // gives back the same body text, so the export still verifies (issue 14 class 11).
  return `${lineSafeJson(JSON.stringify({ seq: row.seq, prevHash: row.prevHash, entryHash: row.entryHash, epoch: row.epoch, mac: row.mac, body: row.body }))}\n`;
}

export class ExportFormatError extends Error {}

/** Reads an export back: the header, then the rows (as a generator, so big exports stream). */
export function readJsonlExport(file: string): { header: JsonlHeader; rows: Generator<LedgerRow> } {
  const lines = readLinesSync(file);
  const first = lines.next();
  if (first.done) throw exportError(file, 1, 'the file is empty');
  const header = parseHeader(file, first.value);
  return { header, rows: parseRows(file, lines) };
}

function parseHeader(file: string, line: string): JsonlHeader {
  const parsed = parseJson(file, 1, line) as Partial<JsonlHeader>;
  if (parsed.format !== JSONL_FORMAT || typeof parsed.checkpoint !== 'string') {
    throw exportError(file, 1, `the first line is not a ${JSONL_FORMAT} header`);
  }
  return parsed as JsonlHeader;
}

function* parseRows(file: string, lines: Generator<string>): Generator<LedgerRow> {
  let lineNo = 1;
  for (const line of lines) {
    lineNo += 1;
    if (line === '') continue;
    const row = parseJson(file, lineNo, line) as Partial<LedgerRow>;
    if (
      typeof row.seq !== 'number' ||
      typeof row.body !== 'string' ||
      typeof row.prevHash !== 'string' ||
      typeof row.entryHash !== 'string' ||
      typeof row.epoch !== 'number' ||
      typeof row.mac !== 'string'
    ) {
      throw exportError(file, lineNo, 'the line is not a ledger row (seq, prevHash, entryHash, epoch, mac, body)');
    }
    yield { seq: row.seq, body: row.body, prevHash: row.prevHash, entryHash: row.entryHash, epoch: row.epoch, mac: row.mac };
  }
}

function parseJson(file: string, lineNo: number, line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw exportError(file, lineNo, 'the line is not valid JSON');
  }
}

function exportError(file: string, line: number, what: string): ExportFormatError {
  return new ExportFormatError(
    `${file} ${line}번째 줄: 바람 감사 내보내기(JSONL) 파일이 아닙니다 (${what}). 'baram audit export --format jsonl'로 만든 파일을 그대로 넣으세요. / ${file} line ${line}: not a Baram JSONL audit export (${what}). Pass a file made by 'baram audit export --format jsonl', unchanged.`,
  );
}

/** Lines of a file of any size, read synchronously in 1 MiB chunks (verification is synchronous). */
function* readLinesSync(file: string): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    let pending: Buffer = Buffer.alloc(0);
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      let data = Buffer.concat([pending, chunk.subarray(0, read)]);
      let newline = data.indexOf(0x0a);
      while (newline >= 0) {
        yield data.subarray(0, newline).toString('utf8').replace(/\r$/, '');
        data = data.subarray(newline + 1);
        newline = data.indexOf(0x0a);
      }
      pending = Buffer.from(data);
    }
    if (pending.length > 0) yield pending.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
