import { pick, text, type Lang, type Text } from '../../../common/i18n';
import type { StoredEventBody } from '../ledger/canonical-event';
import { eventFields, type EventFields } from './event-fields';
import { LINE_UNSAFE_EXCEPT_CR_LF_TAB, escapeText } from './line-safe';
import { eventTypeLabel } from './summary';
import { choiceLabel, decisionLabel, outcomeLabel } from './value-labels';

/**
 * CSV for spreadsheets (SPEC A-*: UTF-8 BOM, CRLF, Korean headers, formula-injection safe).
 * Korean Excel opens a BOM-less UTF-8 CSV as CP949 and shows mojibake; the BOM makes it read UTF-8.
 * The caller writes CSV_BOM once, then csvHeaderLine(), then one csvRow() per event.
 */
export const CSV_BOM = '\uFEFF';

/** RFC 4180 §2: each record ends with CRLF, including the last. */
const CRLF = '\r\n';

interface CsvColumn {
  readonly header: Text;
  readonly value: (fields: EventFields, lang: Lang) => string;
}

const word = (label: (code: string) => Text, code: (f: EventFields) => string) => (f: EventFields, lang: Lang): string =>
  code(f) === '' ? '' : pick(label(code(f)), lang);

/**
 * One table for header and rows, so a column can never be added to one and not the other.
 *
 * Times (issue 15 item 16): the first is local office time as `2026-12-02 23:05:11`, which Excel
 * reads as a date in every locale, so a sheet sorts and filters by it; the offset and the exact UTC
 * instant with milliseconds (as stored, text to Excel) follow in their own columns. Event types,
 * decisions, approval choices and outcomes are words in the export's language, each followed by
 * its code, so filters written against the codes keep working (docs/2026-12-03-csv-for-excel.md).
 */
const COLUMNS: readonly CsvColumn[] = [
  { header: text('순번', 'Seq'), value: (f) => f.seq },
  { header: text('현지 시각', 'Local time'), value: (f) => f.localDateTime },
  // `UTC+09:00`, not `+09:00`: a cell starting with + is neutralised as a formula starter below.
  { header: text('시간대', 'Time zone'), value: (f) => (f.utcOffset === '' ? '' : `UTC${f.utcOffset}`) },
  { header: text('UTC 시각(정밀)', 'UTC time (exact)'), value: (f) => f.time },
  { header: text('세션', 'Session'), value: (f) => f.sessionId },
  { header: text('OS 사용자', 'OS user'), value: (f) => f.osUser },
  { header: text('앱 사용자', 'App user'), value: (f) => f.appUser },
  { header: text('호스트', 'Host'), value: (f) => f.hostId },
  { header: text('이벤트', 'Event'), value: word(eventTypeLabel, (f) => f.type) },
  { header: text('이벤트 코드', 'Event code'), value: (f) => f.type },
  { header: text('행위 구분', 'Action class'), value: (f) => f.actionClass },
  { header: text('도구', 'Tool'), value: (f) => f.tool },
  { header: text('대상', 'Target'), value: (f) => f.target },
  { header: text('결정', 'Decision'), value: word(decisionLabel, (f) => f.decision) },
  { header: text('결정 코드', 'Decision code'), value: (f) => f.decision },
  { header: text('규칙', 'Rule'), value: (f) => f.rule },
  { header: text('규칙 출처', 'Rule source'), value: (f) => f.ruleSource },
  { header: text('결과', 'Outcome'), value: word(outcomeLabel, (f) => f.outcome) },
  { header: text('결과 코드', 'Outcome code'), value: (f) => f.outcome },
  { header: text('승인자', 'Approver'), value: (f) => f.approver },
  { header: text('승인 선택', 'Approval choice'), value: word(choiceLabel, (f) => f.choice) },
  { header: text('승인 선택 코드', 'Approval choice code'), value: (f) => f.choice },
  { header: text('대기(ms)', 'Waited (ms)'), value: (f) => f.waitedMs },
  { header: text('종료 코드', 'Exit code'), value: (f) => f.exitCode },
  { header: text('소요(ms)', 'Duration (ms)'), value: (f) => f.durationMs },
  { header: text('인수 SHA-256', 'Arguments SHA-256'), value: (f) => f.argsSha256 },
  { header: text('호출 ID', 'Call ID'), value: (f) => f.callId },
  { header: text('상세', 'Detail'), value: (f) => f.detail },
];

/** The header record; Korean by default (SPEC), English for offices that ask for it. */
export function csvHeaderLine(lang: Lang = 'ko'): string {
  return COLUMNS.map((c) => csvCell(pick(c.header, lang))).join(',') + CRLF;
}

/** One record; the words follow `lang`, like the header. */
export function csvRow(body: StoredEventBody, lang: Lang = 'ko'): string {
  const fields = eventFields(body);
  return COLUMNS.map((c) => csvCell(c.value(fields, lang))).join(',') + CRLF;
}

/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection": = + - @ TAB CR),
 * plus their full-width forms, which East Asian IMEs type and which some localized spreadsheet
 * builds accept as formula starters too. An apostrophe costs a reader nothing; a formula that
 * runs (=HYPERLINK, =WEBSERVICE, DDE) can leak the ledger off an air-gapped machine.
 */
const FORMULA_STARTERS = new Set(['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠']);

/** Leading characters some importers trim before deciding a cell is a formula (" =1+1"). */
const TRIMMABLE = /^[ \n\u00a0\u3000]*/;

/**
 * One cell, neutralised then quoted.
 *
 * The rule is the same for every cell, including the numbers we format ourselves (seq, waited ms,
 * exit code, duration): a positive number starts with a digit and is left alone, so it stays a
 * number in the sheet; a negative one ("-1") is prefixed like any text. We do not exempt "our"
 * numbers because a row of a damaged or forged ledger can hold any text where a number belongs,
 * and a rule with a type-based exception is one more thing an auditor has to trust. A real negative
 * exit code reads as '-1, which is still unambiguous to a person.
 */
export function csvCell(raw: string): string {
  // CR, LF and TAB stay: inside a quoted cell they are RFC 4180 data and a spreadsheet shows them in
  // the cell. U+2028/2029, NEL, the other controls and bidi controls become `\u2028` text (issue 14
  // class 11): a reader that splits lines there would see a forged record, and a bidi override
  // would make a name read differently from what it is.
  const value = raw.replace(LINE_UNSAFE_EXCEPT_CR_LF_TAB, escapeText);
  const neutralised = startsLikeFormula(value) ? `'${value}` : value;
  // RFC 4180 §2.6–2.7: quote a field holding a quote, comma, CR or LF; double the quotes inside.
  return /[",\r\n]/.test(neutralised) ? `"${neutralised.replace(/"/g, '""')}"` : neutralised;
}

function startsLikeFormula(value: string): boolean {
  const first = value.charAt(0);
  if (FORMULA_STARTERS.has(first)) return true;
  const afterTrim = value.charAt(TRIMMABLE.exec(value)?.[0].length ?? 0);
  return FORMULA_STARTERS.has(afterTrim);
}
