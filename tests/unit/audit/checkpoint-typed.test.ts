import { describe, expect, it } from 'vitest';
import { checkpointSignatureValid, formatCheckpoint, parseCheckpoint } from '../../../electron/main/audit/checkpoint/checkpoint';
import { CheckpointFormatError } from '../../../electron/main/audit/checkpoint/checkpoint-text';
import { qrTerminalText } from '../../../electron/main/audit/checkpoint/qr';
import { deriveKey, newInitialKey } from '../../../electron/main/audit/ledger/seal-key';

/**
 * A checkpoint as people bring it back (issue 15 item 14): typed from a printout, pasted with the
 * command's guidance and QR code. What it can only have meant is read as that checkpoint (its
 * signature still checks); anything else is refused as malformed — never as tampering.
 */
const k0 = newInitialKey(20_000);
const ROOT = 'c0ffee'.repeat(10) + 'abcd';
const TEXT = formatCheckpoint('baram.audit/0123456789abcdef', { seq: 1234, entryHash: ROOT, epoch: 20_001 }, new Date('2026-12-03T14:05:09.123Z'), deriveKey(k0, 20_001));
const original = parseCheckpoint(TEXT);
const [ORIGIN, SIZE, HASH, TIME, , SIGNATURE] = TEXT.split('\n') as [string, string, string, string, string, string];
const SIG_CODE = SIGNATURE.split(' ')[2] ?? '';

function same(typed: string): void {
  const parsed = parseCheckpoint(typed);
  expect(parsed.body).toBe(original.body);
  expect(parsed.rootHash).toBe(ROOT);
  expect(checkpointSignatureValid(parsed, k0)).toBe(true);
}

function refused(typed: string, line: RegExp): CheckpointFormatError {
  let error: unknown;
  try {
    parseCheckpoint(typed);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(CheckpointFormatError);
  const { text } = error as CheckpointFormatError;
  expect(text.en).toMatch(line);
  expect(text.en).toMatch(/not evidence of tampering/);
  expect(text.ko).toMatch(/조작의 증거가 아니라/);
  return error as CheckpointFormatError;
}

describe('a checkpoint read back', () => {
  it('is the same checkpoint as written, as the whole output of the command, and with CRLF', () => {
    same(TEXT);
    same(`체크포인트를 인쇄하세요 / Print this\n파일 / file: /x/checkpoint.txt\n\n${TEXT}\n${qrTerminalText(TEXT)}\n`);
    same(TEXT.replace(/\n/g, '\r\n'));
    same(`\uFEFF${TEXT}`);
  });

  it('takes - – or -- for the em dash, extra spaces, a wrapped signature and no blank line', () => {
    same(TEXT.replace('\u2014', '-'));
    same(TEXT.replace('\u2014', '\u2013'));
    same(TEXT.replace('\u2014 ', '--'));
    same(`  ${ORIGIN}  \n ${SIZE}\n${HASH}  \ntime   ${TIME.slice(5)}\n\n\n-   ${ORIGIN}   ${SIG_CODE.slice(0, 30)} ${SIG_CODE.slice(30)}\n`);
    same(`${ORIGIN}\n${SIZE}\n${HASH}\n${TIME}\n\u2014 ${ORIGIN} ${SIG_CODE.slice(0, 40)}\n${SIG_CODE.slice(40)}\n`);
  });

  it('takes full-width characters (a Korean IME), upper-case hex in the origin, lower-case t and z, and the hash as hex', () => {
    const fullWidth = (s: string): string => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    same(`${fullWidth(ORIGIN)}\n${fullWidth(SIZE)}\n${HASH}\n${TIME}\n\n${SIGNATURE}\n`);
    same(TEXT.replace(ORIGIN, ORIGIN.toUpperCase().replace('BARAM.AUDIT', 'baram.audit')));
    same(TEXT.replace(TIME, TIME.toLowerCase()));
    same(TEXT.replace(HASH, ROOT.toUpperCase()));
    same(TEXT.replace(HASH, ROOT));
    same(TEXT.replace('time ', 'time\u3000'));
  });

  it('refuses curly quotes, a shortened hash, a missing signature or a bad time as malformed, naming the line', () => {
    refused(TEXT.replace(TIME, `time \u201C${TIME.slice(5)}\u201D`), /line 4\): the time line/);
    refused(TEXT.replace(HASH, HASH.slice(1)), /line 3\): the third line must be the hash/);
    refused(TEXT.replace(`\n${SIZE}\n`, `\n${SIZE}\u2019\n`), /line 2\): the second line/);
    refused(TEXT.replace(SIGNATURE, ''), /no signature line/);
    refused(TEXT.replace(SIG_CODE, SIG_CODE.slice(2)), /signature line's code must be 60/);
    expect(() => parseCheckpoint(`${TEXT}\n${TEXT}`)).toThrow(/holds 2 checkpoints. Put one in each file/);
    const quote = refused(TEXT.replace(ORIGIN, `\u2018${ORIGIN}\u2019`), /line 1/);
    expect(quote.text.en).toContain("'\u2018'");
  });
});
