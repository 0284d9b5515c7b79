import { pick, type Lang, type Text } from '../../../common/i18n';
import type { StoredEventBody } from '../ledger/canonical-event';
import { eventFields, type EventFields } from './event-fields';
import { LINE_UNSAFE_EXCEPT_CR_LF_TAB, escapeText } from './line-safe';

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
  readonly value: (fields: EventFields) => string;
}

/** One table for header and rows, so a column can never be added to one and not the other. */
const COLUMNS: readonly CsvColumn[] = [
  { header: { ko: '순번', en: 'Seq' }, value: (f) => f.seq },
  { header: { ko: '시각(UTC)', en: 'Time (UTC)' }, value: (f) => f.time },
  { header: { ko: '현지 시각', en: 'Local time' }, value: (f) => f.localTime },
  { header: { ko: '세션', en: 'Session' }, value: (f) => f.sessionId },
  { header: { ko: 'OS 사용자', en: 'OS user' }, value: (f) => f.osUser },
  { header: { ko: '앱 사용자', en: 'App user' }, value: (f) => f.appUser },
  { header: { ko: '호스트', en: 'Host' }, value: (f) => f.hostId },
  { header: { ko: '이벤트', en: 'Event' }, value: (f) => f.type },
  { header: { ko: '행위 구분', en: 'Action class' }, value: (f) => f.actionClass },
  { header: { ko: '도구', en: 'Tool' }, value: (f) => f.tool },
  { header: { ko: '대상', en: 'Target' }, value: (f) => f.target },
  { header: { ko: '결정', en: 'Decision' }, value: (f) => f.decision },
  { header: { ko: '규칙', en: 'Rule' }, value: (f) => f.rule },
  { header: { ko: '규칙 출처', en: 'Rule source' }, value: (f) => f.ruleSource },
  { header: { ko: '결과', en: 'Outcome' }, value: (f) => f.outcome },
  { header: { ko: '승인자', en: 'Approver' }, value: (f) => f.approver },
  { header: { ko: '승인 선택', en: 'Approval choice' }, value: (f) => f.choice },
  { header: { ko: '대기(ms)', en: 'Waited (ms)' }, value: (f) => f.waitedMs },
  { header: { ko: '종료 코드', en: 'Exit code' }, value: (f) => f.exitCode },
  { header: { ko: '소요(ms)', en: 'Duration (ms)' }, value: (f) => f.durationMs },
  { header: { ko: '인수 SHA-256', en: 'Arguments SHA-256' }, value: (f) => f.argsSha256 },
  { header: { ko: '호출 ID', en: 'Call ID' }, value: (f) => f.callId },
  { header: { ko: '상세', en: 'Detail' }, value: (f) => f.detail },
];

/** The header record; Korean by default (SPEC), English for offices that ask for it. */
export function csvHeaderLine(lang: Lang = 'ko'): string {
  return COLUMNS.map((c) => csvCell(pick(c.header, lang))).join(',') + CRLF;
}

export function csvRow(body: StoredEventBody): string {
  const fields = eventFields(body);
  return COLUMNS.map((c) => csvCell(c.value(fields))).join(',') + CRLF;
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
