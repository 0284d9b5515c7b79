import type { StoredEventBody } from '../ledger/canonical-event';
import { eventFields, type EventFields } from './event-fields';
import { auditSeverity, type AuditSeverity } from './severity';
import { escapeLineUnsafe } from './line-safe';
import { eventSummary } from './summary';

/**
 * RFC 5424 syslog, one event per line, for forwarding to the office's collector (rsyslog,
 * syslog-ng, a SIEM):
 *
 *   <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [baram@32473 …] BOM MSG
 *
 * No trailing newline: the file writer (or an octet-counting transport, RFC 6587) frames lines.
 */
export interface SyslogOptions {
  /** Default 'baram'. */
  readonly appName?: string;
  /** Default: the row's host id. */
  readonly hostname?: string;
  /** Default NILVALUE: an export is not the process that logged the event. */
  readonly procId?: string;
}

/** RFC 5424 §6.2.1: facility 13 is "log audit", the one meant for audit trails. */
const FACILITY_LOG_AUDIT = 13;

/** RFC 5424 §6.2.1 severities; see severity.ts for how an event is ranked. */
const SYSLOG_SEVERITY: Readonly<Record<AuditSeverity, number>> = {
  error: 3, // Error
  warning: 4, // Warning
  notice: 5, // Notice: normal but significant condition
  info: 6, // Informational
};

/**
 * SD-ID for our parameters. RFC 5424 §7.2.2 requires `name@<private enterprise number>`; Baram has
 * no IANA PEN, so we use 32473, the number RFC 5612 reserves for documentation and examples. It can
 * never collide with a real vendor's SD-ID, and collectors map it by name (rsyslog mmpstrucdata,
 * syslog-ng's sdata parser: `.SDATA.baram@32473.seq`).
 */
export const SYSLOG_SD_ID = 'baram@32473';

const NILVALUE = '-';

/** RFC 5424 §6: header field lengths. */
const MAX_HOSTNAME = 255;
const MAX_APP_NAME = 48;
const MAX_PROCID = 128;
const MAX_MSGID = 32;

/** §6.4: MSG in UTF-8 starts with the BOM, so the collector knows it is UTF-8 (Korean paths, names). */
const UTF8_BOM = '\uFEFF';

/**
 * The SD-PARAMs, in a fixed order. Names are ≤32 PRINTUSASCII without `=`, SP, `]`, `"` (§6.3.3);
 * the test checks that. Empty values are left out rather than sent as "".
 */
const PARAMS: readonly (readonly [name: string, value: (f: EventFields) => string])[] = [
  ['seq', (f) => f.seq],
  ['localTime', (f) => f.localTime],
  ['sessionId', (f) => f.sessionId],
  ['osUser', (f) => f.osUser],
  ['appUser', (f) => f.appUser],
  ['hostId', (f) => f.hostId],
  ['actionClass', (f) => f.actionClass],
  ['risk', (f) => f.risk],
  ['tool', (f) => f.tool],
  ['decision', (f) => f.decision],
  ['rule', (f) => f.rule],
  ['ruleSource', (f) => f.ruleSource],
  ['outcome', (f) => f.outcome],
  ['approver', (f) => f.approver],
  ['choice', (f) => f.choice],
  ['waitedMs', (f) => f.waitedMs],
  ['exitCode', (f) => f.exitCode],
  ['durationMs', (f) => f.durationMs],
  ['argsSha256', (f) => f.argsSha256],
  ['callId', (f) => f.callId],
];

export function syslogLine(body: StoredEventBody, options: SyslogOptions = {}): string {
  const fields = eventFields(body);
  const pri = FACILITY_LOG_AUDIT * 8 + SYSLOG_SEVERITY[auditSeverity(body)];
  const timestamp = fields.timeEpochMs === '' ? NILVALUE : new Date(Number(fields.timeEpochMs)).toISOString();
  const header = [
    `<${pri}>1`,
    timestamp,
    headerField(options.hostname ?? fields.hostId, MAX_HOSTNAME),
    headerField(options.appName ?? 'baram', MAX_APP_NAME),
    headerField(options.procId ?? '', MAX_PROCID),
    headerField(fields.type, MAX_MSGID),
  ].join(' ');
  return `${header} ${structuredData(fields)} ${UTF8_BOM}${escapeControls(eventSummary(fields))}`;
}

/**
 * Header fields are PRINTUSASCII (33–126) only (§6). Anything else, including a Korean host name
 * or a space, becomes `_`; the exact value still travels in the SD (hostId). Empty is NILVALUE.
 */
function headerField(value: string, maxLength: number): string {
  const ascii = value.replace(/[^\x21-\x7e]/g, '_').slice(0, maxLength);
  return ascii === '' ? NILVALUE : ascii;
}

function structuredData(fields: EventFields): string {
  const params: string[] = [];
  for (const [name, value] of PARAMS) {
    const text = value(fields);
    if (text !== '') params.push(sdParam(name, text));
  }
  // §6.3.3 allows an SD-PARAM to repeat: one `target` per target keeps paths apart without a separator
  // that a path could itself contain.
  for (const target of fields.targets) params.push(sdParam('target', target));
  if (fields.detail !== '') params.push(sdParam('detail', fields.detail));
  return `[${[SYSLOG_SD_ID, ...params].join(' ')}]`;
}

function sdParam(name: string, value: string): string {
  return `${name}="${escapeParamValue(value)}"`;
}

/**
 * §6.3.3: inside PARAM-VALUE, `"`, `\` and `]` MUST be escaped with a backslash. Before that,
 * control characters (and U+2028/2029, NEL, bidi controls, and lone surrogates, which are not UTF-8)
 * are written as the text `\n`, `\r`, `\t`, `\uXXXX`, because a multi-line command must not split the record across
 * lines of a line-framed file. That text's backslash is then escaped like any other, so the value
 * stays strictly RFC 5424 and a collector shows `\n`. This is lossy only in one corner: a target
 * holding the two characters `\` `n` reads the same as one holding a line break. Syslog is for
 * forwarding and alerting; the exact record is the JSON Lines export (and `detail` here is JSON,
 * which escapes its own control characters, so it round-trips exactly).
 */
export function escapeParamValue(value: string): string {
  return escapeControls(value).replace(/["\\\]]/g, (c) => `\\${c}`);
}

/**
 * Control characters, U+2028/2029, NEL, bidi controls and lone surrogates (line-safe.ts: the set
 * every line-oriented export escapes) as JSON-style escape text (MSG has no escaping rules of its own).
 */
function escapeControls(value: string): string {
  return escapeLineUnsafe(value);
}
