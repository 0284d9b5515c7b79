import { text, type Text } from '../../../common/i18n';

/**
 * Reading a checkpoint back as people bring it (issue 15 item 14): the file `baram audit checkpoint
 * > saved.txt` wrote, the command's whole output pasted with its guidance and QR code, or the text
 * typed back from a printout — with `-` for `—`, full-width characters from a Korean IME, extra
 * spaces, CRLF, a signature wrapped onto a second line, the hash typed as hex, hex in upper case.
 *
 * Everything here is typography: each rule maps a text to the one canonical checkpoint it can only
 * have meant, and the signature is checked over that canonical body, so leniency here cannot make a
 * forged checkpoint pass — it can only stop a typing slip from reading as tampering. What cannot be
 * read unambiguously is refused as malformed, naming the line and what to do
 * (docs/2026-12-03-checkpoints-typed-back.md).
 */
export interface CheckpointFields {
  readonly origin: string;
  readonly size: number;
  /** The root hash, base64 as formatCheckpoint writes it. */
  readonly rootBase64: string;
  readonly extensions: readonly string[];
  /** The signature lines: signer name and base64, spaces and line wraps removed. */
  readonly signatures: readonly { readonly name: string; readonly base64: string }[];
}

export class CheckpointFormatError extends Error {
  constructor(readonly text: Text) {
    super(`${text.ko} / ${text.en}`);
  }
}

/** Dashes people type or print for the em dash of a signature line (and `--`). */
const SIGNATURE_DASH = /^(?:--?|[\u2010-\u2015\u2212\u30fc\uff0d])\s*/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const ORIGIN_LINE = /^baram\.audit\/[0-9a-f]{16}$/i;
const SIZE_LINE = /^\d{1,15}$/;
/** 44 bytes (key id, epoch, HMAC-SHA256) are 60 base64 characters. */
const SIGNATURE_CHARS = 60;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}t\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?z$/i;

export function readCheckpointFields(raw: string): CheckpointFields {
  const lines = typedLines(raw);
  const start = bodyStart(lines);
  const [originLine = '', sizeLine = '', hashLine = ''] = lines.slice(start, start + 3);
  const line = (offset: number): number => start + offset + 1;
  const origin = ORIGIN_LINE.test(originLine) ? originLine.toLowerCase() : originLine;
  if (!/^[\x21-\x7e]+$/.test(origin)) throw malformed(line(0), text('첫 줄은 기록의 출처(예: baram.audit/0123456789abcdef)여야 하고 공백이 없어야 합니다', 'the first line must be the origin (like baram.audit/0123456789abcdef), without spaces'), originLine);
  const size = sizeLine.replace(/[ ,]/g, '');
  if (!SIZE_LINE.test(size)) throw malformed(line(1), text('둘째 줄은 기록 수(순번, 숫자만)여야 합니다', 'the second line must be the number of records (seq, digits only)'), sizeLine);
  const rootBase64 = rootHashBase64(hashLine.replace(/ /g, ''));
  if (!rootBase64) throw malformed(line(2), text('셋째 줄은 해시(base64 44자, 또는 16진수 64자)여야 합니다. 대소문자도 인쇄물과 같게 입력하세요', 'the third line must be the hash (44 base64 characters, or 64 hex digits); type upper and lower case exactly as printed'), hashLine);
  const extensions: string[] = [];
  let at = start + 3;
  for (; at < lines.length && lines[at] !== '' && !SIGNATURE_DASH.test(lines[at] ?? ''); at++) extensions.push(extensionLine(lines[at] ?? '', at + 1));
  const signatures = signatureLines(lines, at);
  const own = signatures.find((s) => s.name.toLowerCase() === origin.toLowerCase());
  if (!own) throw malformed(at + 1, text(`'— ${origin}'로 시작하는 서명 줄이 없습니다. 인쇄물의 마지막 줄까지 입력하세요`, `there is no signature line starting '— ${origin}'; type the printout down to its last line`), lines[at] ?? '');
  if (!validBase64(own.base64, 44)) throw malformed(own.line, text(`서명 줄의 코드는 base64 ${SIGNATURE_CHARS}자여야 합니다. 빠진 글자가 없는지, 대소문자가 인쇄물과 같은지 확인하세요`, `the signature line's code must be ${SIGNATURE_CHARS} base64 characters; check for missing characters and that upper and lower case match the printout`), own.base64);
  return { origin, size: Number(size), rootBase64, extensions, signatures: signatures.map(({ name, base64 }) => ({ name, base64 })) };
}

/**
 * Lines as a person meant them: NFKC folds full-width letters, digits and spaces (Korean IMEs type
 * them) to ASCII; every kind of line break splits; runs of spaces become one; ends are trimmed.
 */
function typedLines(raw: string): string[] {
  return raw
    .replace(/^\uFEFF/, '')
    .normalize('NFKC')
    .split(/\r\n|[\r\n\u2028\u2029\u0085]/)
    .map((l) => l.replace(/[\s\u200b]+/g, ' ').trim());
}

