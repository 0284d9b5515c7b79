import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvHeaderLine, csvRow } from '../../../electron/main/audit/export/csv';
import {
  APPROVAL,
  COMMAND_LINE,
  FAILED_NEGATIVE_EXIT,
  FINISHED,
  FORMULA_TARGETS,
  hostileRow,
  KOREAN_PATH,
  PERMISSION_DENIED,
  PROPOSED,
  REQUEST,
} from './export-fixtures';

const KOREAN_HEADERS = [
  '순번', '현지 시각', '시간대', 'UTC 시각(정밀)', '세션', 'OS 사용자', '앱 사용자', '호스트', '이벤트', '이벤트 코드',
  '행위 구분', '도구', '대상', '결정', '결정 코드', '규칙', '규칙 출처', '결과', '결과 코드', '승인자', '승인 선택',
  '승인 선택 코드', '대기(ms)', '종료 코드', '소요(ms)', '인수 SHA-256', '호출 ID', '상세',
];

/**
 * A strict RFC 4180 reader, written here so the production writer is checked against the RFC and
 * not against itself: records end with CRLF, a quoted field may hold anything with quotes doubled,
 * an unquoted field may hold no quote, CR or LF. Anything else throws.
 */
function parseRfc4180(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i];
        i++;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
        if (text[i] === '"' || text[i] === '\n') throw new Error(`bare ${JSON.stringify(text[i])} in unquoted field at ${i}`);
        field += text[i];
        i++;
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') {
      records.push(record);
      record = [];
      i += 2;
      continue;
    }
    throw new Error(`expected , or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 5))}`);
  }
  if (record.length > 0) throw new Error('last record does not end with CRLF');
  return records;
}

