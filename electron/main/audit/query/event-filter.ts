import type { Decision, Outcome } from '../../../common/domain';
import { OUTCOMES } from '../../../common/domain';
import { text, type Text } from '../../../common/i18n';

/**
 * What the audit viewer filters on. Every field is optional; all given fields must hold (AND).
 * Times are ISO 8601 with an explicit offset (`2026-12-01T09:00:00+09:00` or `…Z`); an offset is
 * required because a bare local time means different instants on different machines.
 */
export interface EventFilter {
  /** Inclusive: events at or after this instant. */
  readonly fromTime?: string;
  /** Exclusive: events strictly before this instant (so "one day" is [00:00, next day 00:00)). */
  readonly toTime?: string;
  /** Exact OS account name or app user name: matches an event whose osUser OR appUser equals it. */
  readonly user?: string;
  /** Exact tool name as recorded (`filesystem.read`; unknown names a model tried are recorded too). */
  readonly tool?: string;
  readonly outcome?: Outcome;
  /** The permission layer's decision (permission.decided rows). */
  readonly decision?: Decision;
  /** Exact event type (`execution.finished`, `approval.decided`, …). */
  readonly eventType?: string;
  /**
   * Substring of the stored event (its canonical JSON, keys included), case-insensitive for ASCII
   * letters only (Korean has no case). Any length from 1 character: `삭제` and `보고서` both work.
   */
  readonly text?: string;
}

export interface PageOptions {
  /** Events per page: 1–200, default 50. */
  readonly limit?: number;
  /** Continue below this seq (the previous page's nextBeforeSeq). */
  readonly beforeSeq?: number;
}

export const DEFAULT_PAGE_LIMIT = 50;
/** A virtualised table shows a few dozen rows; 200 bounds the work one call can ask for. */
export const MAX_PAGE_LIMIT = 200;
/** Longer than any name or path fragment anyone types; bounds the LIKE pattern. */
export const MAX_FILTER_CHARS = 200;

const DECISIONS: readonly Decision[] = ['allow', 'ask', 'deny'];
/**
 * `2026-12-01T09:00`, seconds and milliseconds optional, then `Z` or `±HH:MM`. No finer fraction:
 * stored times have milliseconds, and rounding a finer bound would move an inclusive edge.
 */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** `request`, `execution.finished`, `audit.write-failed`: lower-case words joined by dots. */
const EVENT_TYPE = /^[a-z][a-z-]*(?:\.[a-z][a-z-]*)*$/;

/**
 * A filter checked and brought to the form the ledger stores (times as `toISOString()` text): the
 * same fields as EventFilter, only their values are known to be valid.
 */
export type NormalizedFilter = EventFilter;

export interface NormalizedPage {
  readonly filter: NormalizedFilter;
  readonly limit: number;
  readonly beforeSeq: number | undefined;
}

/** 'filter' when the filter as a whole is wrong (not an object, an unknown field). */
export type FilterField = keyof EventFilter | keyof PageOptions | 'filter';

export interface FilterProblem {
  readonly field: FilterField;
  readonly message: Text;
}

export type FilterCheck = { readonly ok: true; readonly value: NormalizedPage } | { readonly ok: false; readonly problem: FilterProblem };

/** Thrown by LedgerReader.page on bad input; `problem` says which field and what to send instead. */
export class EventFilterError extends Error {
  constructor(readonly problem: FilterProblem) {
    super(`${problem.message.ko} / ${problem.message.en}`);
    this.name = 'EventFilterError';
  }
}

export const filterMessages = {
  notIsoTime: (field: string, value: string): Text =>
    text(
      `${field} 값 '${value}'은(는) 시각으로 읽을 수 없습니다. 시간대를 붙인 ISO 8601 시각을 보내세요 (예: 2026-12-01T09:00:00+09:00 또는 2026-12-01T00:00:00.000Z).`,
      `${field} '${value}' is not a time. Send an ISO 8601 instant with an offset (e.g. 2026-12-01T09:00:00+09:00 or 2026-12-01T00:00:00.000Z).`,
    ),
  emptyRange: (from: string, to: string): Text =>
    text(
      `fromTime(${from})이 toTime(${to})보다 앞서야 합니다. fromTime은 포함, toTime은 제외입니다 (하루: 그날 00:00 ~ 다음 날 00:00).`,
      `fromTime (${from}) must be before toTime (${to}). fromTime is inclusive, toTime exclusive (one day: 00:00 to the next day's 00:00).`,
    ),
  badString: (field: string): Text =>
    text(
      `${field}에는 1~${MAX_FILTER_CHARS}자의 글자를 보내세요. 이 조건을 쓰지 않으려면 ${field}를 빼고 보내세요.`,
      `${field} must be text of 1 to ${MAX_FILTER_CHARS} characters. To not filter on it, leave ${field} out.`,
    ),
  badOutcome: (value: string): Text =>
    text(
      `outcome '${value}'은(는) 없는 결과입니다. 다음 중 하나를 보내세요: ${OUTCOMES.join(', ')}.`,
      `outcome '${value}' is not a known outcome. Send one of: ${OUTCOMES.join(', ')}.`,
    ),
  badDecision: (value: string): Text =>
    text(
      `decision '${value}'은(는) 없는 결정입니다. 다음 중 하나를 보내세요: ${DECISIONS.join(', ')}.`,
      `decision '${value}' is not a known decision. Send one of: ${DECISIONS.join(', ')}.`,
    ),
  badEventType: (value: string): Text =>
    text(
      `eventType '${value}'은(는) 이벤트 유형 형식이 아닙니다. 'request'나 'execution.finished'처럼 소문자 이름을 보내세요.`,
      `eventType '${value}' is not an event type name. Send a lower-case name such as 'request' or 'execution.finished'.`,
    ),
  badLimit: (value: string): Text =>
    text(
      `limit ${value}은(는) 쓸 수 없습니다. 1~${MAX_PAGE_LIMIT} 사이의 정수를 보내거나, 빼면 ${DEFAULT_PAGE_LIMIT}개씩 가져옵니다.`,
      `limit ${value} cannot be used. Send a whole number from 1 to ${MAX_PAGE_LIMIT}, or leave it out for ${DEFAULT_PAGE_LIMIT} per page.`,
    ),
  badBeforeSeq: (value: string): Text =>
    text(
      `beforeSeq ${value}은(는) 쓸 수 없습니다. 이전 페이지의 nextBeforeSeq(양의 정수)를 그대로 보내거나, 첫 페이지는 빼고 보내세요.`,
      `beforeSeq ${value} cannot be used. Send the previous page's nextBeforeSeq (a positive whole number) as is, or leave it out for the first page.`,
    ),
  notAnObject: text(
    '필터는 객체여야 합니다 (예: { "tool": "filesystem.read" }). 모든 이벤트를 보려면 {}를 보내세요.',
    'The filter must be an object (e.g. { "tool": "filesystem.read" }). Send {} to see every event.',
  ),
  unknownField: (field: string): Text =>
    text(
      `'${field}'은(는) 필터 항목이 아닙니다. fromTime, toTime, user, tool, outcome, decision, eventType, text만 쓸 수 있습니다.`,
      `'${field}' is not a filter field. Use only fromTime, toTime, user, tool, outcome, decision, eventType, text.`,
    ),
} as const;

