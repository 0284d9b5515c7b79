import { describe, expect, it } from 'vitest';
import { escapeExtensionValue, escapeHeader } from '../../../electron/main/audit/export/cef';
import { csvCell } from '../../../electron/main/audit/export/csv';
import { escapeLineUnsafe, lineSafeJson } from '../../../electron/main/audit/export/line-safe';
import { escapeParamValue } from '../../../electron/main/audit/export/syslog';

/** Issue 14 class 11: what the line-oriented exports write for line separators and controls. */
const HOSTILE = 'a\u2028b\u2029c\u0085d\u000be\u000cf\u001cg\u202eh\u2066i\u200bj\u007fk\u0000l\ufeffm\ud800n';

describe('line-safe escaping', () => {
  it('writes every unsafe character as escape text and keeps Korean and ordinary symbols', () => {
    expect(escapeLineUnsafe(HOSTILE)).toBe('a\\u2028b\\u2029c\\u0085d\\u000be\\u000cf\\u001cg\\u202eh\\u2066i\\u200bj\\u007fk\\u0000l\\ufeffm\\ud800n');
    expect(escapeLineUnsafe('보고서 2024/정리.xlsx — “따옴표” 😀 \t\n')).toBe('보고서 2024/정리.xlsx — “따옴표” 😀 \\t\\n');
  });

  it('CEF: no raw unsafe character in a header field or an extension value, backslashes escaped', () => {
    expect(escapeExtensionValue('x\u2028CEF:0|y=1\u0085z\\')).toBe('x\\\\u2028CEF:0|y\\=1\\\\u0085z\\\\');
    expect(escapeExtensionValue('a\nb\rc\td')).toBe('a\\nb\\rc\\\\td');
    expect(escapeHeader('v\u2028|1\u202e')).toBe('v\\\\u2028\\|1\\\\u202e');
    expect(escapeHeader('a\r\nb')).toBe('a b');
  });

  it('syslog: bidi controls are escaped too', () => {
    expect(escapeParamValue('x\u202etxt.exe\u2028')).toBe('x\\\\u202etxt.exe\\\\u2028');
  });

  it('CSV: separators and bidi controls as text; CR, LF and TAB stay inside a quoted cell', () => {
    expect(csvCell('a\u2028b\u0085c\u202ed')).toBe('a\\u2028b\\u0085c\\u202ed');
    expect(csvCell('line1\r\nline2')).toBe('"line1\r\nline2"');
    expect(csvCell('\u2028=1+1')).toBe('\\u2028=1+1');
  });

  it('JSON: the same value parses back, with no raw separator in the text', () => {
    const value = { body: HOSTILE.replace('\ud800', ''), 한글: '보고서' };
    const text = lineSafeJson(JSON.stringify(value));
    expect(text).not.toMatch(/[\u0085\u2028\u2029\u202e\u2066\u200b\u007f\ufeff]/);
    expect(JSON.parse(text)).toEqual(value);
    expect(text).toContain('보고서');
  });
});

describe('the one-line summary (CEF msg, syslog MSG, baram audit tail)', () => {
  it('turns line breaks into spaces and shows bidi controls as escape text', async () => {
    const { eventSummary } = await import('../../../electron/main/audit/export/summary');
    const { eventFields } = await import('../../../electron/main/audit/export/event-fields');
    const body = { seq: 9, time: '2026-12-03T00:00:00.000Z', tzOffsetMinutes: 540, type: 'permission.decided', tool: 'filesystem.read', target: ['a\u2028b\u0085c\u202etxt.exe', '보고서.xlsx'] };
    const summary = eventSummary(eventFields(body as never));
    expect(summary).not.toMatch(/[\u0085\u2028\u202e]/);
    expect(summary).toContain('a b c\\u202etxt.exe (외 1건 / +1 more)');
  });
});
