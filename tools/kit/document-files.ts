import type { ReadOnlyFileAccess } from './define-tool';
import { failure, type Failure, type PrecheckContext } from './define-tool';
import { text, type Lang, type Text } from '../../electron/common/i18n';
import type { ToolResult } from '../../electron/common/tool-result';
import { fail } from './results';
import { humanSize } from './sizes';
import { baseName } from './paths';
import { attempt, checkExisting, displayOf, refusal } from './targets';
import { readZipIndex, type ZipIndex } from './zip-index';

/**
 * What every document tool does before a format library sees a byte (issue 18 item 7): the file
 * kind is checked by name and by its first bytes, its size is capped from stat BEFORE it is read,
 * a zip container's declared sizes are capped before anything is decompressed, and the parse runs
 * under a time limit. The libraries get bytes in memory only (never a path: kordoc, for one, would
 * drive Hancom Office through PowerShell for a path it cannot parse), so they reach no file, no
 * process and no network.
 */

/**
 * Seconds a parse may take. A 300-page report parses in a few seconds; a minute means a file made
 * to stall the parser, and the person waits for nothing.
 */
export const DOCUMENT_TIME_LIMIT_MS = 60_000;

/** A loaded document: its bytes and how the model knows it. */
export interface LoadedDocument {
  readonly bytes: Uint8Array;
  /** Workspace-relative name for messages. */
  readonly shown: string;
  readonly size: number;
}

export function extensionOf(path: string): string {
  return /\.([a-z0-9]+)$/i.exec(baseName(path))?.[1]?.toLowerCase() ?? '';
}

/**
 * Precheck of a document reader: the file exists, is a file, has one of `extensions`, and is not
 * larger than `maxBytes`. `wrongKind` is the signpost for another extension.
 */
export async function checkDocument(
  path: string,
  ctx: PrecheckContext,
  extensions: readonly string[],
  maxBytes: number,
  wrongKind: (shown: string, ext: string) => Text,
): Promise<Failure | null> {
  const refused = await checkExisting(path, 'path', ctx, 'file');
  if (refused) return refused;
  const ext = extensionOf(path);
  if (!extensions.includes(ext)) return failure(wrongKind(path, ext));
  const info = await attempt(ctx.files, () => ctx.files.stat(path));
  if (info === null) return refusal('NOT_FOUND', path, ctx.files);
  if ('failure' in info) return info;
  if (info.size > maxBytes) return failure(tooLargeText(displayOf(ctx.files, info.path), info.size, maxBytes));
  return null;
}

/** Reads the whole document after checkDocument's checks (repeated here: precheck is a courtesy). */
export async function loadDocument(
  path: string,
  ctx: PrecheckContext,
  extensions: readonly string[],
  maxBytes: number,
  wrongKind: (shown: string, ext: string) => Text,
): Promise<LoadedDocument | Failure> {
  const refused = await checkDocument(path, ctx, extensions, maxBytes, wrongKind);
  if (refused) return refused;
  const files = ctx.files;
  const info = await attempt(files, () => files.stat(path));
  if (info === null) return refusal('NOT_FOUND', path, files);
  if ('failure' in info) return info;
  const shown = displayOf(files, info.path);
  const bytes = await attempt(files, () => files.readBytes(info.path, { maxBytes: maxBytes + 1 }));
  if ('failure' in bytes) return bytes;
  // The file grew past the cap since stat: refuse rather than parse a cut-off document.
  if (bytes.length > maxBytes) return failure(tooLargeText(shown, bytes.length, maxBytes));
  if (bytes.length === 0) return failure(damagedText(shown));
  return { bytes, shown, size: bytes.length };
}

/**
 * Zip containers (docx, hwpx): the central directory's declared sizes, before any inflating. A
 * 10 KB file that claims 5 GB of XML is a zip bomb, not a report.
 */
export async function checkZipContainer(files: ReadOnlyFileAccess, path: string, size: number, shown: string, maxUnpackedBytes: number): Promise<Failure | { readonly index: Extract<ZipIndex, { ok: true }> } | { readonly ole: true }> {
  const index = await attempt(files, () => readZipIndex(files, path, size));
  if ('failure' in index) return index;
  if (!index.ok) {
    if (index.reason === 'ole') return { ole: true };
    return failure(damagedText(shown));
  }
  const unpacked = index.entries.reduce((sum, e) => sum + e.size, 0);
  if (unpacked > maxUnpackedBytes) {
    return failure(
      text(
        `'${shown}'은(는) 압축을 풀면 ${humanSize(unpacked)}나 되어(한도 ${humanSize(maxUnpackedBytes)}) 열지 않았습니다. 정상 문서가 아닐 수 있습니다. 사용자에게 파일을 확인해 달라고 하세요.`,
        `'${shown}' would unpack to ${humanSize(unpacked)} (limit ${humanSize(maxUnpackedBytes)}), so it was not opened; it may not be a genuine document. Ask the user to check the file.`,
      ),
    );
  }
  if (index.entries.some((e) => (e.flags & 1) === 1)) return failure(encryptedText(shown));
  return { index };
}

