import type { StoredEventBody } from '../ledger/canonical-event';
import { eventFields, type EventFields } from './event-fields';
import { auditSeverity, type AuditSeverity } from './severity';
import { LINE_UNSAFE, escapeText } from './line-safe';
import { eventSummary, eventTypeLabel } from './summary';

/**
 * ArcSight Common Event Format, one event per line:
 *
 *   CEF:0|Baram|Baram|<version>|<event type>|<name>|<severity>|<extension>
 *
 * for SIEMs that ingest CEF (ArcSight, Microsoft Sentinel, QRadar). No trailing newline.
 */
export interface CefOptions {
  readonly productVersion: string;
}

/**
 * CEF severity 0–10 (Low 0–3, Medium 4–6, High 7–8, Very-High 9–10), from the ranking shared with
 * syslog (severity.ts). A control failure is High, not Very-High: it needs a person, but it is not
 * evidence of an attack by itself.
 */
const CEF_SEVERITY: Readonly<Record<AuditSeverity, number>> = {
  error: 8,
  warning: 5,
  notice: 3,
  info: 1,
};

/**
 * Extension keys, in a fixed order. Dictionary keys where one fits the meaning:
 *   rt (event time, ms since epoch), shost/dvchost (host id: the device is the user's own machine),
 *   suser (OS user), act (permission decision, or the approver's choice), outcome, cat (action class
 *   조회/입력/…), externalId (call id), request (a URL target), filePath/fname (a path target), msg.
 *   cs1..cs6 and cn1..cn3 carry their meaning in csNLabel/cnNLabel.
 * The rest has no dictionary key and uses `baram…` keys (letters and digits only, as the spec asks
 * of custom keys). duser is not used: the approver is not the "destination user" of the action.
 */
function extensionPairs(f: EventFields): [string, string][] {
  const path = firstPathTarget(f);
  const url = f.targets.find(isUrl) ?? '';
  return [
    ['rt', f.timeEpochMs],
    ['cn1', f.seq],
    ['cn1Label', 'seq'],
    ['shost', f.hostId],
    ['dvchost', f.hostId],
    ['suser', f.osUser],
    ['cs1', f.appUser],
    ['cs1Label', f.appUser === '' ? '' : 'appUser'],
    ['cs2', f.sessionId],
    ['cs2Label', f.sessionId === '' ? '' : 'sessionId'],
    ['cs3', f.tool],
    ['cs3Label', f.tool === '' ? '' : 'tool'],
    ['cat', f.actionClass],
    ['act', f.decision !== '' ? f.decision : f.choice],
    ['outcome', f.outcome],
    ['cs4', f.rule],
    ['cs4Label', f.rule === '' ? '' : 'rule'],
    ['cs5', f.approver],
    ['cs5Label', f.approver === '' ? '' : 'approver'],
    ['cn2', f.waitedMs],
    ['cn2Label', f.waitedMs === '' ? '' : 'waitedMs'],
    ['cn3', f.durationMs],
    ['cn3Label', f.durationMs === '' ? '' : 'durationMs'],
    ['externalId', f.callId],
    ['request', url],
    ['filePath', path],
    ['fname', path === '' ? '' : baseName(path)],
    ['baramTarget', f.target],
    ['baramRuleSource', f.ruleSource],
    ['baramChoice', f.choice],
    ['baramExitCode', f.exitCode],
    ['baramArgsSha256', f.argsSha256],
    ['baramRisk', f.risk],
    ['baramLocalTime', f.localTime],
    ['cs6', f.detail],
    ['cs6Label', f.detail === '' ? '' : 'detail'],
    ['msg', eventSummary(f)],
  ];
}

export function cefLine(body: StoredEventBody, options: CefOptions): string {
  const fields = eventFields(body);
  const label = eventTypeLabel(fields.type);
  const header = [
    'CEF:0',
    escapeHeader('Baram'),
    escapeHeader('Baram'),
    escapeHeader(options.productVersion),
    escapeHeader(fields.type),
    escapeHeader(`${label.ko} / ${label.en}`),
    String(CEF_SEVERITY[auditSeverity(body)]),
  ].join('|');
  const extension = extensionPairs(fields)
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${key}=${escapeExtensionValue(value)}`)
    .join(' ');
  return `${header}|${extension}`;
}

/**
 * Header fields: `\` and `|` are escaped with a backslash (CEF spec, "Character encoding"). The spec
 * gives no escape for line breaks in the header, and one would split the record, so they become spaces.
 * Every other control, U+2028/U+2029, NEL and bidi control (line-safe.ts) is written as the text
 * `\uXXXX`, whose backslash is then escaped like any other (issue 14 class 11).
 */
export function escapeHeader(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(LINE_UNSAFE, escapeText)
    .replace(/[\\|]/g, (c) => `\\${c}`);
}

/**
 * Extension values: `\` and `=` are escaped with a backslash, line breaks are written `\n` and `\r`
 * (CEF spec). A pipe needs no escape here. With every `=` escaped, a reader finds each key as the
 * word before an unescaped `=`, so spaces inside values are safe. The CEF spec names no escape for
 * other line breaks: U+2028, U+2029, NEL (U+0085), every other C0/C1 control and the bidi controls
 * (line-safe.ts) would split the record for a reader that splits there, or make it read differently,
 * so they are written as the text `\uXXXX` (`\t` for a tab) with its backslash escaped (`\\u2028`):
 * a CEF reader shows `\u2028`, as the syslog export does (issue 14 class 11).
 */
export function escapeExtensionValue(value: string): string {
  return value.replace(EXTENSION_SPECIAL, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\\' || c === '=' ? `\\${c}` : escapeText(c).replace(/\\/g, '\\\\'),
  );
}

const EXTENSION_SPECIAL = new RegExp(`[\\\\=]|${LINE_UNSAFE.source}`, 'g');

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

function isUrl(target: string): boolean {
  return URL_LIKE.test(target);
}

/** A drive path (C:\ or C:/), a UNC path (\\server\share), or an absolute or home-relative POSIX path. */
const PATH_LIKE = /^(?:[a-z]:[\\/]|\\\\|\/|~[\\/])/i;

/**
 * The first target that is a file path. An executed command line can start with a path too
 * ("/usr/bin/git status"), so targets of execute-class events are never called file paths.
 */
function firstPathTarget(f: EventFields): string {
  if (f.actionClass === '실행' || f.risk === 'execute') return '';
  return f.targets.find((t) => PATH_LIKE.test(t) && !isUrl(t)) ?? '';
}

function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? '';
}
