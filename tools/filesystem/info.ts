import { Type } from '@sinclair/typebox';
import type { FileInfo } from '../../electron/common/file-access';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, type ToolContext } from '../kit/define-tool';
import { fail, fromHostError, ok } from '../kit/results';
import { decodeText, looksBinary } from '../kit/text-decoding';
import { humanSize, localTime } from '../kit/format';
import { checkExisting, displayOf, refusal } from '../kit/targets';
import { encodingLabel, splitLines } from '../kit/text-file';

/** Bytes sniffed to tell text from binary and to name the encoding. */
const SNIFF_BYTES = 64 * 1024;
/** Lines are counted only for text files up to this size: it needs the whole file in memory. */
const COUNT_LINES_MAX_BYTES = 4 * 1024 * 1024;
/** Entries counted in a folder; beyond it the count says "more than". */
const COUNT_ENTRIES_MAX = 10_000;

const input = Type.Object(
  {
    path: Type.String({ description: 'File or folder, relative to the workspace.' }),
  },
  { additionalProperties: false },
);


function typeText(info: FileInfo): Text {
  switch (info.type) {
    case 'file':
      return text('파일', 'file');
    case 'directory':
      return text('폴더', 'folder');
    case 'symlink':
      return text('심볼릭 링크(바로 가기)', 'symbolic link');
    case 'other':
      return text('기타(장치·파이프 등)', 'other (device, pipe, …)');
  }
}

async function folderLine(info: FileInfo, ctx: ToolContext, lang: Lang): Promise<string> {
  const entries = await ctx.files.list(info.path, { maxEntries: COUNT_ENTRIES_MAX });
  const dirs = entries.filter((e) => e.type === 'directory').length;
  const more = entries.length >= COUNT_ENTRIES_MAX ? '+' : '';
  return pick(
    text(`내용: 파일 ${entries.length - dirs}${more}개, 폴더 ${dirs}개`, `Contains: ${entries.length - dirs}${more} files, ${dirs} folders`),
    lang,
  );
}

async function contentLines(info: FileInfo, ctx: ToolContext, lang: Lang): Promise<string[]> {
  if (info.size === 0) return [pick(text('내용: 빈 파일', 'Content: empty'), lang)];
  const head = await ctx.files.readBytes(info.path, { maxBytes: SNIFF_BYTES });
  if (looksBinary(head)) return [pick(text('내용: 텍스트가 아님(바이너리)', 'Content: not text (binary)'), lang)];
  const lines = [pick(text(`내용: 텍스트, 인코딩 ${encodingLabel(decodeText(head).encoding)}`, `Content: text, encoding ${encodingLabel(decodeText(head).encoding)}`), lang)];
  if (info.size <= COUNT_LINES_MAX_BYTES) {
    const all = info.size <= SNIFF_BYTES ? head : await ctx.files.readBytes(info.path, { maxBytes: info.size });
    const count = splitLines(decodeText(all).text).length;
    lines.push(pick(text(`줄 수: ${count}`, `Lines: ${count}`), lang));
  }
  return lines;
}

export const filesystemInfo = defineTool({
  name: 'filesystem.info',
  description: {
    ko: '파일이나 폴더의 정보(종류, 크기, 수정 시각, 텍스트 인코딩, 줄 수)를 봅니다.',
    en: 'Show details of a file or folder: type, size, modified time, text encoding, line count.',
  },
  keywords: ['정보', '크기', '수정 시각', '속성', 'info', 'stat', 'size', 'details', 'properties'],
  input,
  risk: 'read',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files'],

  precheck: (args, ctx) => checkExisting(args.path, 'path', ctx, 'any'),

  summarize: (args) => text(`'${args.path}'의 정보를 봅니다`, `Shows details of '${args.path}'`),

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const refused = await checkExisting(args.path, 'path', ctx, 'any');
    if (refused) return fail(lang, refused.failure);
    try {
      const info = await files.stat(args.path);
      if (!info) return fail(lang, refusal('NOT_FOUND', args.path, files).failure);
      const lines = [
        pick(text(`경로: ${displayOf(files, info.path) || '.'}`, `Path: ${displayOf(files, info.path) || '.'}`), lang),
        pick(text(`종류: ${typeText(info).ko}`, `Type: ${typeText(info).en}`), lang),
      ];
      if (info.type === 'file') {
        const exact = info.size >= 1024 ? ` (${info.size} B)` : '';
        lines.push(pick(text(`크기: ${humanSize(info.size)}${exact}`, `Size: ${humanSize(info.size)}${exact}`), lang));
      }
      lines.push(pick(text(`수정: ${localTime(info.mtimeMs)}`, `Modified: ${localTime(info.mtimeMs)}`), lang));
      // Some Linux file systems report no birth time (0).
      if (info.birthtimeMs > 0) lines.push(pick(text(`만듦: ${localTime(info.birthtimeMs)}`, `Created: ${localTime(info.birthtimeMs)}`), lang));
      if (info.mode !== 0) lines.push(pick(text(`권한: ${info.mode.toString(8).padStart(3, '0')}`, `Permissions: ${info.mode.toString(8).padStart(3, '0')}`), lang));
      if (info.type === 'directory') lines.push(await folderLine(info, ctx, lang));
      if (info.type === 'file') lines.push(...(await contentLines(info, ctx, lang)));
      return ok(lines.join('\n'), { type: info.type, size: info.size, mtimeMs: info.mtimeMs });
    } catch (e) {
      return fromHostError(lang, e);
    }
  },
});