const tempDir = mkdtempSync(join(tmpdir(), 'baram-csv-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

function writeAndReadBack(name: string, content: string): Buffer {
  const file = join(tempDir, name);
  writeFileSync(file, content, 'utf8');
  return readFileSync(file);
}

describe('CSV export', () => {
  const hostile = FORMULA_TARGETS.map((target, i) => hostileRow(100 + i, target));
  const rows = [PROPOSED, PERMISSION_DENIED, APPROVAL, FINISHED, FAILED_NEGATIVE_EXIT, REQUEST, ...hostile];
  const bytes = writeAndReadBack('audit.csv', CSV_BOM + csvHeaderLine() + rows.map((r) => csvRow(r)).join(''));
  const text = bytes.subarray(3).toString('utf8');
  const records = parseRfc4180(text);
  const bySeq = new Map(records.slice(1).map((r) => [r[0], r]));
  const cell = (seq: number, header: string): string => {
    const record = bySeq.get(String(seq));
    if (record === undefined) throw new Error(`no row ${seq}`);
    return record[KOREAN_HEADERS.indexOf(header)] ?? '(missing cell)';
  };

  it('starts with the UTF-8 BOM bytes and ends every record with CRLF', () => {
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.endsWith('\r\n')).toBe(true);
    // The strict parser above already refused bare LF record ends; every record was read.
    expect(records).toHaveLength(1 + rows.length);
  });

  it('has the Korean headers and one cell per header in every row', () => {
    expect(records[0]).toEqual(KOREAN_HEADERS);
    for (const record of records) expect(record).toHaveLength(KOREAN_HEADERS.length);
  });

  it('keeps Korean paths, users and times exact', () => {
    expect(cell(11, '대상')).toBe(KOREAN_PATH);
    expect(cell(11, '앱 사용자')).toBe('김민수');
    expect(cell(11, '호스트')).toBe('PC-재무팀-07');
    expect(cell(11, '행위 구분')).toBe('수정');
    expect(cell(11, 'UTC 시각(정밀)')).toBe('2026-12-02T14:05:11.123Z');
    expect(cell(11, '시간대')).toBe('UTC+09:00');
    expect(cell(11, '인수 SHA-256')).toBe('a3f1'.repeat(16));
    expect(cell(11, '호출 ID')).toBe('call-42');
  });

  it('projects permission, approval and execution fields into their columns', () => {
    expect([cell(12, '결정 코드'), cell(12, '규칙'), cell(12, '규칙 출처')]).toEqual(['deny', 'fs.write(C:\\Users\\*\\문서\\**)', 'admin']);
    // A choice this build has no word for shows as itself.
    expect([cell(13, '승인자'), cell(13, '승인 선택'), cell(13, '승인 선택 코드'), cell(13, '대기(ms)')]).toEqual(['이영희', 'session', 'session', '1234']);
    expect(cell(13, '대상')).toBe(COMMAND_LINE);
    expect([cell(15, '결과 코드'), cell(15, '종료 코드'), cell(15, '소요(ms)')]).toEqual(['ok', '0', '842']);
  });

  it('names event types, decisions and outcomes in Korean words, each followed by its code (issue 15 item 16)', () => {
    expect([cell(12, '이벤트'), cell(12, '이벤트 코드'), cell(12, '결정'), cell(12, '결정 코드')]).toEqual(['권한 판정', 'permission.decided', '거부', 'deny']);
    expect([cell(15, '이벤트'), cell(15, '결과'), cell(15, '결과 코드')]).toEqual(['실행 완료', '성공', 'ok']);
    expect([cell(19, '이벤트'), cell(19, '결정'), cell(19, '결과')]).toEqual(['사용자 요청', '', '']);
    const approved = parseRfc4180(csvHeaderLine() + csvRow({ ...APPROVAL, data: { ...APPROVAL.data, choice: 'allow-session' } }))[1] ?? [];
    expect(approved[KOREAN_HEADERS.indexOf('승인 선택')]).toBe('이 세션 동안 허용');
    const english = parseRfc4180(csvHeaderLine('en') + csvRow(PERMISSION_DENIED, 'en'));
    const en = (header: string): string => english[1]?.[english[0]?.indexOf(header) ?? -1] ?? '(missing cell)';
    expect([en('Event'), en('Event code'), en('Decision'), en('Decision code')]).toEqual(['Permission decided', 'permission.decided', 'Denied', 'deny']);
  });

  it('writes the local time as Excel reads a date, and keeps the exact UTC instant beside it', () => {
    // Excel takes `yyyy-mm-dd hh:mm:ss` as a date and time in every locale; ISO text with T, Z,
    // milliseconds or an offset stays text (docs/2026-12-03-csv-for-excel.md).
    expect(cell(11, '현지 시각')).toBe('2026-12-02 23:05:11');
    expect(cell(11, '현지 시각')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(cell(11, 'UTC 시각(정밀)')).toBe('2026-12-02T14:05:11.123Z');
    const corrupt = parseRfc4180(csvHeaderLine() + csvRow({ ...PROPOSED, tzOffsetMinutes: 5000 }))[1] ?? [];
    expect([corrupt[KOREAN_HEADERS.indexOf('현지 시각')], corrupt[KOREAN_HEADERS.indexOf('시간대')]]).toEqual(['', '']);
  });

  it('round-trips the detail JSON, quotes and commas included', () => {
    expect(JSON.parse(cell(13, '상세'))).toEqual(APPROVAL.data);
    expect(cell(13, '상세')).toContain('\\"긴급\\", 확인함');
    expect(JSON.parse(cell(19, '상세'))).toEqual({ prompt: '보고서 요약해줘\n두 줄로' });
  });

  it('leaves missing values empty, never "undefined"', () => {
    expect(text).not.toMatch(/undefined|null|\[object Object\]/);
    expect(cell(19, '도구')).toBe('');
    expect(cell(19, '대상')).toBe('');
    expect(cell(19, '승인자')).toBe('');
    // approver fields come from approval.decided only, exit codes from execution.finished only.
    expect(cell(11, '대기(ms)')).toBe('');
    expect(cell(12, '종료 코드')).toBe('');
  });

  it('neutralises every formula starter with a leading apostrophe and keeps the rest of the cell exact', () => {
    FORMULA_TARGETS.forEach((target, i) => {
      const expected = `'${target}\n두 번째 "대상", 쉼표 포함\nline1\nline2\r\nline3`;
      expect(cell(100 + i, '대상')).toBe(expected);
    });
    expect(cell(100, '대상').startsWith(`'=HYPERLINK(`)).toBe(true);
    // The detail holds '=cmd…' inside JSON, which starts with '{': no prefix, still valid JSON.
    expect(JSON.parse(cell(100, '상세'))).toEqual(hostile[0]?.data);
  });

  it('prefixes a negative number like text, but not positive ones', () => {
    expect(cell(16, '종료 코드')).toBe("'-1");
    expect(cell(16, '소요(ms)')).toBe('15');
    expect(cell(16, '순번')).toBe('16');
  });

  it('writes English headers on request', () => {
    expect(parseRfc4180(csvHeaderLine('en'))[0]?.slice(0, 4)).toEqual(['Seq', 'Local time', 'Time zone', 'UTC time (exact)']);
  });
});

describe('csvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@A1', "'@A1"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['＠A1', "'＠A1"],
    ['\n=1', `"'\n=1"`],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });
});
