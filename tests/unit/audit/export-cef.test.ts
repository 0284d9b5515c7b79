import { describe, expect, it } from 'vitest';
import { cefLine, escapeExtensionValue, escapeHeader } from '../../../electron/main/audit/export/cef';
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
  STARTED,
  WEB_FETCH,
} from './export-fixtures';

interface ParsedCef {
  header: string[];
  extension: Map<string, string>;
}

/**
 * A CEF reader written from the ArcSight spec, independent of the writer: the header is seven
 * `|`-separated fields after `CEF:0` with `\|` and `\\` escaped; the extension is `key=value`
 * pairs where a key is the word before an unescaped `=`, and a value runs to the space before the
 * next key, with `\\`, `\=`, `\n`, `\r` unescaped.
 */
function parseCef(line: string): ParsedCef {
  const header: string[] = [];
  let field = '';
  let i = 0;
  while (header.length < 7) {
    if (i >= line.length) throw new Error('header ends early');
    const c = line[i]!;
    if (c === '\\' && (line[i + 1] === '\\' || line[i + 1] === '|')) {
      field += line[i + 1];
      i += 2;
    } else if (c === '|') {
      header.push(field);
      field = '';
      i++;
    } else {
      field += c;
      i++;
    }
  }
  const ext = line.slice(i);
  // Unescaped '=' positions: skip over every backslash pair.
  const equals: number[] = [];
  for (let j = 0; j < ext.length; j++) {
    if (ext[j] === '\\') j++;
    else if (ext[j] === '=') equals.push(j);
  }
  const extension = new Map<string, string>();
  const keyStart = (eq: number): number => ext.lastIndexOf(' ', eq) + 1;
  equals.forEach((eq, k) => {
    const key = ext.slice(keyStart(eq), eq);
    if (!/^[A-Za-z0-9]+$/.test(key)) throw new Error(`bad key ${JSON.stringify(key)}`);
    const next = equals[k + 1];
    const end = next === undefined ? ext.length : keyStart(next) - 1;
    const raw = ext.slice(eq + 1, end);
    if (extension.has(key)) throw new Error(`duplicate key ${key}`);
    extension.set(
      key,
      raw.replace(/\\([\\=nr])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c)),
    );
  });
  return { header, extension };
}

const line = (body: StoredEventBody, version = '0.1.0'): ParsedCef => parseCef(cefLine(body, { productVersion: version }));

