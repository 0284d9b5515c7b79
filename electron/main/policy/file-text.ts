import { readFile } from 'node:fs/promises';
import iconv from 'iconv-lite';
import { text, type Text } from '../../common/i18n';
import type { PolicyLoad } from './types';

/**
 * Reading a policy or settings file as text (issue 15, item 9). Node's 'utf8' decoding never fails:
 * a file Notepad saved as "ANSI" (CP949 on Korean Windows) became U+FFFD in every Korean path and
 * still passed `policy check`, and a UTF-16 file gave one "unexpected character" per byte. So the
 * bytes are decoded strictly, and anything that is not UTF-8 is refused with one line saying how
 * to save it. UTF-16 is refused rather than decoded even with a BOM: one encoding for every policy
 * keeps diffs, digests and the auditors' tools simple, and Notepad offers UTF-8 in the same menu.
 */

export type FileKind = 'policy' | 'settings';

const NOUN: Readonly<Record<FileKind, Text>> = { policy: text('정책 파일', 'The policy file'), settings: text('설정 파일', 'The settings file') };

const SAVE_AS = text(
  "메모장의 '다른 이름으로 저장'에서 인코딩을 'UTF-8'(또는 'BOM이 있는 UTF-8')로 골라 다시 저장하세요.",
  "In Notepad choose 'Save As' and the encoding 'UTF-8' (or 'UTF-8 with BOM'), then save again.",
);

function refusal(file: string, kind: FileKind, found: Text): PolicyLoad<string> {
  const noun = NOUN[kind];
  return {
    ok: false,
    problems: [{ path: '$', message: text(`${noun.ko} ${file}은(는) ${found.ko}로 저장되어 있습니다. ${SAVE_AS.ko}`, `${noun.en} ${file} is saved as ${found.en}. ${SAVE_AS.en}`) }],
  };
}

/** UTF-16 without a BOM still shows itself: ASCII-heavy JSON has a NUL in every other byte. */
function looksLikeUtf16(bytes: Uint8Array): 'le' | 'be' | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.3 && evenNul < pairs * 0.05) return 'le';
  if (evenNul > pairs * 0.3 && oddNul < pairs * 0.05) return 'be';
  return null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes a policy or settings file's bytes; anything but UTF-8 (with or without BOM) is a problem. */
export function decodePolicyBytes(bytes: Uint8Array, file: string, kind: FileKind): PolicyLoad<string> {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || looksLikeUtf16(bytes)) {
    return refusal(file, kind, text("UTF-16(메모장의 '유니코드')", "UTF-16 (Notepad's 'Unicode')"));
  }
  try {
    return { ok: true, value: strictUtf8.decode(bytes) };
  } catch {
    // Not UTF-8. If it reads cleanly as CP949 and holds Korean, that is what Notepad's "ANSI" wrote.
    const asCp949 = iconv.decode(Buffer.from(bytes), 'cp949');
    const cp949 = !asCp949.includes('\uFFFD') && /[\uAC00-\uD7A3]/.test(asCp949);
    return refusal(file, kind, cp949 ? text("CP949(메모장의 'ANSI')", "CP949 (Notepad's 'ANSI')") : text('UTF-8이 아닌 인코딩', 'an encoding other than UTF-8'));
  }
}

/** Reads and decodes a policy or settings file; a file that cannot be read is a problem too. */
export async function readPolicyText(file: string, kind: FileKind): Promise<PolicyLoad<string>> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    const why =
      code === 'ENOENT'
        ? text('파일이 없습니다', 'it does not exist')
        : code === 'EACCES' || code === 'EPERM'
          ? text('읽을 권한이 없습니다', 'permission denied')
          : text(code, code);
    const noun = NOUN[kind];
    const flag = kind === 'policy' ? '--policy' : '--settings';
    return {
      ok: false,
      problems: [{ path: '$', message: text(`${noun.ko} ${file}을(를) 읽을 수 없습니다(${why.ko}). 경로를 확인하거나 ${flag} FILE로 다른 파일을 주세요.`, `Cannot read ${noun.en.toLowerCase()} ${file} (${why.en}). Check the path, or pass ${flag} FILE.`) }],
    };
  }
  return decodePolicyBytes(bytes, file, kind);
}
