import { failure, type Failure, type Plan, type PlanContext, type PlannedTarget, type PrecheckContext, type ReadOnlyFileAccess } from './define-tool';
import iconv from 'iconv-lite';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { FileAccessError, type FileInfo, type Fingerprint } from '../../electron/common/file-access';
import { decodeText, looksBinary, type TextEncodingName } from './text-decoding';
import { baseName, parentPath } from './paths';
import { attempt, displayOf, emptyPathText, notRegularFile, refusal, refuseWildcardName } from './targets';

/**
 * Text-file helpers for read, write and edit: encoding back to the file's own encoding, line
 * endings, and the compact diff shown in the approval dialog.
 */

const BOM_UTF8 = Uint8Array.of(0xef, 0xbb, 0xbf);
const BOM_UTF16LE = Uint8Array.of(0xff, 0xfe);
const BOM_UTF16BE = Uint8Array.of(0xfe, 0xff);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Encodes `content` in `encoding` (BOM included where the encoding has one). */
export function encodeAs(content: string, encoding: TextEncodingName): Uint8Array {
  switch (encoding) {
    case 'utf-8':
      return new TextEncoder().encode(content);
    case 'utf-8-bom':
      return concat(BOM_UTF8, new TextEncoder().encode(content));
    case 'utf-16le':
      return concat(BOM_UTF16LE, iconv.encode(content, 'utf16le'));
    case 'utf-16be':
      return concat(BOM_UTF16BE, iconv.encode(content, 'utf16be'));
    case 'cp949':
      return iconv.encode(content, 'cp949');
  }
}

/** Decodes bytes already known to be in `encoding` (no detection). */
export function decodeAs(bytes: Uint8Array, encoding: TextEncodingName): string {
  if (encoding === 'cp949') return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'cp949');
  return new TextDecoder(encoding === 'utf-8-bom' ? 'utf-8' : encoding).decode(bytes);
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Characters of `content` that `encoding` cannot store. CP949 has no emoji and only part of
 * Unicode; iconv-lite silently writes '?' for them, which would corrupt the file without a word.
 */
export function unencodable(content: string, encoding: TextEncodingName): string[] {
  if (encoding !== 'cp949') return [];
  if (iconv.decode(iconv.encode(content, 'cp949'), 'cp949') === content) return [];
  const bad = new Set<string>();
  for (const ch of content) {
    if (ch.charCodeAt(0) < 0x80) continue;
    if (iconv.decode(iconv.encode(ch, 'cp949'), 'cp949') !== ch) bad.add(ch);
    if (bad.size >= 5) break;
  }
  return [...bad];
}

export type LineEnding = 'lf' | 'crlf' | 'mixed' | 'none';

export function detectLineEnding(content: string): LineEnding {
  const crlf = content.split('\r\n').length - 1;
  const lf = content.split('\n').length - 1;
  if (lf === 0) return 'none';
  if (crlf === lf) return 'crlf';
  if (crlf === 0) return 'lf';
  return 'mixed';
}

export function toLf(content: string): string {
  return content.replace(/\r\n/g, '\n');
}

export function toCrlf(content: string): string {
  return content.replace(/\r?\n/g, '\r\n');
}

export function encodingLabel(encoding: TextEncodingName): string {
  switch (encoding) {
    case 'utf-8':
      return 'UTF-8';
    case 'utf-8-bom':
      return 'UTF-8 (BOM)';
    case 'utf-16le':
      return 'UTF-16 LE';
    case 'utf-16be':
      return 'UTF-16 BE';
    case 'cp949':
      return 'CP949';
  }
}

/** Splits text into lines; a final line ending does not start another (empty) line. */
export function splitLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * What to do with a binary file of this kind (SPEC G-SIGNPOST: say what to do instead). Only
 * registered tools are named (tests/unit/tool-names-in-messages.test.ts).
 */
