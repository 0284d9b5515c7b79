import type { ReadOnlyFileAccess } from '../kit/define-tool';
import { Type } from '@sinclair/typebox';
import { pick, text, type Lang } from '../../electron/common/i18n';
import { defineTool } from '../kit/define-tool';
import { fail, fromHostError, ok } from '../kit/results';
import { decodeText, looksBinary, type TextEncodingName } from '../kit/text-decoding';
import { humanSize } from '../kit/format';
import { checkExisting, displayOf, refusal } from '../kit/targets';
import { binaryFileText, decodeAs, splitLines } from '../kit/text-file';

/** Lines returned when the model gives no limit; the output budget usually cuts earlier. */
const DEFAULT_LIMIT = 2000;
/** limit is clamped to [1, MAX_LIMIT] (SPEC G-SCHEMA: ranges are the tool's business). */
const MAX_LIMIT = 5000;
/** Bytes sniffed for binary content and encoding (git and grep look at the first 8 KiB; more helps CP949). */
const HEAD_BYTES = 64 * 1024;
/** Read granularity for ASCII-compatible files (UTF-8, CP949), so a 2 GB log never sits in memory. */
const CHUNK_BYTES = 1024 * 1024;
/** UTF-16 files are decoded whole; beyond this they are refused with a signpost. */
const MAX_UTF16_BYTES = 16 * 1024 * 1024;
/** Below this size the whole file is scanned so the model learns the total line count. */
const COUNT_TOTAL_MAX_BYTES = 64 * 1024 * 1024;
/** Characters kept free of content for the notes that tell the model how to go on. */
const NOTE_RESERVE = 400;

const input = Type.Object(
  {
    path: Type.String({ description: 'File to read, relative to the workspace (e.g. "reports/memo.txt").' }),
    offset: Type.Optional(Type.Integer({ description: 'First line to return, 1-based (default 1).' })),
    limit: Type.Optional(Type.Integer({ description: `Number of lines to return (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).` })),
  },
  { additionalProperties: false },
);


interface Window {
  /** Decoded lines starting at `offset`. */
  readonly lines: string[];
  /** Total lines of the file, when known. */
  readonly total: number | undefined;
  /** The last line in `lines` is only the beginning of a longer line. */
  readonly lastLineCut: boolean;
}

/**
 * Lines [offset, offset+limit) of a UTF-8 / CP949 file, streamed in chunks by byte value 0x0A.
 * Reads until a short chunk instead of trusting a size from stat: a symbolic link's stat is the
 * link's own, and a log may grow while it is read.
 */
async function streamWindow(files: ReadOnlyFileAccess, path: string, offset: number, limit: number, maxBytes: number, headEncoding: TextEncodingName): Promise<Window> {
  // In UTF-8 and CP949 the byte 0x0A is always a line feed (CP949 trail bytes are ≥ 0x41), so lines
  // can be found without decoding.
  const collected: Uint8Array[] = [];
  let collectedBytes = 0;
  let line = 1;
  let collecting = offset === 1;
  let full = false;
  let cutMidLine = false;
  let newlines = 0;
  let pos = 0;
  let lastByte = -1;
  let reachedEnd = false;
  while (!reachedEnd) {
    const chunk = await files.readBytes(path, { offset: pos, maxBytes: CHUNK_BYTES });
    reachedEnd = chunk.length < CHUNK_BYTES;
    if (chunk.length === 0) break;
    pos += chunk.length;
    lastByte = chunk[chunk.length - 1] ?? -1;
    let segmentStart = 0;
    // indexOf runs natively: a 64 MiB file is counted in a fraction of a second.
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) {
      newlines++;
      if (collecting && !full) {
        collected.push(chunk.subarray(segmentStart, i + 1));
        collectedBytes += i + 1 - segmentStart;
      }
      line++;
      segmentStart = i + 1;
      if (line === offset) collecting = true;
      if (collecting && !full && (line >= offset + limit || collectedBytes >= maxBytes)) full = true;
    }
    if (collecting && !full && segmentStart < chunk.length) {
      collected.push(chunk.subarray(segmentStart));
      collectedBytes += chunk.length - segmentStart;
      if (collectedBytes >= maxBytes) {
        full = true;
        cutMidLine = true;
      }
    }
    if (full && pos > COUNT_TOTAL_MAX_BYTES) break;
  }
  const total = reachedEnd ? newlines + (pos > 0 && lastByte !== 0x0a ? 1 : 0) : undefined;
  const bytes = new Uint8Array(collectedBytes);
  let at = 0;
  for (const part of collected) {
    bytes.set(part, at);
    at += part.length;
  }
  // A file that starts in CP949 stays CP949 even if this window happens to be plain ASCII.
  const decoded = headEncoding === 'cp949' ? decodeAs(bytes, 'cp949') : decodeText(bytes).text;
  const lines = splitLines(decoded).slice(0, limit);
  return { lines, total, lastLineCut: cutMidLine };
}

