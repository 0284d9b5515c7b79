import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { BoundedCapture, UnreadOutput } from '../../../electron/main/host/process/capture';
import { completeLength, decodeCapture } from '../../../electron/main/host/process/decode-output';

/** Output decoding (SPEC S-SHELL: "decoded correctly for Korean Windows (CP949) as well as UTF-8"). */

const KOREAN = '한글 출력 - 똠방각하, 쀍 (UHC) and ASCII 123\n';
const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
const cp949 = (s: string): Uint8Array => new Uint8Array(iconv.encode(s, 'cp949'));
const utf16le = (s: string, bom: boolean): Uint8Array => new Uint8Array(Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(s, 'utf16le')]));

describe('decodeCapture', () => {
  it('UTF-8 as is', () => {
    expect(decodeCapture(utf8(KOREAN), false)).toEqual({ text: KOREAN, encoding: 'utf-8', decodedBytes: utf8(KOREAN).length });
  });

  it('CP949 bytes of "한글 출력", including the extended UHC syllables Node’s euc-kr lacks', () => {
    const bytes = cp949('한글 출력');
    expect(bytes).toEqual(new Uint8Array([0xc7, 0xd1, 0xb1, 0xdb, 0x20, 0xc3, 0xe2, 0xb7, 0xc2]));
    expect(decodeCapture(bytes, false)).toMatchObject({ text: '한글 출력', encoding: 'cp949' });
    expect(decodeCapture(cp949(KOREAN), false)).toMatchObject({ text: KOREAN, encoding: 'cp949' });
  });

  it('UTF-8 with one stray invalid byte stays UTF-8 (no mojibake for the rest)', () => {
    const bytes = new Uint8Array([...utf8('한글 출력 '), 0xff, ...utf8(' 끝')]);
    const decoded = decodeCapture(bytes, false);
    expect(decoded.encoding).toBe('utf-8');
    expect(decoded.text).toBe('한글 출력 \ufffd 끝');
  });

  it('BOMs and obvious BOM-less UTF-16LE; all-zero output is not UTF-16', () => {
    expect(decodeCapture(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('가나')]), false)).toMatchObject({ text: '가나', encoding: 'utf-8-bom' });
    expect(decodeCapture(utf16le('Windows 출력\r\n', true), false)).toMatchObject({ text: 'Windows 출력\r\n', encoding: 'utf-16le' });
    expect(decodeCapture(utf16le('Volume in drive C\r\n', false), false)).toMatchObject({ text: 'Volume in drive C\r\n', encoding: 'utf-16le' });
    expect(decodeCapture(new Uint8Array(64), false)).toMatchObject({ text: '\u0000'.repeat(64), encoding: 'utf-8' });
  });

  it('empty output', () => {
    expect(decodeCapture(new Uint8Array(0), false)).toEqual({ text: '', encoding: 'utf-8', decodedBytes: 0 });
  });
});

describe('a cut never splits a character', () => {
  const encodings: readonly (readonly [string, (s: string) => Uint8Array])[] = [
    ['utf-8', utf8],
    ['cp949', cp949],
    ['utf-16le', (s) => utf16le(s, true)],
  ];
  for (const [name, encode] of encodings) {
    it(`${name}: every cut position yields a prefix of the text, without U+FFFD`, () => {
      const full = KOREAN.repeat(3) + '😀 emoji\n'.repeat(name === 'cp949' ? 0 : 2);
      const bytes = encode(full);
      for (let cut = 1; cut < bytes.length; cut++) {
        const decoded = decodeCapture(bytes.subarray(0, cut), true);
        expect(decoded.text.includes('\ufffd'), `cut at ${cut}`).toBe(false);
        expect(full.startsWith(decoded.text), `cut at ${cut}: ${JSON.stringify(decoded.text.slice(-5))}`).toBe(true);
        expect(decoded.decodedBytes).toBeLessThanOrEqual(cut);
        expect(cut - decoded.decodedBytes).toBeLessThan(name === 'utf-8' ? 4 : name === 'cp949' ? 2 : 4);
      }
    });
  }

  it('CP949 boundaries are found from the start (trail bytes look like lead bytes)', () => {
    // '똠' = 0x8c 0x63 in UHC: a trail byte in the ASCII range. Cut after 0x8c: that byte is held back.
    const bytes = cp949('a똠b');
    expect(completeLength(bytes.subarray(0, 2), 'cp949')).toBe(1);
    expect(completeLength(bytes.subarray(0, 3), 'cp949')).toBe(3);
  });
});

describe('BoundedCapture', () => {
  it('keeps the first `limit` bytes, counts all, and copies (the caller reuses its buffer)', () => {
    const capture = new BoundedCapture(5);
    const reused = new Uint8Array([1, 2, 3, 4]);
    capture.push(reused, 3);
    reused.fill(9);
    capture.push(reused, 4);
    expect([...capture.bytes()]).toEqual([1, 2, 3, 9, 9]);
    expect(capture.totalBytes).toBe(7);
    expect(capture.truncated).toBe(true);
  });

  it('an empty run is not truncated', () => {
    const capture = new BoundedCapture(5);
    expect(capture.truncated).toBe(false);
    expect(capture.bytes().length).toBe(0);
  });
});

describe('UnreadOutput (background task reads)', () => {
  it('UTF-8 fed one byte at a time, read after every byte: the reads join to the text', () => {
    const output = new UnreadOutput(1024);
    const bytes = utf8(KOREAN);
    let joined = '';
    for (const b of bytes) {
      output.push(new Uint8Array([b]));
      joined += output.take(false).text;
    }
    joined += output.take(true).text;
    expect(joined).toBe(KOREAN);
  });

  it('CP949 split across reads, after an ASCII-only start, decodes once the encoding shows', () => {
    const output = new UnreadOutput(1024);
    const bytes = cp949(`ping 192.168.0.1\n${KOREAN}`);
    let joined = '';
    const encodings = new Set<string>();
    for (let i = 0; i < bytes.length; i += 7) {
      output.push(bytes.subarray(i, i + 7));
      const read = output.take(false);
      joined += read.text;
      encodings.add(read.encoding);
    }
    joined += output.take(true).text;
    expect(joined).toBe(`ping 192.168.0.1\n${KOREAN}`);
    expect(encodings.has('cp949')).toBe(true);
  });

  it('a UTF-16LE stream with a BOM: the BOM is dropped once, surrogate pairs survive a split', () => {
    const output = new UnreadOutput(1024);
    const bytes = utf16le('출력 😀 끝', true);
    let joined = '';
    for (let i = 0; i < bytes.length; i += 3) {
      output.push(bytes.subarray(i, i + 3));
      joined += output.take(false).text;
    }
    expect(joined + output.take(true).text).toBe('출력 😀 끝');
  });

  it('keeps at most `limit` unread bytes, reports what it dropped since the last read, then starts over', () => {
    const output = new UnreadOutput(4);
    output.push(utf8('abcdef'));
    expect(output.take(false)).toMatchObject({ text: 'abcd', droppedBytes: 2 });
    output.push(utf8('gh'));
    expect(output.take(false)).toMatchObject({ text: 'gh', droppedBytes: 0 });
    expect(output.totalBytes).toBe(8);
  });
});