export function binaryFileText(displayPath: string, size: number): Text {
  const ext = /\.([a-z0-9]+)$/i.exec(baseName(displayPath))?.[1]?.toLowerCase() ?? '';
  const lead = (ko: string, en: string): Text =>
    text(`'${displayPath}'은(는) 텍스트가 아닌 파일(${size} B)이라 내용을 글자로 보여 줄 수 없습니다. ${ko}`, `'${displayPath}' is not a text file (${size} B), so its content cannot be shown as text. ${en}`);
  if (['xlsx', 'xlsm', 'xltx', 'xltm'].includes(ext)) return lead('엑셀 파일은 excel.read로 읽으세요 (시트 목록은 excel.sheets).', 'Read Excel files with excel.read (excel.sheets lists the sheets).');
  if (['xls', 'xlsb'].includes(ext)) {
    return lead(
      '옛 엑셀 형식(.xls, .xlsb)은 읽을 수 없습니다. 사용자에게 .xlsx로 저장해 달라고 한 뒤 excel.read로 읽으세요.',
      'The older Excel formats (.xls, .xlsb) cannot be read. Ask the user to save it as .xlsx, then read that with excel.read.',
    );
  }
  if (ext === 'pdf') return lead('PDF는 document.pdf.read로 읽으세요.', 'Read PDF files with document.pdf.read.');
  if (['docx', 'docm'].includes(ext)) return lead('Word 문서는 document.word.read로 읽으세요.', 'Read Word documents with document.word.read.');
  if (['hwp', 'hwpx'].includes(ext)) return lead('한글 문서는 document.hwp.read로 읽으세요.', 'Read HWP documents with document.hwp.read.');
  if (ext === 'doc') {
    return lead(
      '예전 Word 형식(.doc)은 읽을 수 없습니다. 사용자에게 .docx로 저장해 달라고 한 뒤 document.word.read로 읽으세요.',
      'The old Word format (.doc) cannot be read. Ask the user to save it as .docx, then read that with document.word.read.',
    );
  }
  if (['zip'].includes(ext)) {
    return lead(
      '압축을 푸는 도구는 아직 없습니다. 사용자에게 압축을 풀어 달라고 한 뒤 filesystem.list로 내용을 보세요.',
      'No tool extracts zip files yet. Ask the user to extract it, then look at the contents with filesystem.list.',
    );
  }
  return lead('크기와 종류는 filesystem.info로 확인하세요.', 'Use filesystem.info to see its size and type.');
}

// ---------------------------------------------------------------------------------------------
// Compact unified-style diff for the approval dialog.

/** A changed region: old lines [oldStart, oldEnd) (0-based) are replaced by `added`, which starts at new line `newStart`. */
export interface ChangedRange {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly newStart: number;
  readonly added: readonly string[];
}

const CONTEXT_LINES = 2;
/**
 * The dialog shows at most this many diff lines. A person reads a few screens at most; beyond that
 * the count of changed places (in the summary) says more than more lines would.
 */
const MAX_PREVIEW_LINES = 200;
const MAX_PREVIEW_LINE_CHARS = 300;

function clip(line: string): string {
  return line.length > MAX_PREVIEW_LINE_CHARS ? `${line.slice(0, MAX_PREVIEW_LINE_CHARS)}…` : line;
}

/** One changed range covering everything between the common first and last lines. */
export function wholeChange(oldLines: readonly string[], newLines: readonly string[]): ChangedRange[] {
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  ) {
    tail++;
  }
  if (head === oldLines.length && head === newLines.length) return [];
  return [{ oldStart: head, oldEnd: oldLines.length - tail, newStart: head, added: newLines.slice(head, newLines.length - tail) }];
}

/** Renders ranges as `@@ -a,b +c,d @@` hunks with two lines of context, capped for the dialog. */
export function renderDiff(oldLines: readonly string[], ranges: readonly ChangedRange[], lang: Lang): string {
  const out: string[] = [];
  for (const r of ranges) {
    const before = Math.max(0, r.oldStart - CONTEXT_LINES);
    const after = Math.min(oldLines.length, r.oldEnd + CONTEXT_LINES);
    const lead = r.oldStart - before;
    const trail = after - r.oldEnd;
    out.push(`@@ -${before + 1},${after - before} +${r.newStart - lead + 1},${r.added.length + lead + trail} @@`);
    for (let i = before; i < r.oldStart; i++) out.push(` ${clip(oldLines[i] ?? '')}`);
    for (let i = r.oldStart; i < r.oldEnd; i++) out.push(`-${clip(oldLines[i] ?? '')}`);
    for (const line of r.added) out.push(`+${clip(line)}`);
    for (let i = r.oldEnd; i < after; i++) out.push(` ${clip(oldLines[i] ?? '')}`);
  }
  if (out.length <= MAX_PREVIEW_LINES) return out.join('\n');
  const rest = out.length - MAX_PREVIEW_LINES;
  return [...out.slice(0, MAX_PREVIEW_LINES), pick(text(`… (미리보기 ${rest}줄 더)`, `… (${rest} more preview lines)`), lang)].join('\n');
}

/** First lines of new content, for a file that does not exist yet. */
export function renderHead(content: string, lang: Lang, maxLines = 40): string {
  const lines = splitLines(toLf(content));
  const shown = lines.slice(0, maxLines).map((l) => `+${clip(l)}`);
  if (lines.length > maxLines) {
    shown.push(pick(text(`… (${lines.length - maxLines}줄 더, 모두 ${lines.length}줄)`, `… (${lines.length - maxLines} more lines, ${lines.length} in all)`), lang));
  }
  return shown.join('\n');
}

// ---------------------------------------------------------------------------------------------

export interface LoadedText {
  readonly bytes: Uint8Array;
  readonly binary: boolean;
  readonly text: string;
  readonly encoding: TextEncodingName;
  /** Encoding the decoded text again gives the same bytes, so an edit can leave everything else untouched. */
  readonly roundTrips: boolean;
}

