import type { OutputEncoding } from '../../../common/process-capability';
import { completeLength, decodeAs, detectOutputEncoding, leadingBomLength, utf8OrCp949 } from './decode-output';

/**
 * Bounded output buffers (SPEC S-SHELL: capture bounded on success and failure paths). Bytes past
 * the limit are counted and dropped, never refused: the reader keeps draining, so a child printing
 * without end never blocks on a full pipe and dies only when its time is up.
 *
 * The buffer is reserved at the limit up front with allocUnsafe: the OS maps pages only when they
 * are written, so a 10 MiB reservation for `git status` costs a few KiB of memory, and nothing is
 * ever copied to grow it (a growing buffer briefly holds old and new copies: 1.5–2× the limit).
 */

export class BoundedCapture {
  private buffer: Buffer | null = null;
  private stored = 0;
  private total = 0;

  constructor(private readonly limit: number) {}

  /** Takes the first `length` bytes of `chunk`, which the caller may reuse afterwards (they are copied). */
  push(chunk: Uint8Array, length: number = chunk.length): void {
    this.total += length;
    const take = Math.min(this.limit - this.stored, length);
    if (take <= 0) return; // full: count only, allocate nothing
    this.buffer ??= Buffer.allocUnsafe(this.limit);
    this.buffer.set(take === chunk.length ? chunk : chunk.subarray(0, take), this.stored);
    this.stored += take;
  }

  get totalBytes(): number {
    return this.total;
  }

  get truncated(): boolean {
    return this.total > this.stored;
  }

  bytes(): Uint8Array {
    return this.buffer === null ? new Uint8Array(0) : this.buffer.subarray(0, this.stored);
  }
}

export interface UnreadText {
  readonly text: string;
  readonly droppedBytes: number;
  readonly encoding: OutputEncoding;
}

/**
 * Output of a background task between two reads. At most `limit` unread bytes are kept: the
 * OLDEST unread output, as a run keeps the beginning, so what the reader sees is continuous up to
 * a gap it is told about (droppedBytes). Each read returns whole characters and keeps a character
 * cut by the read for the next one; the encoding is decided once, on the first bytes that tell.
 */
export class UnreadOutput {
  private buffer: Buffer | null = null;
  private stored = 0;
  private dropped = 0;
  private total = 0;
  private encoding: OutputEncoding | null = null;
  private atStreamStart = true;

  constructor(private readonly limit: number) {}

  /** As BoundedCapture.push; what does not fit is counted as dropped. */
  push(chunk: Uint8Array, length: number = chunk.length): void {
    this.total += length;
    const take = Math.max(0, Math.min(this.limit - this.stored, length));
    this.dropped += length - take;
    if (take === 0) return;
    this.buffer ??= Buffer.allocUnsafe(this.limit);
    this.buffer.set(take === chunk.length ? chunk : chunk.subarray(0, take), this.stored);
    this.stored += take;
  }

  get totalBytes(): number {
    return this.total;
  }

  /** Everything unread, as text. `final`: the stream has ended, so nothing more will complete a character. */
  take(final: boolean): UnreadText {
    const bytes = this.buffer === null ? new Uint8Array(0) : this.buffer.subarray(0, this.stored);
    const encoding = this.decide(bytes, final);
    const droppedBytes = this.dropped;
    this.dropped = 0;
    // A BOM or the UTF-16 pattern shows only at the start: wait for a few bytes before consuming any.
    if (encoding === null) return { text: '', droppedBytes, encoding: 'utf-8' };
    const end = final ? bytes.length : completeLength(bytes, encoding);
    const start = this.atStreamStart ? Math.min(leadingBomLength(bytes, encoding), end) : 0;
    if (end > 0) this.atStreamStart = false;
    const text = decodeAs(bytes.subarray(start, end), encoding);
    // Keep the incomplete character (at most 3 bytes) at the front for the next read.
    if (this.buffer !== null) this.buffer.copyWithin(0, end, this.stored);
    this.stored -= end;
    return { text, droppedBytes, encoding };
  }

  /** Frees the buffer once everything was read from a finished task. */
  release(): void {
    this.buffer = null;
    this.stored = 0;
  }

  /** null: too few bytes at the start of the stream to tell yet. */
  private decide(bytes: Uint8Array, final: boolean): OutputEncoding | null {
    if (this.encoding !== null) return this.encoding;
    if (this.atStreamStart) {
      if (bytes.length < 4 && !final) return null;
      const seen = detectOutputEncoding(bytes, final);
      if (seen !== 'utf-8' || hasNonAscii(bytes)) this.encoding = seen;
      return seen;
    }
    // Until a non-ASCII byte appears, UTF-8 and CP949 read the same: decide on the first that does.
    if (!hasNonAscii(bytes)) return 'utf-8';
    this.encoding = utf8OrCp949(bytes, final);
    return this.encoding;
  }
}

function hasNonAscii(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b >= 0x80) return true;
  return false;
}