const FILTER_FIELDS: ReadonlySet<string> = new Set(['fromTime', 'toTime', 'user', 'tool', 'outcome', 'decision', 'eventType', 'text']);

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

function instant(field: 'fromTime' | 'toTime', value: unknown): string | FilterProblem {
  if (typeof value !== 'string' || !ISO_INSTANT.test(value)) return { field, message: filterMessages.notIsoTime(field, show(value)) };
  const ms = Date.parse(value);
  // Date.parse accepts 2026-02-30 as March 2; a round trip of the date part catches impossible dates.
  if (!Number.isFinite(ms) || !sameCalendarDate(value, ms)) return { field, message: filterMessages.notIsoTime(field, value) };
  return new Date(ms).toISOString();
}

function sameCalendarDate(value: string, ms: number): boolean {
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(value);
  const shiftMinutes = offset ? (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) : 0;
  return new Date(ms + shiftMinutes * 60_000).toISOString().slice(0, 10) === value.slice(0, 10);
}

function boundedString(field: FilterField, value: unknown): string | FilterProblem {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_FILTER_CHARS) return { field, message: filterMessages.badString(field) };
  return value;
}

function isProblem(value: unknown): value is FilterProblem {
  return typeof value === 'object' && value !== null && 'message' in value;
}

/**
 * Checks a filter and page options as they come over IPC (so `unknown` fields are expected) and
 * returns them normalized, or the first problem with a message saying what to send instead.
 */
export function checkPageRequest(filter: unknown, options: unknown = {}): FilterCheck {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return fail('filter', filterMessages.notAnObject);
  const f = filter as Record<string, unknown>;
  for (const key of Object.keys(f)) {
    if (!FILTER_FIELDS.has(key)) return fail('filter', filterMessages.unknownField(key));
  }
  const out: { -readonly [K in keyof NormalizedFilter]: NormalizedFilter[K] } = {};
  if (f.fromTime !== undefined) {
    const v = instant('fromTime', f.fromTime);
    if (isProblem(v)) return { ok: false, problem: v };
    out.fromTime = v;
  }
  if (f.toTime !== undefined) {
    const v = instant('toTime', f.toTime);
    if (isProblem(v)) return { ok: false, problem: v };
    out.toTime = v;
  }
  if (out.fromTime !== undefined && out.toTime !== undefined && out.fromTime >= out.toTime) {
    return fail('toTime', filterMessages.emptyRange(String(f.fromTime), String(f.toTime)));
  }
  for (const field of ['user', 'tool', 'text'] as const) {
    if (f[field] === undefined) continue;
    const v = boundedString(field, f[field]);
    if (isProblem(v)) return { ok: false, problem: v };
    out[field] = v;
  }
  if (f.outcome !== undefined) {
    if (!OUTCOMES.includes(f.outcome as Outcome)) return fail('outcome', filterMessages.badOutcome(show(f.outcome)));
    out.outcome = f.outcome as Outcome;
  }
  if (f.decision !== undefined) {
    if (!DECISIONS.includes(f.decision as Decision)) return fail('decision', filterMessages.badDecision(show(f.decision)));
    out.decision = f.decision as Decision;
  }
  if (f.eventType !== undefined) {
    if (typeof f.eventType !== 'string' || f.eventType.length > 64 || !EVENT_TYPE.test(f.eventType)) {
      return fail('eventType', filterMessages.badEventType(show(f.eventType)));
    }
    out.eventType = f.eventType;
  }

  const o = (typeof options === 'object' && options !== null ? options : {}) as Record<string, unknown>;
  const limit = o.limit ?? DEFAULT_PAGE_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    return fail('limit', filterMessages.badLimit(show(limit)));
  }
  const before = o.beforeSeq;
  if (before !== undefined && (typeof before !== 'number' || !Number.isSafeInteger(before) || before < 1)) {
    return fail('beforeSeq', filterMessages.badBeforeSeq(show(before)));
  }
  return { ok: true, value: { filter: out, limit, beforeSeq: before as number | undefined } };
}

function fail(field: FilterField, message: Text): FilterCheck {
  return { ok: false, problem: { field, message } };
}