export type Timed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: 'timeout' | 'cancelled' };

/**
 * Runs a parse under the time limit and the user's Stop. The parse gets a signal that is aborted at
 * either: the format libraries run in the host's parse thread (ctx.documents), which ends that
 * thread on the abort, so nothing keeps parsing after the call returned
 * (docs/2026-12-03-document-parse-worker.md). Work on this thread watches it between pages or parts.
 */
export async function withTimeLimit<T>(work: (signal: AbortSignal) => Promise<T>, limitMs: number, outer: AbortSignal): Promise<Timed<T>> {
  if (outer.aborted) return { ok: false, reason: 'cancelled' };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<Timed<T>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort('timeout');
      resolve({ ok: false, reason: 'timeout' });
    }, limitMs);
    onAbort = () => {
      controller.abort('cancelled');
      resolve({ ok: false, reason: 'cancelled' });
    };
    outer.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const done = work(controller.signal).then((value): Timed<T> => ({ ok: true, value }));
    // A rejection after the limit has nobody waiting for it; it must not become an unhandled one.
    done.catch(() => undefined);
    return await Promise.race([done, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) outer.removeEventListener('abort', onAbort);
  }
}

export function tooLargeText(shown: string, size: number, maxBytes: number): Text {
  return text(
    `'${shown}'은(는) ${humanSize(size)}라 이 도구의 한도(${humanSize(maxBytes)})를 넘어 열지 않았습니다. 사용자에게 필요한 부분만 따로 저장해 달라고 하세요.`,
    `'${shown}' is ${humanSize(size)}, over this tool's limit of ${humanSize(maxBytes)}, so it was not opened. Ask the user to save the part that is needed as a separate file.`,
  );
}

export function damagedText(shown: string): Text {
  return text(
    `'${shown}'은(는) 손상되었거나 끝이 잘린 파일이라 읽을 수 없습니다. 사용자에게 원본 프로그램에서 열리는지 확인하고 다시 저장해 달라고 하세요.`,
    `'${shown}' is damaged or cut off and cannot be read. Ask the user to check that it opens in its own program and to save it again.`,
  );
}

export function encryptedText(shown: string): Text {
  return text(
    `'${shown}'은(는) 암호로 보호된 문서라 읽을 수 없습니다. 사용자에게 암호를 해제한 사본을 저장해 달라고 하세요 (암호는 도구에 넘기지 않습니다).`,
    `'${shown}' is password-protected and cannot be read. Ask the user to save a copy without the password (passwords are never passed to tools).`,
  );
}

export function timedOutText(shown: string, limitMs: number): Text {
  return text(
    `'${shown}'을(를) ${Math.round(limitMs / 1000)}초 안에 읽지 못해 멈췄습니다. 범위를 좁혀(pages 등) 다시 요청하거나 사용자에게 파일을 나눠 달라고 하세요.`,
    `Reading '${shown}' did not finish within ${Math.round(limitMs / 1000)} seconds and was stopped. Ask again for a smaller part (e.g. pages), or ask the user to split the file.`,
  );
}

/** The parse thread reached its memory limit and was ended (Baram itself goes on). */
export function outOfMemoryText(shown: string, limitMb: number): Text {
  return text(
    `'${shown}'은(는) 읽는 데 메모리가 너무 많이 들어(한도 ${limitMb} MB) 읽기를 멈췄습니다. 정상 문서가 아닐 수 있습니다. 사용자에게 파일을 확인하거나 나눠 저장해 달라고 하세요.`,
    `Reading '${shown}' needed more memory than allowed (${limitMb} MB) and was stopped; it may not be a genuine document. Ask the user to check the file or to save it in smaller parts.`,
  );
}

export const cancelledText: Text = text('사용자가 중지했습니다.', 'Stopped by the user.');

/** A parse that did not finish, as the model sees it. */
export function notFinished(reason: 'timeout' | 'cancelled', shown: string, lang: Lang, limitMs = DOCUMENT_TIME_LIMIT_MS): ToolResult {
  return reason === 'timeout' ? fail(lang, timedOutText(shown, limitMs), { timeoutMs: limitMs }, 'timeout') : fail(lang, cancelledText, {}, 'cancelled');
}
