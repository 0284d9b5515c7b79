import { describe, expect, it } from 'vitest';
import { escapeParamValue, SYSLOG_SD_ID, syslogLine } from '../../../electron/main/audit/export/syslog';
import type { StoredEventBody } from '../../../electron/main/audit/ledger/canonical-event';
import {
  APPROVAL,
  COMMAND_LINE,
  FAILED_NEGATIVE_EXIT,
  FINISHED,
  GATE_ERROR,
  hostileRow,
  KOREAN_PATH,
  PERMISSION_DENIED,
  PROPOSED,
  READ_OK,
  REQUEST,
} from './export-fixtures';

/**
 * RFC 5424 §6 ABNF as a regular expression (one capture per part):
 *   SYSLOG-MSG = HEADER SP STRUCTURED-DATA [SP MSG]
 *   HEADER     = PRI VERSION SP TIMESTAMP SP HOSTNAME SP APP-NAME SP PROCID SP MSGID
 *   PRI = "<" 1*3DIGIT ">"; VERSION = NONZERO-DIGIT 0*2DIGIT
 *   TIMESTAMP  = NILVALUE / FULL-DATE "T" PARTIAL-TIME ["." 1*6DIGIT] ("Z" / ("+"/"-") HH ":" MM)
 *   HOSTNAME 1*255, APP-NAME 1*48, PROCID 1*128, MSGID 1*32 PRINTUSASCII, or NILVALUE
 *   SD-ELEMENT = "[" SD-NAME *(SP PARAM-NAME "=" DQUOTE PARAM-VALUE DQUOTE) "]"
 *   SD-NAME    = 1*32 PRINTUSASCII except '=', SP, ']', '"'
 *   PARAM-VALUE: '"', '\' and ']' MUST be escaped
 *   MSG-UTF8   = BOM UTF-8-STRING
 */
const PRINTUSASCII = '[\\x21-\\x7e]';
const SD_NAME_CHAR = '[!#-<>-\\\\^-~]'; // PRINTUSASCII minus '"' (34), '=' (61), ']' (93)
const PARAM_VALUE = '(?:[^"\\\\\\]]|\\\\.)*';
const SD_ELEMENT = `\\[${SD_NAME_CHAR}{1,32}(?: ${SD_NAME_CHAR}{1,32}="${PARAM_VALUE}")*\\]`;
const TIMESTAMP = '(?:-|\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,6})?(?:Z|[+-]\\d{2}:\\d{2}))';
const RFC5424 = new RegExp(
  `^<(\\d{1,3})>([1-9]\\d{0,2}) (${TIMESTAMP}) (-|${PRINTUSASCII}{1,255}) (-|${PRINTUSASCII}{1,48}) ` +
    `(-|${PRINTUSASCII}{1,128}) (-|${PRINTUSASCII}{1,32}) (-|(?:${SD_ELEMENT})+)(?: (\\uFEFF[^\\r\\n]*))?$`,
  'u',
);

interface ParsedSyslog {
  pri: number;
  version: string;
  timestamp: string;
  hostname: string;
  appName: string;
  procId: string;
  msgId: string;
  sd: Map<string, [string, string][]>;
  msg: string;
}

function parseSyslog(line: string): ParsedSyslog {
  const m = RFC5424.exec(line);
  if (m === null) throw new Error(`not RFC 5424: ${line}`);
  const [, pri, version, timestamp, hostname, appName, procId, msgId, sd, msg] = m as unknown as string[];
  return {
    pri: Number(pri),
    version: version!,
    timestamp: timestamp!,
    hostname: hostname!,
    appName: appName!,
    procId: procId!,
    msgId: msgId!,
    sd: parseStructuredData(sd!),
    msg: msg ?? '',
  };
}

/** An RFC 5424 §6.3 reader: `\"`, `\\`, `\]` unescape; a backslash before anything else stays. */
function parseStructuredData(sd: string): Map<string, [string, string][]> {
  const elements = new Map<string, [string, string][]>();
  if (sd === '-') return elements;
  let i = 0;
  while (i < sd.length) {
    if (sd[i] !== '[') throw new Error(`expected [ at ${i}`);
    i++;
    const idEnd = sd.slice(i).search(/[ \]]/) + i;
    const id = sd.slice(i, idEnd);
    i = idEnd;
    const params: [string, string][] = [];
    while (sd[i] === ' ') {
      i++;
      const eq = sd.indexOf('=', i);
      const name = sd.slice(i, eq);
      i = eq + 1;
      if (sd[i] !== '"') throw new Error(`expected " at ${i}`);
      i++;
      let value = '';
      while (sd[i] !== '"') {
        if (i >= sd.length) throw new Error('unterminated PARAM-VALUE');
        if (sd[i] === '\\' && ['"', '\\', ']'].includes(sd[i + 1] ?? '')) {
          value += sd[i + 1];
          i += 2;
        } else {
          value += sd[i];
          i++;
        }
      }
      i++;
      params.push([name, value]);
    }
    if (sd[i] !== ']') throw new Error(`expected ] at ${i}`);
    i++;
    elements.set(id, params);
  }
  return elements;
}

function param(parsed: ParsedSyslog, name: string): string | undefined {
  return parsed.sd.get(SYSLOG_SD_ID)?.find(([n]) => n === name)?.[1];
}