describe('cefLine', () => {
  it('writes the seven header fields: version 0, vendor, product, version, signature id, name, severity', () => {
    const text = cefLine(APPROVAL, { productVersion: '0.1.0' });
    expect(text.startsWith('CEF:0|Baram|Baram|0.1.0|approval.decided|승인 결정 / Approval decided|3|')).toBe(true);
    expect(text).not.toMatch(/[\r\n]/);
    expect(text.endsWith('\n')).toBe(false);
    expect(line(APPROVAL).header).toEqual(['CEF:0', 'Baram', 'Baram', '0.1.0', 'approval.decided', '승인 결정 / Approval decided', '3']);
  });

  it('escapes pipes and backslashes in the header, and keeps it on one line', () => {
    const parsed = line(PROPOSED, '1.0|beta\\2\nrc');
    expect(parsed.header[3]).toBe('1.0|beta\\2 rc');
    expect(parsed.header).toHaveLength(7);
    expect(escapeHeader('a|b\\c')).toBe('a\\|b\\\\c');
  });

  it('ranks severity 0-10 from the shared ranking', () => {
    const severity = (body: StoredEventBody): string => line(body).header[6] ?? '';
    expect([severity(GATE_ERROR), severity(PERMISSION_DENIED), severity(FAILED_NEGATIVE_EXIT)]).toEqual(['8', '5', '5']);
    expect([severity(APPROVAL), severity(STARTED), severity(READ_OK)]).toEqual(['3', '3', '1']);
  });

  it('maps fields to CEF dictionary keys', () => {
    const e = line(APPROVAL).extension;
    expect(e.get('rt')).toBe(String(Date.parse('2026-12-02T14:05:13.123Z')));
    expect([e.get('cn1'), e.get('cn1Label')]).toEqual(['13', 'seq']);
    expect([e.get('shost'), e.get('dvchost'), e.get('suser')]).toEqual(['PC-재무팀-07', 'PC-재무팀-07', 'minsu.kim']);
    expect([e.get('cs1'), e.get('cs1Label')]).toEqual(['김민수', 'appUser']);
    expect([e.get('cs5'), e.get('cs5Label')]).toEqual(['이영희', 'approver']);
    expect([e.get('cn2'), e.get('cn2Label')]).toEqual(['1234', 'waitedMs']);
    expect([e.get('act'), e.get('cat'), e.get('externalId')]).toEqual(['session', '실행', 'call-43']);
    expect(JSON.parse(e.get('cs6') ?? '')).toEqual(APPROVAL.data);
    expect(e.get('cs6Label')).toBe('detail');
    // An executed command line is not a file path, even though it mentions one.
    expect(e.get('baramTarget')).toBe(COMMAND_LINE);
    expect(e.has('filePath')).toBe(false);
  });

  it('gives a path target as filePath and fname, a URL as request', () => {
    const denied = line(PERMISSION_DENIED).extension;
    expect([denied.get('filePath'), denied.get('fname')]).toEqual([KOREAN_PATH, '보고서.xlsx']);
    expect([denied.get('act'), denied.get('cs4'), denied.get('baramRuleSource')]).toEqual(['deny', 'fs.write(C:\\Users\\*\\문서\\**)', 'admin']);
    const web = line(WEB_FETCH).extension;
    expect(web.get('request')).toBe('https://intranet.example.kr/공지?id=7&lang=ko');
    expect(web.has('filePath')).toBe(false);
  });

  it('carries execution results', () => {
    const e = line(FINISHED).extension;
    expect([e.get('outcome'), e.get('baramExitCode'), e.get('cn3'), e.get('cn3Label')]).toEqual(['ok', '0', '842', 'durationMs']);
    expect(line(FAILED_NEGATIVE_EXIT).extension.get('baramExitCode')).toBe('-1');
  });

  it('escapes backslash, equals and line breaks in values so every value parses back exactly', () => {
    const body = hostileRow(300, 'C:\\temp\\a=b|c.txt');
    const e = line(body).extension;
    expect(e.get('baramTarget')).toBe('C:\\temp\\a=b|c.txt\n두 번째 "대상", 쉼표 포함\nline1\nline2\r\nline3');
    expect(e.get('filePath')).toBe('C:\\temp\\a=b|c.txt');
    expect(e.get('fname')).toBe('a=b|c.txt');
    expect(JSON.parse(e.get('cs6') ?? '')).toEqual(body.data);
    expect(cefLine(body, { productVersion: '0.1.0' })).not.toMatch(/[\r\n]/);
    expect(escapeExtensionValue('a\\b=c\nd\re|f')).toBe('a\\\\b\\=c\\nd\\re|f');
  });

  it('leaves out empty fields instead of writing empty values', () => {
    const e = line(REQUEST).extension;
    for (const key of ['cs3', 'cs3Label', 'act', 'outcome', 'filePath', 'externalId', 'cs5']) expect(e.has(key)).toBe(false);
    expect(e.get('msg')).toBe('사용자 요청 / User request');
    for (const value of e.values()) expect(value).not.toBe('');
  });

  it('uses only letters and digits in keys for every kind of event', () => {
    for (const body of [PROPOSED, PERMISSION_DENIED, APPROVAL, STARTED, FINISHED, READ_OK, WEB_FETCH, REQUEST, GATE_ERROR]) {
      for (const key of line(body).extension.keys()) expect(key).toMatch(/^[A-Za-z0-9]+$/);
    }
  });
});
