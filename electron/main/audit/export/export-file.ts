import { createHash } from 'node:crypto';
import type { Lang } from '../../../common/i18n';
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { takeCheckpoint } from '../checkpoint/checkpoint-store';
import type { AuditLedger } from '../ledger/audit-ledger';
import type { StoredEventBody } from '../ledger/canonical-event';
import { readLedgerRows } from '../ledger/read-rows';
import type { LedgerRow } from '../ledger/rows';
import { cefLine } from './cef';
import { CSV_BOM, csvHeaderLine, csvRow } from './csv';
import { jsonlHeaderLine, jsonlRowLine } from './jsonl';
import { syslogLine } from './syslog';

export type ExportFormat = 'jsonl' | 'csv' | 'syslog' | 'cef';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'csv', 'syslog', 'cef'];

export interface ExportRequest {
  readonly format: ExportFormat;
  readonly out: string;
  /** Inclusive lower bound on event time. */
  readonly from?: Date;
  /** Exclusive upper bound on event time. */
  readonly to?: Date;
  readonly hostId: string;
  readonly productVersion: string;
  readonly now: Date;
  /** Language of a CSV's headers and words (default Korean). */
  readonly lang?: Lang;
}

export interface ExportSummary {
  readonly file: string;
  readonly rows: number;
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly checkpoint: string;
  readonly sha256: string;
}

/**
 * Writes an export of the ledger. Every export embeds a checkpoint taken at export time: JSONL in
 * its header, the other formats as their last line (the `audit.checkpoint` row carrying the text),
 * so whoever receives the file can pin the ledger's state when it was made. The export itself is
 * then recorded (`audit.export`, with the file's SHA-256). The file is written next to its final
 * name and renamed into place, so a failed export leaves no half file; an existing file is never
 * overwritten.
 */
export async function exportLedger(ledger: AuditLedger, request: ExportRequest): Promise<ExportSummary> {
  const out = resolve(request.out);
  if (existsSync(out)) {
    throw new Error(`${out} 파일이 이미 있습니다. 다른 이름을 주세요. / ${out} already exists; choose another file name (exports never overwrite).`);
  }
  const taken = await takeCheckpoint(ledger, request.hostId, request.now);
  const range = request.format === 'jsonl' ? jsonlRange(ledger.dir, request, taken.recordSeq) : undefined;
  const selected = selectRows(ledger.dir, request, taken.recordSeq, range);
  const encoder = encoderFor(request);

  const temp = `${out}.partial`;
  const fd = openSync(temp, 'wx', 0o600);
  const hash = createHash('sha256');
  let rows = 0;
  let fromSeq = 0;
  let toSeq = 0;
  const write = (text: string): void => {
    const bytes = Buffer.from(text, 'utf8');
    writeSync(fd, bytes);
    hash.update(bytes);
  };
  try {
    if (range) {
      write(jsonlHeaderLine({ format: 'baram-audit-export-v1', exportedAt: request.now.toISOString(), checkpoint: taken.text, fromSeq: range.fromSeq, toSeq: range.toSeq, ...timeFilter(request) }));
    } else {
      write(encoder.start);
    }
    for (const { row, body } of selected) {
      write(encoder.line(row, body));
      rows += 1;
      fromSeq ||= row.seq;
      toSeq = row.seq;
    }
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, out);
  const sha256 = hash.digest('hex');
  await ledger.append({ type: 'audit.export', actionClass: '전송', target: [out], outcome: 'ok', data: { format: request.format, rows, fromSeq, toSeq, sha256, ...timeFilter(request) } });
  return { file: out, rows, fromSeq, toSeq, checkpoint: taken.text, sha256 };
}

interface Encoder {
  readonly start: string;
  line(row: LedgerRow, body: StoredEventBody): string;
}

function encoderFor(request: ExportRequest): Encoder {
  switch (request.format) {
    case 'jsonl':
      return { start: '', line: (row) => jsonlRowLine(row) };
    case 'csv':
      return { start: CSV_BOM + csvHeaderLine(request.lang), line: (_row, body) => csvRow(body, request.lang) };
    case 'syslog':
      return { start: '', line: (_row, body) => `${syslogLine(body)}\n` };
    case 'cef':
      return { start: '', line: (_row, body) => `${cefLine(body, { productVersion: request.productVersion })}\n` };
  }
}

/**
 * Rows up to and including the checkpoint's own row. JSONL keeps one unbroken run of seqs (a gap
 * could not be verified): from the first row in the time range to the last, or to the checkpoint
 * row when there is no upper bound. The other formats take exactly the rows in range and always
 * end with the checkpoint row.
 */
function* selectRows(
  dir: string,
  request: ExportRequest,
  checkpointSeq: number,
  range: { fromSeq: number; toSeq: number } | undefined,
): Generator<{ row: LedgerRow; body: StoredEventBody }> {
  for (const row of readLedgerRows(dir, range?.fromSeq ?? 1)) {
    if (row.seq > checkpointSeq) break;
    if (range && row.seq > range.toSeq) break;
    const body = JSON.parse(row.body) as StoredEventBody;
    if (range || row.seq === checkpointSeq || inRange(body.time, request)) yield { row, body };
  }
}

function jsonlRange(dir: string, request: ExportRequest, checkpointSeq: number): { fromSeq: number; toSeq: number } {
  if (!request.from && !request.to) return { fromSeq: 1, toSeq: checkpointSeq };
  let fromSeq = 0;
  let toSeq = 0;
  for (const row of readLedgerRows(dir)) {
    if (row.seq > checkpointSeq) break;
    const time = (JSON.parse(row.body) as { time: string }).time;
    if (!inRange(time, request)) continue;
    fromSeq ||= row.seq;
    toSeq = row.seq;
  }
  if (fromSeq === 0) return { fromSeq: checkpointSeq, toSeq: checkpointSeq };
  return { fromSeq, toSeq: request.to ? toSeq : checkpointSeq };
}

function inRange(time: string, request: ExportRequest): boolean {
  const ms = Date.parse(time);
  return (!request.from || ms >= request.from.getTime()) && (!request.to || ms < request.to.getTime());
}

function timeFilter(request: ExportRequest): { from?: string; to?: string } {
  return { ...(request.from ? { from: request.from.toISOString() } : {}), ...(request.to ? { to: request.to.toISOString() } : {}) };
}
