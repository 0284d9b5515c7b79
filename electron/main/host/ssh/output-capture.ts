import iconv from 'iconv-lite';
import type { SshCapturedOutput } from '../../../common/ssh-capability';
import { completeUtf8Length } from '../../../common/utf8';

/**
 * Merged stdout+stderr of a remote command, bounded in memory like the local shell's capture
 * (SPEC S-SHELL maxCaptureBytes): the first `maxBytes` bytes are kept, everything after is still
 * read from the channel (so the server is never blocked on a full window) and only counted.
 */
export class OutputCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.maxBytes - this.kept;
    if (room <= 0) return;
    const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
    // Copy: ssh2 may reuse the buffers it hands out.
    this.chunks.push(Buffer.from(piece));
    this.kept += piece.length;
  }

  result(): SshCapturedOutput {
    const bytes = Buffer.concat(this.chunks, this.kept);
    const truncated = this.total > this.kept;
    return { ...decodeRemoteOutput(bytes, truncated), truncated, capturedBytes: this.kept, totalBytes: this.total };
  }
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/**
 * UTF-8 when the bytes are valid UTF-8 (Linux servers), otherwise CP949: a Korean Windows server's
 * OpenSSH runs cmd.exe, whose console code page is 949. Node's 'euc-kr' decoder lacks the 8,822
 * extended UHC syllables (see tools/kit/text-decoding.ts), hence iconv-lite. When the capture was
 * cut, a character split at the cut is dropped (in either encoding) instead of condemning the
 * whole text or ending it in a replacement character.
 */
export function decodeRemoteOutput(bytes: Buffer, truncated: boolean): Pick<SshCapturedOutput, 'text' | 'encoding'> {
  const utf8 = tryUtf8(bytes) ?? (truncated ? tryUtf8(bytes.subarray(0, completeUtf8Length(bytes))) : null);
  if (utf8 !== null) return { text: utf8, encoding: 'utf-8' };
  const whole = truncated ? bytes.subarray(0, withoutSplitDoubleByte(bytes)) : bytes;
  return { text: iconv.decode(whole, 'cp949'), encoding: 'cp949' };
}

/**
 * Length of `bytes` without a trailing lone CP949 lead byte. Trail bytes (0x41–0xFE) overlap the
 * lead range, so only a walk from the start can tell where characters begin.
 */
function withoutSplitDoubleByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) i += bytes[i]! < 0x80 ? 1 : 2;
  return i > bytes.length ? bytes.length - 1 : bytes.length;
}

function tryUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8Strict.decode(bytes);
  } catch {
    return null;
  }
}