describe('syslogLine', () => {
  it('matches the RFC 5424 grammar for every kind of event', () => {
    for (const body of [PROPOSED, PERMISSION_DENIED, APPROVAL, FINISHED, FAILED_NEGATIVE_EXIT, READ_OK, REQUEST, GATE_ERROR]) {
      const line = syslogLine(body, {});
      const parsed = parseSyslog(line);
      expect(parsed.pri).toBeLessThanOrEqual(191);
      expect(parsed.version).toBe('1');
      expect(line).not.toMatch(/[\r\n]/);
      for (const [name] of parsed.sd.get(SYSLOG_SD_ID) ?? []) expect(name).toMatch(/^[!#-<>-\\^-~]{1,32}$/);
    }
  });

  it('uses facility 13 (log audit) with a severity from the outcome', () => {
    const pri = (body: StoredEventBody): number => parseSyslog(syslogLine(body, {})).pri;
    expect(pri(GATE_ERROR)).toBe(13 * 8 + 3);
    expect(pri(PERMISSION_DENIED)).toBe(13 * 8 + 4);
    expect(pri(FAILED_NEGATIVE_EXIT)).toBe(13 * 8 + 4);
    expect(pri(APPROVAL)).toBe(13 * 8 + 5);
    expect(pri(READ_OK)).toBe(13 * 8 + 6);
  });

  it('writes the header: ms UTC timestamp, host from the row, app name, nil PROCID, event type as MSGID', () => {
    const parsed = parseSyslog(syslogLine(APPROVAL, {}));
    expect(parsed.timestamp).toBe('2026-12-02T14:05:13.123Z');
    // PC-재무팀-07: the Korean letters are not PRINTUSASCII.
    expect(parsed.hostname).toBe('PC-___-07');
    expect(parsed.appName).toBe('baram');
    expect(parsed.procId).toBe('-');
    expect(parsed.msgId).toBe('approval.decided');
    expect(param(parsed, 'hostId')).toBe('PC-재무팀-07');
  });

  it('takes header fields from options and keeps them printable ASCII and within length', () => {
    const parsed = parseSyslog(
      syslogLine(PROPOSED, { hostname: 'fin-07.corp.example', appName: 'baram audit 바람', procId: '4242' }),
    );
    expect([parsed.hostname, parsed.appName, parsed.procId]).toEqual(['fin-07.corp.example', 'baram_audit___', '4242']);
    const long = parseSyslog(syslogLine({ ...PROPOSED, type: 'x'.repeat(40) } as unknown as StoredEventBody, { hostname: '' }));
    expect(long.msgId).toBe('x'.repeat(32));
    expect(long.hostname).toBe('-');
  });

  it('writes NILVALUE for a malformed timestamp', () => {
    expect(parseSyslog(syslogLine({ ...PROPOSED, time: 'yesterday' }, {})).timestamp).toBe('-');
  });

  it('carries the fields as structured data that round-trips exactly', () => {
    const parsed = parseSyslog(syslogLine(APPROVAL, {}));
    expect(param(parsed, 'seq')).toBe('13');
    expect(param(parsed, 'localTime')).toBe('2026-12-02T23:05:13.123+09:00');
    expect(param(parsed, 'appUser')).toBe('김민수');
    expect(param(parsed, 'approver')).toBe('이영희');
    expect(param(parsed, 'choice')).toBe('session');
    expect(param(parsed, 'waitedMs')).toBe('1234');
    expect(param(parsed, 'target')).toBe(COMMAND_LINE);
    expect(JSON.parse(param(parsed, 'detail') ?? '')).toEqual(APPROVAL.data);
    expect(param(parsed, 'exitCode')).toBeUndefined();
    const proposed = parseSyslog(syslogLine(PROPOSED, {}));
    expect(param(proposed, 'target')).toBe(KOREAN_PATH);
    expect(param(proposed, 'argsSha256')).toBe('a3f1'.repeat(16));
  });

  it('escapes " \\ ] so values with them round-trip, and repeats target per target', () => {
    const tricky = ['C:\\a]b\\"c"\\', '=HYPERLINK("x")]]', '끝\\'];
    const parsed = parseSyslog(syslogLine({ ...PROPOSED, target: tricky, rule: 'a"]\\' }, {}));
    const targets = parsed.sd.get(SYSLOG_SD_ID)?.filter(([n]) => n === 'target').map(([, v]) => v);
    expect(targets).toEqual(tricky);
    expect(param(parsed, 'rule')).toBe('a"]\\');
    expect(escapeParamValue('a"b\\c]d')).toBe('a\\"b\\\\c\\]d');
  });

  it('keeps one record on one line: control characters become escape text, detail JSON stays exact', () => {
    const body = hostileRow(200, '\r=1+1');
    const line = syslogLine(body, {});
    expect(line).not.toMatch(/[\r\n\t]/);
    const parsed = parseSyslog(line);
    const targets = parsed.sd.get(SYSLOG_SD_ID)?.filter(([n]) => n === 'target').map(([, v]) => v);
    expect(targets).toEqual(['\\r=1+1', '두 번째 "대상", 쉼표 포함', 'line1\\nline2\\r\\nline3']);
    expect(JSON.parse(param(parsed, 'detail') ?? '')).toEqual(body.data);
    // A lone surrogate is not UTF-8: it is written as escape text, never as U+FFFD.
    const lone = parseSyslog(syslogLine({ ...PROPOSED, target: ['a\uD800b'] }, {}));
    expect(param(lone, 'target')).toBe('a\\ud800b');
  });

  it('starts MSG with the UTF-8 BOM bytes and gives a short Korean and English summary', () => {
    const line = syslogLine(PERMISSION_DENIED, {});
    const bytes = Buffer.from(line, 'utf8');
    const bom = bytes.indexOf(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bom).toBeGreaterThan(0);
    expect(bytes.subarray(bom - 2, bom).toString('latin1')).toBe('] ');
    const msg = bytes.subarray(bom + 3).toString('utf8');
    expect(msg).toBe(`권한 판정 / Permission decided · fs.write · ${KOREAN_PATH} · 결정/decision=deny`);
    expect(line.endsWith('\n')).toBe(false);
  });
});