function readNotes(lang: Lang) {
  return {
    empty: (p: string) => pick(text(`'${p}'은(는) 빈 파일입니다.`, `'${p}' is empty.`), lang),
    pastEnd: (p: string, total: number) =>
      text(
        `'${p}'은(는) ${total}줄뿐입니다. offset을 1부터 ${total} 사이로 주세요.`,
        `'${p}' has only ${total} lines. Give an offset between 1 and ${total}.`,
      ),
    longLine: (n: number, chars: number) =>
      pick(
        text(
          `[${n}번째 줄이 너무 길어 앞 ${chars}자만 보여 줍니다. 그 줄의 다른 부분은 search.text로 찾으세요.]`,
          `[line ${n} is too long; only its first ${chars} characters are shown. Find other parts of it with search.text.]`,
        ),
        lang,
      ),
    range: (from: number, to: number, total: number | undefined, more: boolean) => {
      const of = total === undefined ? text('', '') : text(` / 전체 ${total}줄`, ` of ${total}`);
      const next = more
        ? text(` 다음 부분: offset=${to + 1}`, ` Read the next part with offset=${to + 1}.`)
        : text(' (파일 끝)', ' (end of file)');
      const unknownTotal = more && total === undefined ? text(' 파일이 더 깁니다.', ' The file goes on.') : text('', '');
      return pick(text(`[줄 ${from}–${to}${of.ko}.${unknownTotal.ko}${next.ko}]`, `[lines ${from}–${to}${of.en}.${unknownTotal.en}${next.en}]`), lang);
    },
  };
}

export const filesystemRead = defineTool({
  name: 'filesystem.read',
  description: {
    ko: '텍스트 파일 내용을 읽습니다(UTF-8, CP949, UTF-16). 긴 파일은 offset(시작 줄, 1부터)과 limit(줄 수)으로 나눠 읽습니다.',
    en: 'Read a text file (UTF-8, CP949, UTF-16). For long files use offset (first line, 1-based) and limit (number of lines).',
  },
  keywords: ['읽기', '열기', '내용', '파일 보기', 'read', 'open', 'cat', 'view file'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files'],

  precheck: (args, ctx) => checkExisting(args.path, 'path', ctx, 'file'),

  summarize: (args) => text(`'${args.path}' 파일을 읽습니다`, `Reads '${args.path}'`),

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const refused = await checkExisting(args.path, 'path', ctx, 'file');
    if (refused) return fail(lang, refused.failure);
    const offset = Math.max(1, Math.trunc(args.offset ?? 1));
    const limit = Math.min(MAX_LIMIT, Math.max(1, Math.trunc(args.limit ?? DEFAULT_LIMIT)));
    const notes = readNotes(lang);
    try {
      const info = await files.stat(args.path);
      if (!info) return fail(lang, refusal('NOT_FOUND', args.path, files).failure); // removed since the check above
      const shown = displayOf(files, info.path);
      const head = await files.readBytes(info.path, { maxBytes: HEAD_BYTES });
      if (head.length === 0) return ok(notes.empty(shown), { encoding: 'utf-8', lines: 0 });
      if (looksBinary(head)) return fail(lang, binaryFileText(shown, info.size), { binary: true, size: info.size });
      const headEncoding = decodeText(head).encoding;
      const budget = Math.max(100, ctx.policy.maxOutputChars - NOTE_RESERVE);

      let window: Window;
      if (headEncoding === 'utf-16le' || headEncoding === 'utf-16be') {
        const whole = await files.readBytes(info.path, { maxBytes: MAX_UTF16_BYTES + 1 });
        if (whole.length > MAX_UTF16_BYTES) {
          return fail(
            lang,
            text(
              `'${shown}'은(는) ${humanSize(MAX_UTF16_BYTES)}가 넘는 UTF-16 파일이라 읽을 수 없습니다. search.text로 필요한 부분을 찾으세요.`,
              `'${shown}' is a UTF-16 file larger than ${humanSize(MAX_UTF16_BYTES)}, too large to read here. Find the part you need with search.text.`,
            ),
          );
        }
        const all = splitLines(decodeText(whole).text);
        window = { lines: all.slice(offset - 1, offset - 1 + limit), total: all.length, lastLineCut: false };
      } else {
        // Every character takes at most 4 bytes, so 4 × budget bytes always hold a full budget of text.
        window = await streamWindow(files, info.path, offset, limit, budget * 4, headEncoding);
      }

      if (window.lines.length === 0) {
        const total = window.total ?? offset - 1;
        return fail(lang, notes.pastEnd(shown, total), { lines: total });
      }

      // Fit whole lines into the output budget; a single over-long first line is cut instead.
      const out: string[] = [];
      let used = 0;
      let cutNote: string | undefined;
      for (const [i, line] of window.lines.entries()) {
        const isPartial = window.lastLineCut && i === window.lines.length - 1;
        if (used + line.length + 1 > budget || (isPartial && out.length > 0)) {
          if (out.length === 0) {
            out.push(line.slice(0, budget));
            cutNote = notes.longLine(offset, budget);
          }
          break;
        }
        out.push(line);
        used += line.length + 1;
        if (isPartial) cutNote = notes.longLine(offset + i, line.length);
      }
      const last = offset + out.length - 1;
      const more = window.total === undefined || last < window.total;
      const wholeFile = offset === 1 && !more && !cutNote;
      const body = out.join('\n');
      const tail = [cutNote, wholeFile ? undefined : notes.range(offset, last, window.total, more)].filter((n): n is string => n !== undefined);
      return ok(tail.length ? `${body}\n${tail.join('\n')}` : body, {
        encoding: headEncoding,
        firstLine: offset,
        lastLine: last,
        ...(window.total !== undefined ? { totalLines: window.total } : {}),
      });
    } catch (e) {
      return fromHostError(lang, e);
    }
  },
});
