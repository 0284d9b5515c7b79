import { closeSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Confiner } from './confine';
import { fileError, fromOsError } from './errors';
import { openVerifiedForReadNow } from './open-verified';

const readAsync = promisify(read);

/**
 * Up to this many bytes are read in one synchronous call (a few microseconds from the page cache);
 * a larger window is read asynchronously so a big document cannot hold up the main process.
 */
const READ_NOW_MAX = 256 * 1024;

export interface ReadWindow {
  readonly maxBytes?: number;
  readonly offset?: number;
}

function assertCount(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
    throw new RangeError(`readBytes: ${name} must be a non-negative integer, got ${String(value)}`);
  }
}

/**
 * Reads a confined file. Without an explicit window smaller than `cap`, a file whose remaining
 * bytes exceed the cap is refused (TOO_LARGE) rather than silently cut: a tool that needs part of
 * a big file must ask for that part.
 */
export async function readConfined(confiner: Confiner, given: string, window: ReadWindow, cap: number): Promise<Uint8Array> {
  assertCount('maxBytes', window.maxBytes);
  assertCount('offset', window.offset);
  const target = await confiner.target(given);
  return readChecked(target.path, confiner, given, window, cap);
}

/**
 * The open-and-read half, given a path that was already checked. Exported so the security tests
 * can swap a symlink in between the check and this open (the TOCTOU window).
 */
export async function readChecked(
  realPath: string,
  confiner: Confiner,
  given: string,
  window: ReadWindow,
  cap: number,
): Promise<Uint8Array> {
  return (await readCheckedSized(realPath, confiner, given, window, cap)).bytes;
}

/** readChecked that also tells the file's size when opened (readTree's `complete`). */
export async function readCheckedSized(
  realPath: string,
  confiner: Confiner,
  given: string,
  window: ReadWindow,
  cap: number,
): Promise<{ readonly bytes: Uint8Array; readonly size: number }> {
  const { fd, stat } = openVerifiedForReadNow(realPath, confiner, given);
  try {
    const offset = window.offset ?? 0;
    const remaining = Math.max(0, stat.size - offset);
    const explicitWindow = window.maxBytes !== undefined && window.maxBytes <= cap;
    if (!explicitWindow && remaining > cap) throw fileError('TOO_LARGE', given, `${stat.size} bytes`);
    const wanted = Math.min(remaining, window.maxBytes ?? remaining);
    // Buffer.alloc, not allocUnsafe: small unsafe buffers share a pool whose other contents would
    // be reachable through .buffer of what we return.
    const buffer = Buffer.alloc(wanted);
    let filled = 0;
    while (filled < wanted) {
      const bytesRead = wanted <= READ_NOW_MAX
        ? readSync(fd, buffer, filled, wanted - filled, offset + filled)
        : (await readAsync(fd, buffer, filled, wanted - filled, offset + filled)).bytesRead;
      if (bytesRead === 0) break; // the file shrank since fstat
      filled += bytesRead;
    }
    return { bytes: filled === wanted ? buffer : buffer.subarray(0, filled), size: stat.size };
  } catch (e) {
    throw fromOsError(e, given);
  } finally {
    closeSync(fd);
  }
}
