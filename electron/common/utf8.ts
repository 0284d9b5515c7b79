/**
 * Length of `bytes` without a trailing, incomplete UTF-8 sequence (at most 3 bytes are dropped):
 * where to cut captured or capped output so decoding never ends in a broken character. Shared by
 * the tools' text decoding and the host's process, SSH and HTTP captures.
 */
export function completeUtf8Length(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
