import { canonicalJson } from '../../../common/canonical-json';
import type { StoredEventBody } from '../ledger/canonical-event';

/**
 * The flat fields every export format shares (CSV, syslog, CEF), projected from a stored row in ONE
 * place so the formats cannot disagree about what an event said. Every value is text; a missing
 * value is the empty string, never "undefined", "null" or "[object Object]".
 *
 * The projection never throws on a well-formed JSON body: exports also run over ledgers that failed
 * verification (that is when auditors need them most), so a field of the wrong type becomes its
 * canonical JSON text instead of aborting the export.
 */
export interface EventFields {
  readonly seq: string;
  /** As stored: ISO 8601 UTC with milliseconds and `Z`. */
  readonly time: string;
  /** Milliseconds since the epoch as decimal text, or '' when `time` is not a valid ISO UTC instant. */
  readonly timeEpochMs: string;
  /** The office's wall-clock time at the event, with its offset (2026-12-02T23:05:01.123+09:00). */
  readonly localTime: string;
  /**
   * The same wall-clock time as `2026-12-02 23:05:01` (seconds, no offset): the one form every
   * Excel locale reads as a date and time on opening a CSV. ISO text with `T`, milliseconds or an
   * offset stays text there and cannot be sorted or filtered as a date.
   */
  readonly localDateTime: string;
  /** The office's offset from UTC at the event (`+09:00`), or '' when the stored one is corrupt. */
  readonly utcOffset: string;
  readonly sessionId: string;
  readonly osUser: string;
  readonly appUser: string;
  readonly hostId: string;
  readonly type: string;
  readonly actionClass: string;
  readonly risk: string;
  readonly tool: string;
  readonly targets: readonly string[];
  /** All targets joined with LF (one cell, one line per target in a spreadsheet). */
  readonly target: string;
  readonly decision: string;
  readonly rule: string;
  readonly ruleSource: string;
  readonly outcome: string;
  /** approval.decided only. */
  readonly approver: string;
  readonly choice: string;
  readonly waitedMs: string;
  /** execution.finished only. */
  readonly exitCode: string;
  readonly durationMs: string;
  /** tool.proposed only: digest of the arguments before redaction. */
  readonly argsSha256: string;
  readonly callId: string;
  /** Canonical JSON of the event's `data` (sorted keys), so nothing event-specific is lost. */
  readonly detail: string;
}

export function eventFields(body: StoredEventBody): EventFields {
  const data = asRecord(body.data);
  const approval = body.type === 'approval.decided' ? data : undefined;
  const finished = body.type === 'execution.finished' ? data : undefined;
  const proposed = body.type === 'tool.proposed' ? data : undefined;
  const targets = Array.isArray(body.target) ? body.target.map((t: unknown) => cellText(t)) : [];
  const epochMs = utcEpochMs(body.time);
  const local = epochMs === undefined ? undefined : localTimeOf(epochMs, body.tzOffsetMinutes);
  return {
    seq: cellText(body.seq),
    time: cellText(body.time),
    timeEpochMs: epochMs === undefined ? '' : String(epochMs),
    localTime: local === undefined ? '' : `${local.wallClock}${local.offset}`,
    localDateTime: local === undefined ? '' : `${local.wallClock.slice(0, 10)} ${local.wallClock.slice(11, 19)}`,
    utcOffset: local?.offset ?? '',
    sessionId: cellText(body.sessionId),
    osUser: cellText(body.osUser),
    appUser: cellText(body.appUser),
    hostId: cellText(body.hostId),
    type: cellText(body.type),
    actionClass: cellText(body.actionClass),
    risk: cellText(body.risk),
    tool: cellText(body.tool),
    targets,
    target: targets.join('\n'),
    decision: cellText(body.decision),
    rule: cellText(body.rule),
    ruleSource: cellText(body.ruleSource),
    outcome: cellText(body.outcome),
    approver: cellText(approval?.['approver']),
    choice: cellText(approval?.['choice']),
    waitedMs: cellText(approval?.['waitedMs']),
    // Tools that report an exit code put it either at the top of data (later tools) or inside the
    // tool's own details (the first process tools); the top-level one wins when both exist.
    exitCode: cellText(finished?.['exitCode'] ?? asRecord(finished?.['details'])?.['exitCode']),
    durationMs: cellText(finished?.['durationMs']),
    argsSha256: cellText(proposed?.['argsSha256']),
    callId: cellText(body.callId),
    detail: body.data === undefined ? '' : canonicalJson(body.data),
  };
}

/** Text of one value: strings as they are, finite numbers and booleans in JS notation, the rest as canonical JSON. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  return canonicalJson(value);
}

function asRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Epoch ms of an ISO UTC instant written exactly as the ledger writes it; undefined for anything else (e.g. Feb 30). */
function utcEpochMs(time: unknown): number | undefined {
  if (typeof time !== 'string' || !ISO_UTC_MS.test(time)) return undefined;
  const ms = Date.parse(time);
  return Number.isFinite(ms) && new Date(ms).toISOString() === time ? ms : undefined;
}

/**
 * Real offsets run from −12:00 to +14:00; ISO 8601 / RFC 3339 readers accept up to ±18:00 (the
 * java.time bound). Beyond that the stored offset is corrupt and no local time is shown.
 */
const MAX_OFFSET_MINUTES = 18 * 60;

/** Wall-clock ISO text without zone (2026-12-02T23:05:01.123) and the offset (+09:00). */
function localTimeOf(epochMs: number, offsetMinutes: unknown): { readonly wallClock: string; readonly offset: string } | undefined {
  if (typeof offsetMinutes !== 'number' || !Number.isInteger(offsetMinutes)) return undefined;
  if (Math.abs(offsetMinutes) > MAX_OFFSET_MINUTES) return undefined;
  const shifted = new Date(epochMs + offsetMinutes * 60_000).toISOString();
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return { wallClock: shifted.slice(0, -1), offset: `${sign}${hh}:${mm}` };
}