/**
 * Reads a whole file of the size just seen by stat (the caller has checked it is not too large) and
 * decodes it. A different length means the file changed in between: CHANGED, never a silently
 * shorter text that an edit would then write back.
 */
export async function loadText(files: ReadOnlyFileAccess, path: string, size: number): Promise<LoadedText> {
  const bytes = await files.readBytes(path, { maxBytes: size + 1 });
  if (bytes.length !== size) throw new FileAccessError('CHANGED', path);
  if (looksBinary(bytes)) return { bytes, binary: true, text: '', encoding: 'utf-8', roundTrips: false };
  const decoded = decodeText(bytes);
  return { bytes, binary: false, text: decoded.text, encoding: decoded.encoding, roundTrips: sameBytes(encodeAs(decoded.text, decoded.encoding), bytes) };
}

/**
 * Writing one whole file (filesystem.write, document.word.write, …): the checks and the plan those
 * tools share, so a rule about where a new file may go is written once.
 */
export interface WholeWriteArgs {
  readonly path: string;
  readonly overwrite?: boolean | undefined;
}

/**
 * The precheck: a path, and an existing file only with overwrite (never a folder). `kind` refuses
 * a name the tool does not write (document.word.write: not .docx), after the empty-path check.
 */
export async function precheckWholeWrite(args: WholeWriteArgs, ctx: PrecheckContext, kind?: (path: string) => Failure | null): Promise<Failure | null> {
  if (args.path.trim() === '') return failure(emptyPathText('path'));
  const wrong = kind?.(args.path);
  if (wrong) return wrong;
  const existing = await attempt(ctx.files, () => ctx.files.stat(args.path));
  if (existing !== null && 'failure' in existing) return existing;
  if (existing?.type === 'directory') return refusal('IS_DIRECTORY', args.path);
  if (existing && !args.overwrite) return refusal('EXISTS', args.path);
  return null;
}

/** Where a whole-file write goes, as it is now. */
export interface WriteDestination {
  /** Absolute path of the file. */
  readonly path: string;
  /** The file there now (a regular file, only with overwrite), or null. */
  readonly existing: FileInfo | null;
  /** With the content hash: the gate re-hashes before writing, so a same-size edit nobody saw is caught. */
  readonly fingerprint: Fingerprint | null;
  /** Missing parent folder to create first (absolute), if any. */
  readonly createFolder: string | undefined;
}

/**
 * The destination of a whole-file write, checked (the plan and the execution both call it; the
 * execution writes only if the file still has the approved fingerprint). `before` runs the tool's
 * own checks of the arguments after the path's (its kind, an empty content).
 */
export async function writeDestination(args: WholeWriteArgs, ctx: PlanContext, before?: () => Failure | null): Promise<WriteDestination | Failure> {
  const { files } = ctx;
  if (args.path.trim() === '') return failure(emptyPathText('path'));
  const wildcard = refuseWildcardName(args.path, 'path');
  if (wildcard) return wildcard;
  const refused = before?.();
  if (refused) return refused;
  const checked = await attempt(files, () => files.check(args.path));
  if (typeof checked !== 'string') return checked;
  const existing = await attempt(files, () => files.stat(args.path));
  if (existing !== null && 'failure' in existing) return existing;
  if (existing?.type === 'directory') return refusal('IS_DIRECTORY', args.path);
  if (existing && !args.overwrite) return refusal('EXISTS', args.path);
  if (existing && existing.type !== 'file') return notRegularFile(args.path);

  const path = files.resolve(args.path);
  const parent = parentPath(path);
  const parentInfo = await attempt(files, () => files.stat(parent));
  if (parentInfo !== null && 'failure' in parentInfo) return parentInfo;
  if (parentInfo && parentInfo.type !== 'directory') return refusal('NOT_DIRECTORY', displayOf(files, parent));
  const fingerprint = existing ? await attempt(files, () => files.fingerprint(args.path, { content: true })) : null;
  if (fingerprint !== null && 'failure' in fingerprint) return fingerprint;
  return { path, existing, fingerprint, createFolder: parentInfo === null ? parent : undefined };
}

/** The approval's preview, with the folder that is created first named above it. */
export function withFolderNote(preview: string, destination: WriteDestination, ctx: PlanContext): string {
  const folder = destination.createFolder;
  if (!folder) return preview;
  const shown = displayOf(ctx.files, folder);
  return `${pick(text(`새 폴더 '${shown}'도 만듭니다.`, `Also creates the folder '${shown}'.`), ctx.lang)}\n${preview}`;
}

/** The plan of a whole-file write: the missing folder (if any) first, then the file. */
export function wholeWritePlan(destination: WriteDestination, preview: string): Plan {
  const targets: PlannedTarget[] = [];
  if (destination.createFolder) targets.push({ path: destination.createFolder, fingerprint: null });
  targets.push({ path: destination.path, fingerprint: destination.fingerprint });
  return { targets, preview };
}
