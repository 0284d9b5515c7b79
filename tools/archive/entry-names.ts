import iconv from 'iconv-lite';
import { text, type Text } from '../../electron/common/i18n';

/**
 * Zip entry names: decoded (UTF-8 or CP949) and judged before anything is planned. A name is a
 * path chosen by whoever made the zip, so every rule below is about a name that would land
 * somewhere other than "inside the destination folder, as one ordinary file" (zip-slip), or that
 * Windows would read differently from how the approval shows it. docs/2026-12-03-archive-tools.md.
 */

export type NameEncoding = 'utf-8' | 'cp949';

/** General purpose bit 11: the name (and comment) are UTF-8. */
export const UTF8_NAME_FLAG = 0x0800;

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/**
 * Korean Windows (Explorer before Windows 11, ALZip, older Bandizip) writes CP949 names without
 * the flag; macOS's Archive Utility writes UTF-8 (NFD) names without it too. CP949 Hangul is
 * almost never well-formed UTF-8 (a lead byte 0xB0–0xC8 followed by a byte ≥ 0xA1 is not a UTF-8
 * sequence), so: flag set or well-formed UTF-8 → UTF-8, otherwise CP949.
 */
export function decodeEntryName(raw: Uint8Array, flags: number): { readonly name: string; readonly encoding: NameEncoding } | null {
  if ((flags & UTF8_NAME_FLAG) !== 0) {
    try {
      return { name: utf8Strict.decode(raw), encoding: 'utf-8' };
    } catch {
      return null; // says UTF-8 and is not: refused, not guessed
    }
  }
  try {
    return { name: utf8Strict.decode(raw), encoding: 'utf-8' };
  } catch {
    return { name: iconv.decode(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), 'cp949'), encoding: 'cp949' };
  }
}

/** A name as messages show it: control characters spelled out, so a message cannot be forged by one. */
export function shownName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface CheckedName {
  /** Path components below the destination, NFC (keyboard-typed names find them again). */
  readonly parts: readonly string[];
  readonly directory: boolean;
}

/** Win32 device names: `CON.txt` opens the console, not a file, in every folder. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;
/** Characters Windows forbids in names (the colon also names alternate data streams: `a.txt:x`). */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** Most bytes in one name on NTFS, ext4 and APFS alike (255 UTF-16 units on NTFS; bytes elsewhere). */
const MAX_NAME_BYTES = 255;

const why = {
  control: text('제어 문자(NUL 등)가 들어 있어', 'it contains a control character (such as NUL)'),
  absolute: text('절대 경로라서', 'it is an absolute path'),
  drive: text('드라이브 문자(C: 등)로 시작해서', 'it starts with a drive letter (such as C:)'),
  parent: text("'..'로 압축을 푸는 폴더 밖을 가리켜서", "it uses '..' to point outside the folder it is extracted to"),
  empty: text("빈 이름이나 '.' 부분이 있어", "it has an empty or '.' part"),
  forbidden: text('Windows가 이름에 허용하지 않는 문자(< > : " | ? *)가 있어', 'it contains a character Windows does not allow in names (< > : " | ? *)'),
  trailing: text('이름이 점이나 공백으로 끝나서(Windows는 이를 지우고 다른 파일로 읽습니다)', 'a name ends in a dot or space (Windows drops it and reads another name)'),
  reserved: text('Windows 예약 이름(CON, NUL, COM1 등)이라서', 'it is a reserved Windows name (CON, NUL, COM1 …)'),
  long: text('이름 하나가 255바이트를 넘어서', 'one name is longer than 255 bytes'),
} as const;

/**
 * Judges one decoded name. A backslash is a separator (docs/2026-12-02-backslash-is-a-separator.md):
 * `..\..\x` is `../../x`. Returns why a name is refused, or its parts.
 */
export function checkEntryName(name: string): CheckedName | { readonly refused: Text } {
  if (CONTROL.test(name)) return { refused: why.control };
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/')) return { refused: why.absolute };
  if (/^[A-Za-z]:/.test(slashed)) return { refused: why.drive };
  const directory = slashed.endsWith('/');
  const parts = (directory ? slashed.slice(0, -1) : slashed).split('/');
  for (const part of parts) {
    if (part === '..') return { refused: why.parent };
    if (part === '' || part === '.') return { refused: why.empty };
  }
  for (const part of parts) {
    if (WINDOWS_FORBIDDEN.test(part)) return { refused: why.forbidden };
    if (/[. ]$/.test(part)) return { refused: why.trailing };
    if (RESERVED.test(part.trim())) return { refused: why.reserved };
    if (new TextEncoder().encode(part.normalize('NFC')).length > MAX_NAME_BYTES) return { refused: why.long };
  }
  return { parts: parts.map((p) => p.normalize('NFC')), directory };
}

/**
 * How names compare on the disks office files live on: NTFS and APFS ignore case, and the host
 * matches names in NFC (docs/2026-12-03-names-match-nfc.md), so two entries that differ only so
 * would land on one file, and which one wins would depend on the order.
 */
export function collisionKey(parts: readonly string[]): string {
  return parts.map((p) => p.normalize('NFC').toLowerCase()).join('/');
}

export function refusedEntryText(name: string, reason: Text): Text {
  const shown = shownName(name);
  return text(
    `압축 파일 안의 '${shown}' 항목은 ${reason.ko} 풀지 않습니다. 이 압축 파일은 풀 수 없으니, 보낸 사람에게 이름을 고쳐 다시 압축해 달라고 하세요.`,
    `The entry '${shown}' in the zip is not extracted because ${reason.en}. This zip cannot be extracted; ask its sender to rename the entry and zip it again.`,
  );
}

export function collidingEntriesText(a: string, b: string): Text {
  return text(
    `압축 파일 안의 '${shownName(a)}'와(과) '${shownName(b)}'는 대소문자나 한글 조합 방식만 달라 같은 파일이 됩니다. 이 압축 파일은 풀 수 없으니, 보낸 사람에게 한쪽 이름을 바꿔 다시 압축해 달라고 하세요.`,
    `The entries '${shownName(a)}' and '${shownName(b)}' in the zip differ only in letter case or Unicode normalisation and would become one file. This zip cannot be extracted; ask its sender to rename one and zip it again.`,
  );
}