/**
 * Where the checkpoint starts: the first line that reads like an origin followed by a seq line, so
 * the guidance, file name and QR code of the command's own output around it are passed over. A
 * text with none starts at its first non-empty line (and is then refused naming that line).
 */
function bodyStart(lines: readonly string[]): number {
  const starts = lines.flatMap((l, i) =>
    /^[\x21-\x7e]+$/.test(l) && !SIGNATURE_DASH.test(l) && SIZE_LINE.test((lines[i + 1] ?? '').replace(/[ ,]/g, '')) && rootHashBase64((lines[i + 2] ?? '').replace(/ /g, '')) ? [i] : [],
  );
  if (starts.length > 1) {
    throw new CheckpointFormatError(
      text(
        `체크포인트가 ${starts.length}개 들어 있습니다. 파일 하나에 하나씩 넣고 --checkpoint를 여러 번 주세요.`,
        `The text holds ${starts.length} checkpoints. Put one in each file and give --checkpoint once per file.`,
      ),
    );
  }
  return starts[0] ?? Math.max(0, lines.findIndex((l) => l !== ''));
}

/** base64 of the 32-byte root hash, from base64 as printed or 64 hex digits in either case. */
function rootHashBase64(value: string): string | undefined {
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex').toString('base64');
  return validBase64(value, 32) ? value : undefined;
}

function validBase64(value: string, bytes: number): boolean {
  return BASE64.test(value) && Buffer.from(value, 'base64').length === bytes && Buffer.from(value, 'base64').toString('base64') === value;
}

/**
 * `time 2026-12-03T14:05:09.123Z` with its letters in the case formatCheckpoint writes; another
 * extension as typed, if it holds only characters an extension can.
 */
function extensionLine(value: string, lineNo: number): string {
  const match = /^time (.*)$/i.exec(value);
  if (match) {
    const iso = (match[1] ?? '').replace(/ /g, '');
    if (!ISO_TIME.test(iso)) throw malformed(lineNo, text("시각 줄은 'time 2026-12-03T14:05:09.123Z' 형식이어야 합니다", "the time line must read 'time 2026-12-03T14:05:09.123Z'"), value);
    return `time ${iso.toUpperCase()}`;
  }
  if (strayCharacter(value) !== undefined) throw malformed(lineNo, text('넷째 줄부터 서명 줄 전까지는 시각 같은 부가 정보 줄입니다', 'the lines from the fourth to the signature carry extensions such as the time'), value);
  return value;
}

/**
 * Signature lines after the body (blank lines skipped): `— name base64`, the base64 possibly with
 * spaces or wrapped onto following lines until it is complete. Whatever follows (a QR code, the
 * command's guidance) is not part of the checkpoint.
 */
function signatureLines(lines: readonly string[], from: number): { name: string; base64: string; line: number }[] {
  const found: { name: string; base64: string; line: number }[] = [];
  let at = from;
  while (at < lines.length && lines[at] === '') at++;
  while (at < lines.length && SIGNATURE_DASH.test(lines[at] ?? '')) {
    const [name = '', ...code] = (lines[at] ?? '').replace(SIGNATURE_DASH, '').split(' ');
    const line = at + 1;
    let base64 = code.join('');
    at++;
    while (base64.length < SIGNATURE_CHARS && at < lines.length && BASE64.test((lines[at] ?? '').replace(/ /g, '')) && (lines[at] ?? '') !== '') {
      base64 += (lines[at] ?? '').replace(/ /g, '');
      at++;
    }
    found.push({ name, base64, line });
  }
  return found;
}

/** The first character on `value` that a checkpoint never holds, for the message. */
function strayCharacter(value: string): string | undefined {
  return /[^A-Za-z0-9+/=.:\- —]/u.exec(value)?.[0];
}

function malformed(lineNo: number, what: Text, value: string): CheckpointFormatError {
  const stray = strayCharacter(value);
  const koStray = stray ? ` 이 줄의 '${stray}'는 체크포인트에 쓰이지 않는 글자입니다(따옴표, 전각 문자 등은 인쇄물대로 보통 글자로 바꾸세요).` : '';
  const enStray = stray ? ` '${stray}' on that line is not a character checkpoints use (retype quotes and such as the plain characters of the printout).` : '';
  return new CheckpointFormatError(
    text(
      `체크포인트 형식이 맞지 않습니다(${lineNo}번째 줄): ${what.ko}.${koStray} 이것은 조작의 증거가 아니라 입력 형식 문제입니다. 'baram audit checkpoint > 파일'로 저장한 파일을 그대로 주거나 인쇄물과 한 글자씩 대조하세요.`,
      `Malformed checkpoint (line ${lineNo}): ${what.en}.${enStray} This is a problem with the text given, not evidence of tampering. Pass the file 'baram audit checkpoint > FILE' saved, unchanged, or compare the text with the printout character by character.`,
    ),
  );
}
