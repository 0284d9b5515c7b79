/**
 * Characters a line-oriented export must never write raw (issue 14 class 11).
 *
 * Readers split records at more than LF: JavaScript's line terminators include U+2028 and U+2029,
 * Python's `str.splitlines()` and many log shippers split at U+0085 (NEL), VT, FF, FS, GS, RS too.
 * A target holding `\u2028CEF:0|…` would then read as a second, forged record. Bidi controls
 * (U+202E …) and zero-width characters make a record read differently from what it holds, as in
 * the approval (electron/common/display-text.ts). So every line-oriented export (CEF, syslog, CSV,
 * JSON Lines) writes these as escape text:
 *
 *  - C0 controls U+0000–U+001F, DEL and the C1 controls U+0080–U+009F (U+0085 NEL among them);
 *  - U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR;
 *  - bidi controls: U+061C ALM, U+200E/U+200F LRM/RLM, U+202A–U+202E embeddings and overrides,
 *    U+2066–U+2069 isolates;
 *  - zero-width U+200B–U+200D and U+FEFF (the BOM);
 *  - lone surrogates (not encodable in UTF-8: the file would hold U+FFFD instead).
 */
export const LINE_UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** LINE_UNSAFE without CR, LF and TAB: for CSV, where a quoted cell holds them as RFC 4180 allows. */
export const LINE_UNSAFE_EXCEPT_CR_LF_TAB =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `\uXXXX` (JSON's notation), or `\n` `\r` `\t`, as plain text. */
export function escapeText(c: string): string {
  return NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Every LINE_UNSAFE character as escape text (`\n`, `\u2028`); the caller then escapes backslashes as its format requires. */
export function escapeLineUnsafe(value: string): string {
  return value.replace(LINE_UNSAFE, escapeText);
}

/**
 * A JSON text with every LINE_UNSAFE character outside ASCII written as a JSON `\uXXXX` escape.
 * JSON.stringify escapes C0 controls but leaves U+2028, U+2029, U+0085, DEL and bidi controls raw;
 * in JSON output every non-ASCII character is inside a string literal, where `\uXXXX` means the
 * same character, so JSON.parse returns exactly the same value (the JSONL export stays verifiable).
 */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
export function lineSafeJson(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
